// Fault injection, for the tests of what happens when one rank fails.
//
// STACK_FAULT="rank=R,round=N,phase=compute|exchange|write[,action=throw|kill|pause]"
// makes rank R fail at round N (counted from 0, the top row sum) in that
// phase: by throwing (the default), or by killing itself (SIGKILL, as a
// crashed node would) for the resume tests; `pause` stops it instead
// (SIGSTOP) until a test sends SIGCONT, so that the test can act while a
// run is known to be in the middle (a second writer, a reader holding the
// partial). Unset, it costs one getenv at start-up.
#pragma once

#include "phase.h"

#include <cstddef>
#include <string>

namespace stack {

// What STACK_FAULT asks for.
struct FaultPlan {
    int rank = -1;
    std::size_t round = 0;
    Phase phase = Phase::Compute;
    enum class Action { Throw, Kill, Pause } action = Action::Throw;
};

// Parses STACK_FAULT's text; throws InputError naming the item it cannot read.
FaultPlan parse_fault_plan(const std::string& text);

// Fails here if STACK_FAULT says so (throws PhaseError, or does not return).
void inject_fault(int rank, std::size_t round, Phase phase);

}  // namespace stack
