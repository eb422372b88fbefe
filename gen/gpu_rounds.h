// The rounds on a GPU: one device per rank, holding the rank's band.
//
// The device keeps rounds S..S+K (band.h) in its own memory, each with its
// slice starts, and the ghost rows received for them; round S is computed
// there by the portable slice work (slice_work.h), one block of threads a
// slice (one thread a slice where the block's shared memory would not fit), and
// copied back to the host's RoundStore of round S, where the writer, the
// digest and the exchange read it as they read a CPU round. On one rank
// without a file (--no-output) the digest is computed on the device too
// (digest_on_device) and only the row sum 0 round (V(empty)) comes back.
//
// A round is launched, then waited for. Launching builds its slice starts
// and list of slices on the device, queues its kernel on the compute stream and the copy
// of its values back to the host on the copy stream (after the kernel), and
// returns. On one rank the next round needs nothing from the host, so the
// round runner launches round S-1 before it waits for S: the device then
// computes S-1 while S travels back and the host writes it. The device
// drops a round (and its ghosts) as soon as a round below the ones it is
// read by is launched, so K+1 rounds are enough for that lag. The host keeps
// the layout and values of the round being written and the one launched
// after it: two rounds, not a band. The host's round arrays are pinned
// (page-locked) once each, so the copies back run at the link's speed and
// alongside the kernels.
//
// gpu_rounds.cu is built when CMake finds nvcc (option STACK_CUDA);
// without it gpu_none.cpp's constructor throws InputError, so `stackgen
// --gpu` says in one line that this build has no GPU path. The tests build
// gpu_rounds.cu a third way, on a CPU stand-in for the CUDA runtime
// (tests/cuda_emulator). A CUDA error during a run becomes
// std::runtime_error with CUDA's message (exit 3, the partial table kept).
#pragma once

#include "band.h"
#include "partition.h"
#include "rules/bracket.h"
#include "rules/rules.h"
#include "slice_work.h"
#include "table/table_format.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stack {

// This build has the GPU path.
bool gpu_built();

// A launch runs at most GpuMostThreads threads, each with scratch for a
// row's best successors (pieces x (H+1) doubles), fewer when the scratch
// would pass GpuScratchBytes.
// The block kernel needs none: a plan counts none where a block's shared
// memory fits GpuPlannedBlockShared, an H100's and an H200's 227 KiB.
constexpr std::uint64_t GpuMostThreads = std::uint64_t(1) << 18;
constexpr double GpuScratchBytes = 512.0 * 1024 * 1024;
constexpr std::size_t GpuPlannedBlockShared = 232448;
// The thread-a-slice kernel's scratch a thread, in doubles: a row's best
// successors, pieces x (H+1). The plan and the run both size it here.
inline std::size_t gpu_scratch_per_thread(const Rules& rules, const Partition& partition) {
    return std::size_t(rules.piece_count()) * std::size_t(partition.geometry().height() + 1);
}

// The device memory a rank's GPU run holds at its peak, by part (capacity.h
// plans it; GpuRounds allocates no more).
struct GpuMemory {
    double band = 0;     // K+1 rounds, each sized for the rank's largest, with their slice starts
    double ghosts = 0;   // the ghost rows of K rounds (several ranks)
    double chunks = 0;   // the upper sums, the chunks' slice rows and flags, two rounds' lists of slices (built there)
    double scratch = 0;  // the thread-a-slice kernel's best-successor rows (0: the block kernel's fit)
    double sweeps = 0;   // --clears: the last sweep's table and this one's (GpuSweeps)
    double total() const { return band + ghosts + chunks + scratch + sweeps; }
};
// `host_ghost_bytes` is the host's allowance for ghost rows (capacity.h).
// `block_shared` is the shared memory a block may take on the device (the
// run's own; GpuPlannedBlockShared for a plan).
GpuMemory gpu_memory(const Partition& partition, const RoundLayout& layout, const Rules& rules, int value_size,
                     double host_ghost_bytes, std::size_t block_shared = GpuPlannedBlockShared,
                     Clears clears = Clears::None);
// The device memory of the well game's sweeps (GpuSweeps): two float64
// tables and one round's slice starts.
double gpu_sweeps_bytes(const Partition& partition, const RoundLayout& layout);
// Kept free beyond the plan: the kernels' stacks (about 150 MB at full
// residency on an H100) and the CUDA runtime's own.
constexpr double GpuMarginBytes = 1024.0 * 1024 * 1024;

// One round on the device.
struct GpuRoundRecord {
    double kernel_seconds = 0;       // the round's kernel, by the device's clock
    double copy_seconds = 0;         // its values' copy back to the host, by the device's clock
    std::uint64_t kernel_bytes = 0;  // the values the kernel read and wrote (each successor row read once per
                                     // placement, each state written once), as the band holds them
    std::uint64_t copy_bytes = 0;    // its values copied back (what copy_seconds times)
    std::uint64_t upload_bytes = 0;  // its slice starts and list of slices sent to the device
    bool digested = false;           // digest_on_device: round_crc is the round's CRC in the file
    std::uint64_t round_crc = 0;
};

// The device, and the run's totals.
struct GpuReport {
    std::string device;
    int device_index = 0;
    double peak_bytes_per_second = 0;  // from the memory clock and bus width
    std::uint64_t device_memory = 0;   // the device's total memory
    std::uint64_t allocated = 0;       // what this run allocated on it at its peak
    double kernel_seconds = 0, copy_seconds = 0;
    std::uint64_t kernel_bytes = 0, copy_bytes = 0;
    std::uint64_t upload_bytes = 0;  // slice starts, slices, ghost rows and resumed rounds sent to the device
    bool pinned = true;              // every host round array page-locked (else the copies back were synchronous)
    std::string kernel;              // "block" (a block a slice) or "thread" (a thread a slice)
    int threads_per_block = 0;
    std::uint64_t blocks = 0;                  // the grid, at most
    std::uint64_t shared_bytes_per_block = 0;  // the block kernel's
};

// The well game's sweeps on one rank's GPU (clears.h): every round of the
// last sweep and of the sweep being computed, each as the device lays a
// round out (a round store's order, at the table's offsets), so that a
// sweep reads its tetrises and measures its change on the device, and no
// table crosses the bus or touches the disk between sweeps. GpuRounds
// (use_sweeps) reads the last sweep's round S - TetrisRows (W-1) as round
// S's tetris successors, and after each round's kernel keeps the round's
// values here and takes the largest change from the last sweep's.
class GpuSweeps {
public:
    // Allocates both tables on device `device` (as GpuRounds picks it);
    // throws InputError when they do not fit its free memory.
    GpuSweeps(const Partition& partition, const RoundLayout& layout, int device);
    ~GpuSweeps();
    GpuSweeps(const GpuSweeps&) = delete;
    GpuSweeps& operator=(const GpuSweeps&) = delete;

    // The sweep computed becomes the last one; the change starts again.
    void next_sweep();
    // Whether a last sweep is held (sweep 0 has none, nor reads one).
    bool has_last() const;
    // Resuming: round `store.sum` of the last sweep, from the host.
    void upload_last(const RoundStore& store);
    // Writing a sweep: round `store.sum` of the one computed (`last`: of
    // the last sweep, kept until next_sweep()), to the host.
    void download(RoundStore& store, bool last = false) const;
    // The change of the rounds computed in this sweep from the last
    // sweep, each way, at the boards a tetris lands on (clears.h; 0
    // without a last sweep), and their largest value.
    TargetChange change() const;
    double largest() const;
    std::uint64_t allocated() const;

    struct Impl;
    Impl& impl() const { return *impl_; }  // GpuRounds's

private:
    std::unique_ptr<Impl> impl_;
};

class GpuRounds {
public:
    // Takes device `device` (the rank's index on its node, modulo the
    // devices there) and allocates everything the run needs up front.
    // Throws InputError when there is no CUDA device or driver, or when the
    // band does not fit the device's free memory.
    GpuRounds(const Partition& partition, const RoundLayout& layout, const Rules& rules, const SliceTables& tables,
              int value_size, int device);
    ~GpuRounds();
    GpuRounds(const GpuRounds&) = delete;
    GpuRounds& operator=(const GpuRounds&) = delete;

    // Queues round `store.sum` (laid out on the host: its slice starts)
    // over its non-empty slices `slices` (owned chunks, ascending), reading
    // rounds sum+1 .. sum+K and their ghosts on the device, and the copy of
    // its values back into store.values; returns before they are done.
    // `store` must stay until wait(). Rounds are launched from the top down.
    void launch(RoundStore& store, const std::vector<std::uint64_t>& slices);
    // Whether round `sum` is launched and not yet waited for.
    bool in_flight(int sum) const;
    // Waits until round `sum` is in its host store; its record.
    GpuRoundRecord wait(int sum);
    // A round known otherwise (read back from a partial table to resume).
    void upload_round(const RoundStore& store);
    // The ghost rows received for round `sum`.
    void upload_ghosts(int sum, const GhostRows& ghosts);
    // One rank without a file (--no-output): each round's digest is
    // computed on the device (its CRC in the record) and only round 0 (the
    // empty board's) comes back to the host; `file_value_size` is the
    // table's value size, 4 or 8 bytes.
    void digest_on_device(int file_value_size);
    // The well game (clears.h), on one rank: each round launched takes the
    // tetris successors of `tetris_piece` from the sweeps' last sweep (when
    // it holds one), and its values are kept in the sweeps' table after its
    // kernel, their change measured. Before the first launch.
    void use_sweeps(GpuSweeps& sweeps, int tetris_piece);
    // The connections counted on the device, [piece].
    PieceCounts counts() const;
    const GpuReport& report() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace stack
