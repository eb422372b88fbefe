// The host's part of the GPU path: its memory plan, always built, and the
// stand-in GpuRounds of a build without CUDA (gpu_rounds.cu is the real one).
#include "gpu_rounds.h"

#include "support/errors.h"

#include <algorithm>

namespace stack {

GpuMemory gpu_memory(const Partition& partition, const RoundLayout& layout, const Rules& rules, int value_size,
                     double host_ghost_bytes) {
    const Band band(partition, layout);
    GpuMemory memory;
    memory.band = double(Band::most_rounds(rules))
                  * (double(band.largest_round_values()) * double(value_size)
                     + double(partition.owned_chunks() + 1) * sizeof(std::uint64_t));
    memory.ghosts = host_ghost_bytes;
    memory.chunks = double(partition.owned_chunks()) * double(sizeof(std::uint32_t) + 2 * sizeof(std::uint64_t));
    const double per_thread = double(rules.piece_count()) * double(partition.geometry().height() + 1) * sizeof(double);
    memory.scratch = std::min(GpuScratchBytes, per_thread * double(GpuMostThreads));
    return memory;
}

#ifndef STACK_CUDA

bool gpu_built() { return false; }

struct GpuRounds::Impl {};

GpuRounds::GpuRounds(const Partition&, const RoundLayout&, const Rules&, const SliceTables&, int, int) {
    throw InputError(
        "--gpu: this stackgen was built without the GPU path (CMake found no CUDA compiler, or -DSTACK_CUDA=OFF): "
        "install the CUDA toolkit and configure again, or run without --gpu");
}
GpuRounds::~GpuRounds() = default;
void GpuRounds::launch(RoundStore&, const std::vector<std::uint64_t>&) {}
bool GpuRounds::in_flight(int) const { return false; }
GpuRoundRecord GpuRounds::wait(int) { return {}; }
void GpuRounds::upload_round(const RoundStore&) {}
void GpuRounds::upload_ghosts(int, const GhostRows&) {}
PieceCounts GpuRounds::counts() const { return {}; }
const GpuReport& GpuRounds::report() const {
    static const GpuReport none;
    return none;
}

#endif

}  // namespace stack
