// The value rounds, for any piece set (the rules object, rules.h).
//
// The solver works on slices (partition.h): the rows of one chunk in one
// round, a row being the states that differ only in column 0 (those of the
// computed residue classes). A placement that touches only upper columns
// fits the whole slice or none of it and leads to the slice of another
// chunk in round S+k (k the piece's cells), with the same rows in the same
// order: one element-wise max over the slice. A placement at a lower column
// x >= 1 fits a whole row or none of it (one max over the row); a wider
// placement at column 0 has its h0 fixed by its surface (one scalar
// update). A one-column orientation at column 0 (the tetrominoes' vertical
// I) stays in its row, at h0 + k, so a row is finished from the top down.
//
// A piece of k cells puts 0..k of them in column 0, so a row of sum S (the
// height sum of columns 1..W-1) reads rows of sums S+1 .. S+K, K the set's
// most cells, and itself for the one-column orientations. One round
// computes one row sum, from (W-1)*H down to 0, each state once, from exact
// successor values, and only the band of rounds S..S+K is in memory
// (band.h). The value of a state is value_from_best() (value.h), so the
// bits do not depend on the layout, the residue classes computed or the
// number of ranks.
#pragma once

#include "band.h"
#include "support/communicator.h"
#include "exchange.h"
#include "gpu_rounds.h"
#include "partition.h"
#include "rules/value.h"
#include "slice_work.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace stack {

// Which code computes a round's slices. Every kind gives the same bits.
enum class KernelKind : std::uint8_t {
    Cpu,             // the CPU slice kernel (solver.cpp): the default
    CpuRows,         // the same, its row-level placements found row by row (0.6.0's; --kernel rows)
    Portable,        // the GPU's block work (slice_work.h) in CPU loops, on the worker threads
    PortableThread,  // its thread-a-slice work (the GPU's where a block's shared memory would not fit)
    Gpu,             // the same work on the rank's GPU (gpu_rounds.h)
};
// Whether the CPU slice kernel computes the rounds (either way of finding
// its row-level placements).
constexpr bool cpu_kernel(KernelKind kind) { return kind == KernelKind::Cpu || kind == KernelKind::CpuRows; }

struct RoundRecord {
    int sum = 0;               // the row sum computed
    std::uint64_t states = 0;  // computed by this rank
    double compute_seconds = 0;
    double worker_seconds_max = 0;   // the busiest worker thread's time in the round
    double worker_seconds_mean = 0;  // the worker threads' mean
    ExchangeRecord exchange;         // of this round's rows, after it
    std::uint64_t rounds_bytes = 0;  // band arrays held at the round's end (rounds S..S+K and spares)
    std::uint64_t ghost_bytes = 0;   // ghost rows held then
    std::uint64_t writer_bytes = 0;  // the writer's buffers then (set by its caller)
    GpuRoundRecord gpu;              // KernelKind::Gpu: the device's share of the round
    std::uint64_t band_bytes() const { return rounds_bytes + ghost_bytes + writer_bytes; }
};

class SliceKernel;  // solver.cpp

// The state of one solve, run one round at a time (collective over `comm`).
// `threads` workers compute each round's slices, sharing the band and the
// ghost rows (only the calling thread talks to MPI). `band_value_size` 4
// holds the rounds in the band as float32 (band.h). `kind` picks the code
// that computes the slices; with KernelKind::Gpu the band lives on GPU
// `device` and the threads only find the rows other ranks read.
class RoundRunner {
public:
    RoundRunner(const Communicator& comm, const Partition& partition, const RoundLayout& layout, const Rules& rules,
                int threads = 1, int band_value_size = sizeof(double), KernelKind kind = KernelKind::Cpu,
                int device = 0, const std::string& spill = {});
    ~RoundRunner();

    std::size_t round_count() const { return std::size_t(partition_.rounds()); }
    int round_sum(std::size_t round) const { return partition_.max_row_sum() - static_cast<int>(round); }
    int threads() const { return threads_; }
    KernelKind kind() const { return kind_; }
    // The GPU's report (KernelKind::Gpu), else nullptr.
    const GpuReport* gpu_report() const { return gpu_ ? &gpu_->report() : nullptr; }
    // Lays out the round and computes its owned slices.
    RoundRecord compute(std::size_t round);
    // Sends the round's rows that other ranks read; receives theirs.
    ExchangeRecord exchange(std::size_t round);
    // The same, overlapped with the next round where that round reads none
    // of these rows (Exchange::next_round_reads_none; not with a GPU): the
    // rows are posted now and travel while the next round computes, which
    // waits for them only at its end. Elsewhere it is exchange(). The
    // record's seconds are those spent posting; the wait is added to the
    // next round's (or returned by finish_exchange after the last).
    ExchangeRecord begin_exchange(std::size_t round);
    double finish_exchange();
    bool overlaps_exchange() const { return overlap_; }
    void block_exchange() { overlap_ = false; }  // --blocking-exchange
    // After the round and whatever else reads it this round (the writer):
    // drops the round that no later round reads.
    void release(std::size_t round);
    // compute + exchange + release.
    RoundRecord run(std::size_t round);
    // The compute part again, for benchmarks: a round computed again gives
    // the same values as long as the rounds it reads are still held.
    RoundRecord compute_again(std::size_t round);
    // Resuming: lays out a finished round and reads this rank's rows of it
    // from a float64 table file (`descriptor`, /values at byte
    // `data_offset`), then finds the rows others read, as compute() would
    // have. Follow with exchange() and, when the round is no longer read,
    // release().
    void reload(std::size_t round, int descriptor, std::uint64_t data_offset);

    // The well game (clears.h): the next rounds computed take, for the
    // set's tetris piece, the max with `floor` (indexed as the round's
    // store; nullptr: none) before each state's value. CPU kernel only.
    void set_tetris_floor(const double* floor);
    // The same for the portable kernels (one rank): the set's tetris piece
    // reads the last sweep's round below->sum = S - TetrisRows (W-1)
    // (RoundView::tetris); nullptr: none. `below` must stay until the next
    // call.
    void set_tetris_round(const RoundStore* below);
    // The same for a GPU run (one rank): the last sweep, and this sweep's
    // values, on the device (GpuRounds::use_sweeps). Before the first round.
    void use_gpu_sweeps(GpuSweeps& sweeps);
    // A GPU run on one rank without a file: the rounds' digests on the
    // device (GpuRounds::digest_on_device); each round's record says so.
    void digest_on_device(int file_value_size);

    const RoundStore& store(int sum) const { return band_[sum]; }
    bool holds(int sum) const { return band_.holds(sum); }
    std::uint64_t rounds_bytes() const { return band_.bytes(); }
    std::uint64_t ghost_bytes() const { return exchange_.bytes(); }
    PieceCounts connections() const;

private:
    RoundRecord compute_on_gpu(RoundRecord record, RoundStore& store, double start);

    const Partition& partition_;
    const RoundLayout& layout_;
    const Rules& set_;
    PlacementTable placements_;
    PlacementRules rules_;
    Band band_;
    Exchange exchange_;
    bool overlap_ = false;  // begin_exchange overlaps the next round
    double waited_ = 0;     // seconds finish() waited, for the next round's record
    KernelKind kind_;
    int threads_;
    std::unique_ptr<SliceTables> tables_;                // Portable and Gpu
    std::unique_ptr<GpuRounds> gpu_;                     // Gpu
    std::vector<std::unique_ptr<SliceKernel>> kernels_;  // [worker thread] (none with a GPU)
    std::vector<std::uint64_t> slices_;                  // the round's non-empty slices' chunks, ascending
    std::vector<std::uint64_t> below_slices_;  // the next round's, launched (one rank) or listed early on a GPU
    int below_listed_ = -1;                    // several ranks: the round below_slices_ lists
    bool reloading_ = false;                   // reload() called since the last compute()
    SuccessorRound tetris_round_;              // set_tetris_round
};

// Calls visit(heights, values) for every row of a round held by this rank
// (a float64 band's), in local order: `heights` with heights[0] = 0,
// `values` the row's stored values (layout.index_in_row gives each h0's
// place; a mirrored layout's row holds only the h0 <= heights[W-1]).
template <class Visit>
void for_each_row_of_round(const Partition& partition, const RoundStore& round, Visit&& visit) {
    const int width = partition.geometry().width();
    for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); ++chunk) {
        if (round.slice_start[chunk + 1] == round.slice_start[chunk])
            continue;
        Heights heights = partition.geometry().decode(partition.chunk_first(chunk));
        const int top = partition.chunks_fix_top() ? heights[width - 1] : 0;
        partition.for_each_row_of_slice(heights, round.sum - partition.upper_sum(chunk),
                                        [&](std::uint64_t row, const Heights& row_heights) {
                                            visit(row_heights, round.at_as<double>(round.row_value(chunk, top, row)));
                                        });
    }
}

// All rounds, without a file: calls on_round(store) for each finished round
// before it is released; collective over `comm`. Returns the connections
// counted on this rank.
PieceCounts solve(const Communicator& comm, const Partition& partition, const RoundLayout& layout, const Rules& rules,
                  const std::function<void(const RoundStore&)>& on_round = {}, int threads = 1,
                  int band_value_size = sizeof(double), KernelKind kind = KernelKind::Cpu);

}  // namespace stack
