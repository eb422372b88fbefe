// The phases of a round, and the error that names one: a rank that fails
// in a phase says which rank, which phase and which round, in one line
// (the tools print it; stackgen aborts the job with it). Fault injection
// (fault.h) raises the same error for the tests.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace stack {

enum class Phase { Compute, Exchange, Write };
const char* phase_name(Phase phase);

// A failure in a phase of a round, on one rank: the tools print it as one
// line naming all three.
class PhaseError : public std::runtime_error {
public:
    PhaseError(int rank, Phase phase, std::size_t round, const std::string& what);
};

}  // namespace stack
