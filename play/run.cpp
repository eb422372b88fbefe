#include "run.h"

#include "cli.h"
#include "errors.h"
#include "player.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace stack {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

BoardId resolve_start(const PlayOptions& options, const Geometry& geometry) {
    if (options.start_heights && options.start_id)
        throw InputError("give either --start or --start-id, not both");
    if (options.start_heights)
        return geometry.encode(geometry.parse_heights(*options.start_heights));
    if (options.start_id) {
        if (*options.start_id >= geometry.states())
            throw InputError("--start-id " + std::to_string(*options.start_id) + " is outside the table's ids [0, "
                             + std::to_string(geometry.states()) + ")");
        return *options.start_id;
    }
    return 0;  // the empty well
}

}  // namespace

int run_stackplay(const PlayOptions& options) {
    if (options.runs < 1)
        throw InputError("--runs must be at least 1");
    if (options.threads < 0)
        throw InputError("--threads must be at least 1 (or 0 for all hardware threads)");
    const int threads = options.threads > 0 ? options.threads
                                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

    const auto load_start = std::chrono::steady_clock::now();
    const Table table = read_table(options.table);
    const double load_seconds = seconds_since(load_start);

    const TablePlayer player(table);
    const BoardId start = resolve_start(options, player.geometry());

    const auto play_start = std::chrono::steady_clock::now();
    const RunTotals totals = play_games(player, start, options.runs, options.seed, threads);
    const double play_seconds = seconds_since(play_start);
    const Comparison result = compare(totals, player.value(start));

    const Geometry& geometry = player.geometry();
    std::printf("table %s: %dx%d, %s states, %s; start %s (id %llu)\n", options.table.c_str(), geometry.width(),
                geometry.height(), with_commas(geometry.states()).c_str(), table.info.generator.c_str(),
                geometry.format_heights(geometry.decode(start)).c_str(), static_cast<unsigned long long>(start));
    std::printf("Exp: %.4f | Avg: %.4f | Best: %u\n", result.expected, result.mean, totals.best);
    std::printf("games %s, seed %llu, threads %d\n", with_commas(totals.games).c_str(),
                static_cast<unsigned long long>(options.seed), threads);
    std::printf("standard deviation %.4f, standard error %.4f\n", result.standard_deviation, result.standard_error);
    std::printf("95%% interval of the mean [%.4f, %.4f]\n", result.mean - 1.96 * result.standard_error,
                result.mean + 1.96 * result.standard_error);
    std::printf("z = (Avg - Exp) / SE = %+.3f\n", result.z);
    std::printf("table load %.3f s (%s), games %.3f s, %s games/s, %s moves/s\n", load_seconds,
                human_bytes(double(table.values.size() * sizeof(double))).c_str(), play_seconds,
                with_commas(std::uint64_t(totals.games / std::max(play_seconds, 1e-9))).c_str(),
                with_commas(std::uint64_t(totals.pieces / std::max(play_seconds, 1e-9))).c_str());
    if (options.check) {
        const bool pass = std::abs(result.z) <= options.z_limit;
        std::printf("check: %s (|z| = %.3f, limit %.1f)\n", pass ? "PASS" : "FAIL", std::abs(result.z),
                    options.z_limit);
        return pass ? ExitSuccess : ExitCheckFailed;
    }
    return ExitSuccess;
}

}  // namespace stack
