// Work split over threads: the solver's worker threads (run_workers), the
// writer's segments, the table game's games and exact length distribution,
// the real game's games (start_threads) and its search's leaves, the checks
// of a table's values as it opens; and how many threads a --threads option
// means (resolve_threads, the one place 0 becomes the cores this process is
// bound to). With parallel_ranges each thread
// takes one contiguous range of [0, count), so a caller that writes
// per-range results and combines them in range order gets the same answer
// for any number of threads. An exception thrown on a
// worker (a damaged block of a lazily read table, say) is rethrown in the
// caller after every worker has stopped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace stack {

// Starts threads running work(t) for t = first..first+count-1, stopping at
// the first one the system refuses (an address-space or process limit), and
// returns those started, in order: the caller runs the rest itself.
template <class Work>
std::vector<std::thread> start_threads(int first, int count, Work& work) {
    std::vector<std::thread> started;
    started.reserve(std::size_t(std::max(count, 0)));
    for (int t = first; t < first + count; ++t) {
        try {
            started.emplace_back(work, t);
        } catch (const std::system_error&) {
            break;
        }
    }
    return started;
}

// work(worker) for worker = 0..workers-1 at once, worker 0 on the calling
// thread (and any worker whose thread the system refused, after it); the
// first exception (by worker) is rethrown after all have stopped. For work
// that deals itself out (a shared counter) or that splits a range.
template <class Work>
void run_workers(int workers, Work&& work) {
    if (workers <= 1) {
        work(0);
        return;
    }
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(workers));
    const auto guarded = [&](int worker) {
        try {
            work(worker);
        } catch (...) {
            failures[std::size_t(worker)] = std::current_exception();
        }
    };
    std::vector<std::thread> helpers = start_threads(1, workers - 1, guarded);
    guarded(0);
    for (int worker = 1 + int(helpers.size()); worker < workers; ++worker)
        guarded(worker);
    for (std::thread& helper : helpers)
        helper.join();
    for (const std::exception_ptr& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
}

// work(part, begin, end) for part = 0..parts-1, where parts = min(threads,
// count) (at least 1) and the ranges cover [0, count) in order.
template <class Work>
void parallel_ranges(int threads, std::uint64_t count, Work&& work) {
    const std::uint64_t parts =
        std::clamp<std::uint64_t>(std::uint64_t(std::max(threads, 1)), 1, std::max<std::uint64_t>(count, 1));
    run_workers(int(parts), [&](int part) {
        work(part, count * std::uint64_t(part) / parts, count * std::uint64_t(part + 1) / parts);
    });
}

// The cores this process may run on (its affinity mask: what mpirun's
// binding gave this rank; the hardware threads when the mask cannot be
// read), at least 1.
int bound_cores();
// The cores of this node, whatever this process is bound to (the online
// processors), at least 1: what a plan takes a node to have.
int node_cores();
// A --threads option: itself when positive, 0 (or less) meaning
// bound_cores().
int resolve_threads(int requested);

}  // namespace stack
