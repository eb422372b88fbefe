#include "phase.h"

namespace stack {

const char* phase_name(Phase phase) {
    switch (phase) {
    case Phase::Compute: return "compute";
    case Phase::Exchange: return "exchange";
    case Phase::Write: return "write";
    }
    return "?";
}

PhaseError::PhaseError(int rank, Phase phase, std::size_t round, const std::string& what)
    : std::runtime_error("rank " + std::to_string(rank) + " failed in the " + phase_name(phase) + " phase of round "
                         + std::to_string(round) + ": " + what) {}

}  // namespace stack
