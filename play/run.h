// stackplay as a library call: load a table, play, compare, report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace stack {

struct PlayOptions {
    std::string table;
    std::uint64_t runs = 100000;
    std::optional<std::string> start_heights;  // "1,0,0,0"
    std::optional<std::uint64_t> start_id;
    std::uint64_t seed = 1;
    int threads = 0;  // 0: all hardware threads
    bool check = false;
    double z_limit = 4.0;
};

// Returns ExitSuccess, or ExitCheckFailed when `check` is set and
// |z| > z_limit. Throws InputError on bad options or a bad table.
int run_stackplay(const PlayOptions& options);

}  // namespace stack
