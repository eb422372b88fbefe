// Whether a run fits this box, decided before anything large is built.
//
// Up front, from the shape alone and in 128-bit arithmetic, with nothing
// allocated: lower bounds of what each rank must hold (its share of the
// chunk list and of the band of K+1 rounds, the counting tables) and of
// the file's size. A well that cannot fit (11x20, 16x14, a height near a
// million) is refused in well under a second, naming the memory per rank
// and the disk it would need and what is available.
//
// Then, with the partition and layout built, the exact band of each rank,
// its ghosts and buffers against the memory of the ranks on its node, and
// the table's size against the free disk.
#pragma once

#include "band.h"
#include "partition.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>

namespace stack {

// The lower bounds, from the shape alone in 128-bit arithmetic, for a run
// on `ranks` ranks: the memory each rank must hold at least, and the
// table file's size at least (doubles: they may pass 2^64).
// With `spill` (stackgen --spill) the band's values are not in memory but
// in files: spill_bytes, at least, a rank.
struct CapacityBounds {
    double rank_bytes = 0;
    double file_bytes = 0;
    double spill_bytes = 0;
};
CapacityBounds capacity_lower_bounds(const Geometry& geometry, const Rules& rules, const ResidueSet& residues,
                                     bool mirrored, int ranks, Precision precision, Precision band_precision, bool gpu,
                                     bool spill = false);

// Throws InputError on every rank when the lower bounds exceed the memory
// available on a node or the free disk beside `output` (not checked when
// resuming, the file existing, nor for an empty `output`: no file).
// `gpu`: the band lives on a GPU and the host holds two rounds of it
// (gpu_rounds.h).
// `spill`: the directory the band's values are spilled to (--spill; empty:
// none), whose free disk must hold the node's ranks' band values.
void check_capacity_up_front(const Communicator& comm, const Geometry& geometry, const Rules& rules,
                             const ResidueSet& residues, bool mirrored, Precision precision, Precision band_precision,
                             const std::string& output, bool resuming, bool gpu = false,
                             const std::string& spill = {});

// The same with the exact band, once the partition and layout exist.
void check_capacity(const Communicator& comm, const Partition& partition, const RoundLayout& layout, const Rules& rules,
                    Precision precision, Precision band_precision, const std::string& output, bool resuming,
                    bool gpu = false, Clears clears = Clears::None, const std::string& spill = {});

// What one rank holds at its peak, by part: the band (its K+1 consecutive
// rounds that take the most, each sized for itself, with their slice
// starts: Band::peak; with a GPU, the host's two rounds, each at most the
// largest), the ghost rows allowed for when there are several ranks, the
// writer's buffers, the per-chunk lists and the process itself.
// A line-clear run (clears.h) holds the whole table live: the last sweep's
// table, mapped once a node (its share per rank counted; on the GPU with
// --gpu, gpu_rounds.h), and a round of tetris successors (with --gpu, the
// round a sweep is written or resumed through).
struct RankMemory {
    double band = 0, ghosts = 0, writer = 0, process = 0;
    BandPeak band_peak;      // the band's rounds at its largest (first_sum -1: a GPU host's, each the largest round)
    double chunks = 0;       // the partition's upper sums and a round's list of slices, a chunk each
    double targets = 0;  // --clears: the values the tetrises read, on every rank (clears.h's TetrisTargets)
    double floor = 0;        // --clears: the round of tetris successors
    double spilled = 0;      // --spill: the band's values at its largest, in files (band then counts the rest)
    double total() const { return band + ghosts + writer + process + chunks + targets + floor; }
};
RankMemory rank_memory(const Partition& partition, const RoundLayout& layout, const Rules& rules,
                       Precision band_precision = Precision::Float64, bool gpu = false, Clears clears = Clears::None,
                       bool spill = false);
// The disk a run needs: the table, and for --clears the last sweep's beside
// the one being written.
double run_disk_bytes(const RoundLayout& layout, Precision precision, Clears clears);
// The rounds a rank's host memory holds: the band's K+1, or two with a GPU.
int host_rounds(const Rules& rules, bool gpu);

// Free bytes in the directory that would hold `output` (-1: unknown).
double free_disk_bytes(const std::string& output);

// The table file's size: values, offsets, checksums and metadata.
std::uint64_t table_file_bytes(const RoundLayout& layout, Precision precision);

}  // namespace stack
