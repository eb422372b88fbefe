// Ctrl-C and SIGTERM during long work: stackplay's games (both games) and
// stackgen's rounds. While an InterruptScope lives, the first SIGINT or
// SIGTERM only raises a flag: the games poll interrupted() between games
// (and the real game between pieces), stop, and the run reports the games
// finished so far, marked as interrupted; stackgen's ranks agree on it
// after each round, record the rounds on disk and say how to resume. Both
// exit ExitInterrupted (130, the shell's code for a SIGINT). The handler restores the default action of both signals as
// it runs, so a second one, of either kind, stops the process at once. A
// signal the process was started ignoring (nohup, a background job of a
// script) stays ignored. Scopes nest: only the outermost takes the signals
// and clears the flag, so a signal that arrives between two inner scopes
// (stackgen's sweeps, each a run of the rounds) is not lost.
#pragma once

namespace stack {

constexpr int ExitInterrupted = 130;

class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
};

// Has a SIGINT or SIGTERM arrived inside an InterruptScope?
bool interrupted();

}  // namespace stack
