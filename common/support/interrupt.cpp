#include "support/interrupt.h"

#include <atomic>
#include <csignal>

namespace stack {

namespace {

std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

constexpr int Signals[] = {SIGINT, SIGTERM};
struct sigaction previous[2];
int depth = 0;  // scopes alive, all on the thread that made the first

// Async-signal-safe: a lock-free store and sigaction.
extern "C" void request_stop(int) {
    stop_requested.store(true, std::memory_order_relaxed);
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (const int signal : Signals)
        sigaction(signal, &fallback, nullptr);
}

}  // namespace

InterruptScope::InterruptScope() {
    if (depth++ > 0)  // nested: the outermost scope holds the signals and the flag
        return;
    stop_requested = false;
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < 2; ++i) {
        sigaction(Signals[i], nullptr, &previous[i]);
        if (previous[i].sa_handler != SIG_IGN)
            sigaction(Signals[i], &action, nullptr);
    }
}

InterruptScope::~InterruptScope() {
    if (--depth > 0)
        return;
    for (int i = 0; i < 2; ++i)
        sigaction(Signals[i], &previous[i], nullptr);
}

bool interrupted() { return stop_requested.load(std::memory_order_relaxed); }

}  // namespace stack
