// Error types shared by every tool. InputError is a problem with what the
// user asked for (bad option, bad board, wrong file): the tools print its
// message as one line and exit non-zero. Anything else is an internal or
// system failure.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace stack {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Text from the user as an error message quotes it: printable ASCII as
// itself, any other byte as \xNN (so the message stays one line of text),
// cut to its first `most` bytes with "..." after.
inline std::string printable(std::string_view text, std::size_t most = 20) {
    static constexpr char Hex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < most; ++i) {
        const unsigned char byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7f)
            out += char(byte);
        else
            out += std::string("\\x") + Hex[byte >> 4] + Hex[byte & 15];
    }
    return text.size() > most ? out + "..." : out;
}

}  // namespace stack

namespace stack {

// An error raised on every MPI rank at once (a bad option, a failed
// collective write): the tool exits cleanly, printing it once.
class CollectiveError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A run stopped by Ctrl-C or SIGTERM, on every rank at once (the ranks
// agreed on it): what() says what was kept and how to go on. The tool exits
// ExitInterrupted (support/interrupt.h).
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Exit codes shared by the tools, and what each means as the help prints
// it (ExitInterrupted: support/interrupt.h).
enum ExitCode : int { ExitSuccess = 0, ExitCheckFailed = 1, ExitBadInput = 2, ExitFailure = 3 };
inline const char* exit_codes_text() {
    return "Exit status:\n"
           "  0    success\n"
           "  1    a check failed (stackplay --check: the games differ from the table;\n"
           "       stackverify: a value is not what its equation gives)\n"
           "  2    bad input: one line on stderr says why, and no output is left\n"
           "  3    a failure while running (I/O, MPI, CUDA): one line says it; a partial\n"
           "       table is kept for --resume\n"
           "  130  interrupted (Ctrl-C, SIGTERM) on every rank: what was kept is said\n";
}

}  // namespace stack
