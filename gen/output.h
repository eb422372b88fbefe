// The output of a stackgen run, guarded before any compute.
//
// A run writes <output>.partial (the table being written, which a later run
// resumes) and renames it to <output> when finished. Before a single board
// is computed, rank 0:
//   - refuses an empty name, and an output or partial that exists but is
//     not a regular file (a device, FIFO, socket or directory would be
//     replaced by the rename);
//   - refuses an output directory that does not exist or is not writable,
//     naming the OS reason;
//   - takes an exclusive lock (flock) on <output>.lock, so that two runs can
//     never share one partial: a second run is refused naming the first
//     one's pid, and a lock file left by a run that ended without removing
//     it is taken over (say_taken_over names it once the run is let go on);
//   - refuses to truncate an existing partial unless told: --resume
//     continues it, --force discards it.
// Every refusal is an InputError (exit 2).
#pragma once

#include <string>

namespace stack {

// Checks the output's path and directory (the first two items above).
void check_output_path(const std::string& output);

// The exclusive lock on <output>.lock, held until destroyed; the lock file
// holds the holder's pid, and is removed when released.
class OutputLock {
public:
    // Takes the lock, or throws InputError naming the pid that holds it.
    explicit OutputLock(const std::string& output);
    ~OutputLock();
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

    // One line on stderr naming the lock file and the pid it held, when the
    // lock was stale: a run that takes over a lock is never silent. Called
    // once the run's checks have passed, so that a refused run still prints
    // its one line alone.
    void say_taken_over() const;

private:
    std::string path_;
    std::string stale_holder_;  // the pid a stale lock file held; empty when none
    int descriptor_ = -1;
};

std::string lock_name(const std::string& output);     // <output>.lock
std::string partial_name(const std::string& output);  // <output>.partial

}  // namespace stack
