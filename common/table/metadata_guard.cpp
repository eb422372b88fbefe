#include "table/metadata_guard.h"

#include "support/cli.h"
#include "support/errors.h"

#include <hdf5.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace stack {

int metadata_seconds() {
    const char* text = std::getenv("STACK_METADATA_SECONDS");
    return text && *text ? parse_int_option("STACK_METADATA_SECONDS", text, 1, 86400) : 20;
}

namespace {

[[noreturn]] void leave_child_on_signal(int) { ::_exit(86); }

// Child exit codes: 0 read cleanly, 2 refused (the message follows on the
// pipe), 86 a crash.
[[noreturn]] void read_metadata_in_child(const std::string& path, void (*read)(const std::string&), int report) {
    for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(signal_number, leave_child_on_signal);
    // What libhdf5 or a sanitizer prints about a damaged file is not the
    // user's business: the refusal is one line from the parent. The fuzzer
    // keeps it (STACK_METADATA_CHILD_STDERR=1) to tell libhdf5's failures
    // from ours.
    const char* keep = std::getenv("STACK_METADATA_CHILD_STDERR");
    if (!keep || std::string(keep) != "1")
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0)
            ::dup2(null, STDERR_FILENO), ::close(null);
    std::string refusal;
    try {
        read(path);
        H5garbage_collect();
        H5close();
    } catch (const InputError& error) {
        refusal = error.what();
    } catch (const std::exception& error) {
        refusal = "'" + path + "' is damaged: " + error.what();
    }
    if (!refusal.empty()) {
        const ssize_t written = ::write(report, refusal.data(), std::min<std::size_t>(refusal.size(), 4096));
        (void)written;
        ::_exit(2);
    }
    ::_exit(0);
}

}  // namespace

void check_metadata_in_child(const std::string& path, void (*read)(const std::string&)) {
    const int seconds = metadata_seconds();
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0)  // a program embedding the reader may fork and exec meanwhile
        return;                           // cannot isolate: open it here, unguarded
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(report[0]), ::close(report[1]);
        return;
    }
    if (child == 0) {
        ::close(report[0]);
        read_metadata_in_child(path, read, report[1]);
    }
    ::close(report[1]);
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 2) {
        const pid_t done = ::waitpid(child, &status, WNOHANG);
        if (done == child)
            break;
        if (done < 0) {
            ::close(report[0]);
            return;
        }
        if (waited_ms >= seconds * 1000) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            ::close(report[0]);
            throw InputError("'" + path + "' is damaged: reading its HDF5 metadata did not finish in "
                             + std::to_string(seconds) + " s");
        }
        ::usleep(2000);
    }
    std::string message(4096, '\0');
    const ssize_t length = ::read(report[0], message.data(), message.size());
    ::close(report[0]);
    message.resize(length > 0 ? std::size_t(length) : 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && !message.empty())
        throw InputError(message);
    throw InputError("'" + path + "' is damaged: HDF5 failed reading its metadata ("
                     + (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                            : "exit " + std::to_string(WEXITSTATUS(status)))
                     + ")");
}

}  // namespace stack
