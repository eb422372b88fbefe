// The host's part of the GPU path: its memory plan, built with or without
// CUDA (gpu_rounds.cu is the GPU path, gpu_none.cpp a build without it).
#include "gpu_rounds.h"

#include "clears.h"

#include <algorithm>

namespace stack {

GpuMemory gpu_memory(const Partition& partition, const RoundLayout& layout, const Rules& rules, int value_size,
                     double host_ghost_bytes, std::size_t block_shared, Clears clears) {
    GpuMemory memory;
    memory.band = double(Band::most_rounds(rules))
                  * (double(Band::largest_round_values(partition, layout)) * double(value_size)
                     + double(partition.owned_chunks() + 1) * sizeof(std::uint64_t));
    memory.ghosts = host_ghost_bytes;
    memory.chunks = double(partition.owned_chunks()) * double(sizeof(std::uint32_t) + 3 * sizeof(std::uint64_t) + 1);
    const double per_thread = double(gpu_scratch_per_thread(rules, partition)) * sizeof(double);
    const bool blocks = slice_block_shape(partition, rules, layout, value_size).bytes() <= block_shared;
    memory.scratch = blocks ? 0.0 : std::min(GpuScratchBytes, per_thread * double(GpuMostThreads));
    memory.sweeps = clears != Clears::None ? gpu_sweeps_bytes(partition, layout) : 0.0;
    return memory;
}

double gpu_sweeps_bytes(const Partition& partition, const RoundLayout& layout) {
    // Both tables, the tetris round's slice starts, and the target runs
    // (16 bytes a target row, at most twice the targets' values).
    return 2.0 * double(layout.stored_states()) * sizeof(double)
           + double(partition.owned_chunks() + 1) * sizeof(std::uint64_t) + 2 * tetris_targets_bytes(layout);
}

}  // namespace stack
