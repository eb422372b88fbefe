#include "support/interrupt.h"

#include <csignal>

namespace stack {

namespace {

std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void request_stop(int) { stop_requested.store(true, std::memory_order_relaxed); }

struct sigaction previous_interrupt, previous_terminate;

}  // namespace

InterruptScope::InterruptScope() {
    stop_requested = false;
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // a second signal takes the default action
    sigaction(SIGINT, &action, &previous_interrupt);
    sigaction(SIGTERM, &action, &previous_terminate);
}

InterruptScope::~InterruptScope() {
    sigaction(SIGINT, &previous_interrupt, nullptr);
    sigaction(SIGTERM, &previous_terminate, nullptr);
}

bool interrupted() { return stop_requested.load(std::memory_order_relaxed); }

}  // namespace stack
