// The exchange of row values between ranks, round by round.
//
// The solver computes one row sum per round, from the top down, and a row of
// sum S reads rows of sums S+1 .. S+K, K the set's most cells (band.h).
// Right after the round of sum
// S, every rank finds the rows of that round that other ranks will read --
// the placement rule run in reverse (partition.h), on the placements whose
// predecessor lives on another rank -- and sends them, whole rows with their
// first ids, in one MPI_Alltoallv for the ids and one for the values. What a
// rank receives it keeps until the round of S-K is done. A receiver finds a
// ghost row by its first id with a cursor that only moves forward: the
// solver walks its rows in id order, so the successors of any one placement
// come in id order too; and a whole remote slice is a run of consecutive
// ghost rows, since its owner sends all of its rows or none.
#pragma once

#include "band.h"
#include "support/communicator.h"
#include "partition.h"
#include "rules/placement.h"
#include "slice_work.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stack {

// Forward-only lookup of the ghost rows of one (round, source rank) by
// first id.
class GhostCursor {
public:
    GhostCursor() = default;
    GhostCursor(const BoardId* first, const BoardId* last, const char* values, std::size_t row_bytes)
        : first_(first), next_(first), last_(last), values_(values), row_bytes_(row_bytes) {}

    // The row whose first id is `id` (its values as the band holds them);
    // ids asked for must not decrease. A worker thread that skipped other
    // workers' slices jumps by search.
    const void* find(BoardId id) {
        if (last_ - next_ > 8 && next_[8] < id)
            next_ = std::lower_bound(next_ + 8, last_, id);
        while (next_ != last_ && *next_ < id)
            ++next_;
        if (next_ == last_ || *next_ != id)
            missing(id);
        return values_ + std::size_t(next_ - first_) * row_bytes_;
    }

private:
    [[noreturn]] static void missing(BoardId id);

    const BoardId* first_ = nullptr;
    const BoardId* next_ = nullptr;
    const BoardId* last_ = nullptr;
    const char* values_ = nullptr;
    std::size_t row_bytes_ = 0;
};

struct ExchangeRecord {
    std::uint64_t rows_sent = 0;
    std::uint64_t rows_received = 0;
    std::uint64_t bytes_sent = 0;  // ids and values
    double seconds = 0;            // packing, MPI_Alltoallv (the rows are found during the round)
};

class Exchange {
public:
    // `mirrored`: the layout stores canonical boards only (table_format.h),
    // and a row is also read, mirrored, by the column-0 placements whose
    // successor is its boards' mirror image.
    Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
             const PlacementRules& rules, bool mirrored = false);

    struct SendRow {
        std::uint64_t local;  // row index in the round
        BoardId id;           // its first id
        std::uint64_t value;  // its first value in the round
        int length;           // its values (a mirrored layout's rows are as long as their top allows)
    };
    // What one worker thread found of a round's rows that others read: each
    // worker walks its own slices, so it marks rows without sharing a thing.
    struct Finder {
        std::vector<std::vector<SendRow>> rows;  // [destination] -> rows, ascending
        std::vector<std::uint64_t> marked;       // [destination] -> the last row marked for it
        std::vector<int> slice_destinations;     // of the current slice
        // The planner's count (traffic.h): rows only counted, [destination],
        // not listed, so that walking a huge well's sample holds nothing.
        bool count_only = false;
        std::vector<std::uint64_t> counted;
    };

    // The rows other ranks read are found while the solver walks a round,
    // sharing its walk: begin_sends() before the round, then, on each
    // worker's finder, for each slice find_slice() on its upper columns,
    // and find_row() for each of its rows, in id order (a worker's slices
    // ascend; run() merges the workers' rows in id order).
    // `stored_index[h0]` is the round's index_in_row (-1: not stored).
    // Finding reads the partition's ranks, not the communicator's (the
    // same in a run), so that the planner (traffic.h) finds a planned
    // layout's rows for any rank without that many MPI ranks.
    void begin_sends(const int* stored_index, int workers = 1);
    Finder& finder(int worker) { return finders_[std::size_t(worker)]; }
    void find_slice(Finder& finder, const Heights& upper_heights) const;
    // A row's ghost is padded to a full row of its round.
    void find_row(Finder& finder, std::uint64_t local_row, std::uint64_t first_value, int length,
                  const Heights& row_heights, const PlacementTable::Differences& differences) const;
    // After the round: sends the rows found and receives the other ranks'.
    // Collective. run() is start() then finish().
    ExchangeRecord run(const RoundStore& round);
    // The same in two halves (issue 37), so that the rows travel while the
    // next round computes: start() packs the rows, agrees on the counts and
    // posts the sends and receives; progress() lets MPI move them (Open
    // MPI's TCP transport moves a posted collective only inside MPI calls),
    // from the thread that called start(); finish() waits for them and
    // returns the seconds it waited. One exchange at a time. Legal only
    // where the next round reads none of these rows (next_round_reads_none).
    ExchangeRecord start(const RoundStore& round);
    void progress();
    double finish();
    bool pending() const { return pending_; }
    // Whether a round reads no ghost row of the round just above it: every
    // placement that can change chunk (it adds cells to a column >= the
    // lower columns) adds at least 2 cells to columns 1..W-1, so its
    // successor is 2 or more rounds up. True of the tetrominoes with 2 or 3
    // lower columns; false with 1 (an L, J or T upright in columns 0-1).
    bool next_round_reads_none() const { return next_round_reads_none_; }
    // The ghost rows of round `sum` received from `source`; valid until
    // drop(sum).
    GhostCursor cursor(int sum, int source) const;
    // The same rows as plain arrays, for the portable slice work and the
    // GPU (empty when none were received).
    GhostRows ghost_rows(int sum) const;
    // The ghost row of round `sum` from `source` whose first id is `id`, in
    // any order (a mirror read's rows come in no order a cursor could
    // follow): a bucket of the row's id, then a short search inside it
    // (GhostIndex). nullptr when it was not received.
    const char* find_ghost(int sum, int source, BoardId id) const;
    // Frees the ghosts of a round no longer read.
    void drop(int sum);
    std::uint64_t bytes() const { return bytes_; }

private:
    // Where to start looking for a ghost row by id: a source's ids ascend
    // from `first`, and bucket b = (id - first) >> shift holds the rows
    // buckets[start + b] .. buckets[start + b + 1] (about two rows a bucket
    // where the ids spread evenly). Built once a round arrives (finish), read
    // by every worker of the four rounds that read it.
    struct SourceIndex {
        BoardId first = 0;
        int shift = 0;
        std::uint64_t start = 0, buckets = 0;
    };
    struct Ghosts {
        // [source] in rows: 64-bit here and on the device, whatever MPI's
        // int counts (the exchange refuses a round past them) allow.
        std::vector<std::uint64_t> counts, offsets;
        std::vector<BoardId> ids;          // first ids, by source, ascending
        std::vector<char> values;          // rows, in the same order, as the band holds them
        std::size_t row_bytes = 0;
        std::vector<SourceIndex> index;        // [source]
        std::vector<std::uint32_t> bucket_rows;  // every source's buckets' first rows, relative to its offset
    };
    void build_index(Ghosts& ghosts) const;

    const Communicator& comm_;
    const Partition& partition_;
    const PlacementTable& placements_;
    const PlacementRules& rules_;
    std::vector<Ghosts> ghosts_;  // [sum]
    std::vector<Ghosts> spare_;   // buffers of dropped rounds, reused
    std::vector<BoardId> send_ids_;
    std::vector<char> send_values_;
    std::vector<Finder> finders_;                 // [worker thread]
    std::vector<SendRow> merged_;                 // one destination's rows from every finder
    std::array<bool, MaxWidth> remote_column_{};  // [x] -> some predecessor at x lives elsewhere
    std::vector<std::uint8_t> remote_;            // [orientation * MaxWidth + x] -> its predecessor lives elsewhere
    bool lower_remote_ = false;                   // some row-level predecessor lives elsewhere
    const int* stored_index_ = nullptr;           // of the round
    std::uint64_t bytes_ = 0;
    bool next_round_reads_none_ = false;
    bool mirrored_ = false;
    // The mirror senders: the owners of the canonical boards whose column-0
    // placement leads to the mirror image of a board of the row.
    // mark(rank) for each (a template, defined in exchange.cpp, its one
    // caller's file: no std::function to allocate for every row).
    template <class Mark, class Done>
    void find_mirror_readers(Mark&& mark, Done&& done, const Heights& row_heights) const;
    std::vector<std::uint64_t> mirror_chunk_taken_;  // [orientation]: its cells in columns L..W-1 at column 0, as digits
    // The exchange in flight: its requests and the counts they read.
    bool pending_ = false;
    int pending_sum_ = -1;
    MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    std::vector<int> id_counts_, id_offsets_, id_receive_counts_, id_receive_offsets_;
    std::vector<int> value_counts_, value_offsets_, value_receive_counts_, value_receive_offsets_;
};

}  // namespace stack
