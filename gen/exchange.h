// The exchange of row values between ranks.
//
// The solver computes one row sum per round, from the top down, and a row of
// sum S reads rows of sums S+1 .. S+4 (see solver.h). Right after the round
// of sum S, every rank sends the rows of that sum that other ranks will read
// (whole rows of H+1 values) and keeps what it receives for the next four
// rounds, in four slots that rotate (slot S mod 4).
//
// The plan is built once, before the first round: each rank tests its own
// rows against the placements that lead to them from another rank (the
// predecessor test of placement.h) and lists, per sum and destination, the
// rows to send, in increasing id order. One MPI_Alltoallv then tells every
// receiver the ids it will get. After that only values travel: one
// MPI_Alltoallv per round, into buffers that are reused. A receiver finds a
// ghost row with a cursor that only moves forward, since the solver walks
// its rows, and so their successors under any one placement, in increasing
// id order.
#pragma once

#include "communicator.h"
#include "huge_pages.h"
#include "partition.h"
#include "placement.h"

#include <cstdint>
#include <vector>

namespace stack {

// Forward-only lookup of ghost rows of one (sum, source rank) by first id.
class GhostCursor {
public:
    GhostCursor() = default;
    GhostCursor(const BoardId* first, const BoardId* last, const double* values, std::size_t row_length)
        : first_(first), next_(first), last_(last), values_(values), row_length_(row_length) {}

    // The row whose first id is `id`; ids asked for must not decrease.
    const double* find(BoardId id) {
        while (next_ != last_ && *next_ < id)
            ++next_;
        if (next_ == last_ || *next_ != id)
            missing(id);
        return values_ + (next_ - first_) * row_length_;
    }

private:
    [[noreturn]] static void missing(BoardId id);

    const BoardId* first_ = nullptr;
    const BoardId* next_ = nullptr;
    const BoardId* last_ = nullptr;
    const double* values_ = nullptr;
    std::size_t row_length_ = 0;
};

struct ExchangeRecord {
    std::uint64_t rows_sent = 0;
    std::uint64_t rows_received = 0;
    double seconds = 0;  // pack + MPI_Alltoallv
};

class Exchange {
public:
    // Builds the plan for every round; collective over `comm`.
    Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
             const RowRules& rules);

    // After the round of `sum`: sends the owned rows of that sum that other
    // ranks read (from `values`, indexed locally) and receives theirs.
    ExchangeRecord run(int sum, const HugeVector<double>& values);

    // The ghost rows of `sum` received from `source`; valid until the
    // exchange of sum - 4.
    GhostCursor cursor(int sum, int source) const;

    double plan_seconds() const { return plan_seconds_; }
    std::size_t buffer_bytes() const;  // plan and buffers, at their largest

private:
    // Per sum: rows grouped by the other rank, counts and offsets in rows.
    struct RowLists {
        std::vector<int> counts, offsets;  // [rank]
        std::vector<std::uint64_t> rows;   // send: first local index; receive: first id
    };
    void plan_sends();
    void share_plan();

    const Communicator& comm_;
    const Partition& partition_;
    const PlacementTable& placements_;
    const RowRules& rules_;
    std::size_t row_length_;                     // H+1 values
    std::vector<RowLists> sends_, receives_;     // [sum]
    std::vector<std::vector<double>> slots_;     // [sum % 4] -> received rows
    std::vector<double> send_buffer_;
    std::vector<int> value_counts_, value_offsets_, receive_value_counts_, receive_value_offsets_;  // [rank]
    double plan_seconds_ = 0;
};

}  // namespace stack
