// GpuRounds in a build without CUDA: --gpu refused in one line.
#include "gpu_rounds.h"

#include "support/errors.h"

namespace stack {

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
void GpuRounds::digest_on_device(int) {}
void GpuRounds::use_sweeps(GpuSweeps&, int) {}

struct GpuSweeps::Impl {};

GpuSweeps::GpuSweeps(const Partition&, const RoundLayout&, int) {
    throw InputError(
        "--gpu: this stackgen was built without the GPU path (CMake found no CUDA compiler, or -DSTACK_CUDA=OFF): "
        "install the CUDA toolkit and configure again, or run without --gpu");
}
GpuSweeps::~GpuSweeps() = default;
void GpuSweeps::next_sweep() {}
bool GpuSweeps::has_last() const { return false; }
void GpuSweeps::upload_last(const RoundStore&) {}
void GpuSweeps::download(RoundStore&, bool) const {}
TargetChange GpuSweeps::change() const { return {}; }
double GpuSweeps::largest() const { return 0; }
std::uint64_t GpuSweeps::allocated() const { return 0; }
PieceCounts GpuRounds::counts() const { return {}; }
const GpuReport& GpuRounds::report() const {
    static const GpuReport none;
    return none;
}

}  // namespace stack
