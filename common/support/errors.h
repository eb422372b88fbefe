// Error types shared by every tool. InputError is a problem with what the
// user asked for (bad option, bad board, wrong file): the tools print its
// message as one line and exit non-zero. Anything else is an internal or
// system failure.
#pragma once

#include <stdexcept>
#include <string>

namespace stack {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stack

namespace stack {

// An error raised on every MPI rank at once (a bad option, a failed
// collective write): the tool exits cleanly, printing it once.
class CollectiveError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Exit codes shared by the tools.
enum ExitCode : int { ExitSuccess = 0, ExitCheckFailed = 1, ExitBadInput = 2, ExitFailure = 3 };

}  // namespace stack
