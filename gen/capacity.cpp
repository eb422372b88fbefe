#include "capacity.h"

#include "clears.h"

#include "band.h"
#include "round_writer.h"
#include "support/cli.h"
#include "support/errors.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>

namespace stack {

namespace {

using Wide = unsigned __int128;

// Ghost rows held, as a share of the band, allowed for in the memory check
// when there are several ranks. Measured at np 2 on 6x20 and 7x20: 0.19 for
// the tetrominoes (results/scale.md has more ranks), 1.02 for the
// rectangles and 1.03 for the pentominoes, whose wider pieces read more of
// the other rank's rows (results/pieces.md). The pentominoes' 8x20 class 0,
// let through with the tetrominoes' share, was killed for memory halfway.
constexpr double TetrominoGhostShare = 0.5;
constexpr double OtherGhostShare = 1.5;
// The writer's buffers (its queue and working segments), and the process
// itself.
constexpr double WriterBytes = double(RoundWriter::MostBufferBytes);
constexpr double ProcessBytes = 64 << 20;
// Metadata and slack in a table file.
constexpr std::uint64_t FileSlack = 1 << 16;

std::string directory_of(const std::string& output) { return std::filesystem::absolute(output).parent_path().string(); }

// Every rank decides from the same reduced numbers, so all agree: the most
// any node needs (per rank x ranks on the node), the least memory any node
// has, rank 0's free disk.
struct Needs {
    double rank_bytes = 0;  // memory per rank
    double file_bytes = 0;
    double spill_bytes = 0;  // --spill: the band's values a rank, on the spill directory's disk
};

void refuse_if_too_large(const Communicator& comm, const Geometry& geometry, const Needs& needs,
                         const std::string& output, bool resuming, const char* qualifier,
                         const std::string& spill = {}) {
    if (!spill.empty()) {  // each node's ranks spill into their node's directory
        const double node = comm.all_reduce(needs.spill_bytes * comm.ranks_on_node(), Reduction::Max);
        const double free = comm.all_reduce(free_disk_bytes(spill + "/band"), Reduction::Min);
        if (free >= 0 && node > free)
            throw InputError("the band spilled to " + spill + " needs " + qualifier + human_bytes(node)
                             + " of disk on the most loaded node, but " + human_bytes(free)
                             + " is free there: free some disk, or spill elsewhere");
    }
    const double node = comm.all_reduce(needs.rank_bytes * comm.ranks_on_node(), Reduction::Max);
    const double available = comm.all_reduce(double(available_memory_bytes()), Reduction::Min);
    double disk = comm.is_root() && !resuming && !output.empty() ? free_disk_bytes(output) : -1.0;
    comm.broadcast(disk);
    const bool memory_short = available > 0 && node > available;
    const bool disk_short = disk >= 0 && needs.file_bytes > disk;
    if (!memory_short && !disk_short)
        return;
    const std::string well = std::to_string(geometry.width()) + "x" + std::to_string(geometry.height());
    std::string text = "the " + well + " table needs " + qualifier + human_bytes(needs.rank_bytes)
                       + " of memory per rank (" + human_bytes(node) + " on the most loaded node) and "
                       + human_bytes(needs.file_bytes) + " of disk, but a node has " + human_bytes(available)
                       + " of memory available";
    if (disk >= 0)
        text += " and " + directory_of(output) + " has " + human_bytes(disk) + " free";
    throw InputError(text + (memory_short ? ": use more nodes, or fewer residue classes" : ": free some disk"));
}

}  // namespace

double free_disk_bytes(const std::string& output) {
    const std::filesystem::path directory = std::filesystem::absolute(output).parent_path();
    struct statvfs status {};
    return ::statvfs(directory.c_str(), &status) == 0 ? double(status.f_bavail) * double(status.f_frsize) : -1.0;
}

std::uint64_t table_file_bytes(const RoundLayout& layout, Precision precision) {
    return layout.stored_states() * value_bytes(precision) + layout.offsets().size() * sizeof(std::uint64_t)
           + layout.checksum_blocks() * sizeof(std::uint32_t) + FileSlack;
}

// Lower bounds, nothing built: L stored states at least
// (RoundLayout::fewest_stored_states), of which some rank holds 1/P; the
// band the largest sum of K+1 consecutive rounds, at least that rank's
// values over the ceil(R / (K+1)) bands that cut its R = (W-1)H+1 rounds
// into pieces (one of those holds that many at least); the chunks a rank
// owns at least floor(chunks / P), each with an upper sum and K+1 slice
// starts; the rounds' counting tables.
CapacityBounds capacity_lower_bounds(const Geometry& geometry, const Rules& rules, const ResidueSet& residues,
                                     bool mirrored, int ranks_count, Precision precision, Precision band_precision,
                                     bool gpu, bool spill) {
    const Wide most_rounds = Wide(host_rounds(rules, gpu));
    const Wide ranks = Wide(ranks_count);
    const Wide stored = RoundLayout::fewest_stored_states(geometry, residues, mirrored);
    const Wide rounds = Wide((geometry.width() - 1) * geometry.height() + 1);
    const int lower = mirrored ? Partition::mirrored_lower_columns(geometry, ranks_count)
                               : Partition::default_lower_columns(geometry, ranks_count);
    const Wide chunks = geometry.states() / geometry.place_value(lower) / ranks;
    const Wide band = value_bytes(band_precision) * (stored / ranks / ((rounds + most_rounds - 1) / most_rounds));
    const Wide slices = chunks * sizeof(std::uint32_t) + most_rounds * SliceStarts::bytes(chunks, geometry.height());
    const Wide tables = CompositionCodec::table_bytes(geometry.width() - 1, geometry.height());
    CapacityBounds bounds;
    bounds.rank_bytes = double((spill ? 0 : band) + slices + tables);
    bounds.file_bytes = double(stored * value_bytes(precision));
    bounds.spill_bytes = spill ? double(band) : 0.0;
    return bounds;
}

void check_capacity_up_front(const Communicator& comm, const Geometry& geometry, const Rules& rules,
                             const ResidueSet& residues, bool mirrored, Precision precision, Precision band_precision,
                             const std::string& output, bool resuming, bool gpu, const std::string& spill) {
    const CapacityBounds bounds = capacity_lower_bounds(geometry, rules, residues, mirrored, comm.size(), precision,
                                                        band_precision, gpu, !spill.empty());
    Needs needs;
    needs.rank_bytes = bounds.rank_bytes;
    needs.file_bytes = bounds.file_bytes;
    needs.spill_bytes = bounds.spill_bytes;
    refuse_if_too_large(comm, geometry, needs, output, resuming, "at least ", spill);
}

int host_rounds(const Rules& rules, bool gpu) { return gpu ? 2 : Band::most_rounds(rules); }

RankMemory rank_memory(const Partition& partition, const RoundLayout& layout, const Rules& rules,
                       Precision band_precision, bool gpu, Clears clears, bool spill) {
    RankMemory memory;
    const int value_size = int(value_bytes(band_precision));
    const std::vector<std::uint64_t> values = Band::round_values(partition, layout);
    const std::uint64_t largest = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    const double largest_round_bytes =
        double(Band::values_bytes(largest, value_size)) + double(Band::slice_bytes(partition));
    if (gpu) {
        // The host's two rounds, each at most the largest (gpu_rounds.h).
        memory.band_peak.first_sum = -1;
        memory.band_peak.round_bytes.assign(std::size_t(host_rounds(rules, gpu)),
                                            Band::values_bytes(largest, value_size));
        for (const std::uint64_t bytes : memory.band_peak.round_bytes) {
            memory.band_peak.values_bytes += bytes;
            memory.band_peak.slice_bytes += Band::slice_bytes(partition);
        }
    } else {
        memory.band_peak = Band::peak(partition, values, Band::most_rounds(rules), value_size);
    }
    memory.band = double(memory.band_peak.bytes());
    if (spill && !gpu) {
        memory.spilled = double(memory.band_peak.values_bytes);
        memory.band -= memory.spilled;
    }
    // The ghosts of K rounds: a share of K+1 of the largest round, GPU or
    // not (the shares were measured against a band whose every round was
    // sized for the largest, and are kept at those bytes).
    const double share = rules.is_tetrominoes() ? TetrominoGhostShare : OtherGhostShare;
    memory.ghosts = partition.ranks() > 1 ? double(Band::most_rounds(rules)) * largest_round_bytes * share : 0.0;
    memory.writer = WriterBytes;
    memory.process = ProcessBytes;
    // Each chunk's upper sum; a GPU's host also lists a round's non-empty
    // slices, which the CPU kernels find as they go (RoundRunner).
    memory.chunks =
        double(partition.owned_chunks()) * double(sizeof(std::uint32_t) + (gpu ? sizeof(std::uint64_t) : 0));
    if (clears != Clears::None) {  // a GPU holds the last sweep itself (GpuSweeps)
        // Every rank holds the values the tetrises read (TetrisTargets),
        // and several ranks gather each target round in a copy of it.
        const double targets = tetris_targets_bytes(layout);
        memory.targets = gpu ? 0.0 : targets * (partition.ranks() > 1 ? 2 : 1);
        memory.floor = double(largest) * sizeof(double);
    }
    return memory;
}

double run_disk_bytes(const RoundLayout& layout, Precision precision, Clears clears) {
    return double(table_file_bytes(layout, precision)) * (clears != Clears::None ? 2 : 1);
}

// The exact band, ghosts and buffers (rank_memory).
void check_capacity(const Communicator& comm, const Partition& partition, const RoundLayout& layout, const Rules& rules,
                    Precision precision, Precision band_precision, const std::string& output, bool resuming, bool gpu,
                    Clears clears, const std::string& spill) {
    const RankMemory memory =
        rank_memory(partition, layout, rules, band_precision, gpu, clears, !spill.empty());
    Needs needs;
    needs.rank_bytes = memory.total();
    needs.file_bytes = run_disk_bytes(layout, precision, clears);
    needs.spill_bytes = memory.spilled;
    refuse_if_too_large(comm, partition.geometry(), needs, output, resuming, "about ", spill);
}

}  // namespace stack
