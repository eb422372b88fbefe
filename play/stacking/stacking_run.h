// stackplay as a library call: open a table, then play and compare (the
// default), show one game, or explain one board; text or JSON.
#pragma once

#include "stacking/policy.h"

#include <cstdint>
#include <optional>
#include <string>

namespace stack {

enum class PlayMode : std::uint8_t { Play, Show, Explain };

struct PlayOptions {
    std::string table;  // empty: the one stack_*.h5 in the current directory
    PlayMode mode = PlayMode::Play;
    PolicySpec policy;
    std::uint64_t runs = 100000;
    std::optional<std::string> start_heights;  // "1,0,0,0"
    std::optional<std::uint64_t> start_id;
    std::uint64_t seed = 1;
    int threads = 0;  // 0: the bound cores (resolve_threads)
    bool check = false;
    double check_level = 1e-4;       // --check fails when a test's p-value is below this
    std::uint64_t memory_limit = 0;  // bytes of table values held in memory; 0: 3/4 of what is available
    bool json = false;
};

// The table stackplay uses when --table is not given: the one file named
// stack_*.h5 in `directory`. Throws InputError listing what it found when
// there is none or more than one.
std::string find_table_in(const std::string& directory);

// Returns ExitSuccess, or ExitCheckFailed when `check` is set and a test
// failed. Throws InputError on bad options or a bad table.
int run_stackplay(const PlayOptions& options);

}  // namespace stack
