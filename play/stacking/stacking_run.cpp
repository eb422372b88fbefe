#include "stacking/stacking_run.h"

#include "support/parallel.h"
#include "support/cli.h"
#include "stacking/distribution.h"
#include "support/errors.h"
#include "support/interrupt.h"
#include "support/json.h"
#include "stacking/player.h"
#include "stacking/statistics.h"
#include "table/stack_table.h"
#include "stacking/view.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

namespace stack {

namespace {

// The exact mean of the table policy must equal the table's value this
// closely (both are sums of the same quantities in different orders).
constexpr double MeanTolerance = 1e-9;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The start board, which the table must hold: a table of some residue
// classes holds only the boards whose height sum is in them (and every game
// from such a board stays in its class).
BoardId resolve_start(const PlayOptions& options, const StackTable& table) {
    const Geometry& geometry = table.geometry();
    if (options.start_heights && options.start_id)
        throw InputError("give either --start (or --board) or --start-id, not both");
    BoardId start = 0;  // the empty well
    if (options.start_heights)
        start = geometry.encode(geometry.parse_heights(*options.start_heights));
    if (options.start_id) {
        if (*options.start_id >= geometry.states())
            throw InputError("--start-id " + std::to_string(*options.start_id) + " is outside the table's ids [0, "
                             + std::to_string(geometry.states()) + ")");
        start = *options.start_id;
    }
    if (!table.holds(start))
        throw InputError(not_held_message(table, start));
    return start;
}

// Everything one run of games measured and predicted.
struct RunReport {
    const StackTable* table = nullptr;
    std::string policy;
    BoardId start = 0;
    int threads = 1;
    std::uint64_t seed = 0;
    double load_seconds = 0, games_seconds = 0, distribution_seconds = 0;
    double optimal_value = 0;  // the table's value of the start: optimal play's expectation
    RunTotals totals;
    std::optional<LengthDistribution> predicted;  // for deterministic policies
    std::string skipped;                          // why the exact distribution was not computed
    Comparison comparison;                        // against the table value (table policy) or `predicted`
    ChiSquareTest chi_square;
    double observed_mean = 0, observed_deviation = 0, observed_error = 0;
    bool is_table_policy = false;
    std::uint64_t games_asked = 0;  // --runs; more than totals.games when interrupted
    bool interrupted = false;
    bool checked = false, passed = true;
    double check_level = 0;
    std::vector<std::string> failures;
};

std::string short_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

void evaluate_check(RunReport& report) {
    if (report.predicted && report.is_table_policy
        && std::abs(report.predicted->mean - report.optimal_value) > MeanTolerance)
        report.failures.push_back("the exact mean differs from the table's value by "
                                  + short_number(report.predicted->mean - report.optimal_value));
    if (report.comparison.p_value < report.check_level)
        report.failures.push_back("z-test of the mean: p = " + short_number(report.comparison.p_value));
    if (report.chi_square.p_value < report.check_level)
        report.failures.push_back("chi-square test of the lengths: p = " + short_number(report.chi_square.p_value));
    if (report.chi_square.impossible > 0)
        report.failures.push_back(std::to_string(report.chi_square.impossible)
                                  + " games had a length of probability 0");
    report.passed = report.failures.empty();
}

// The stored set's pieces by letter, in the set's order.
std::string piece_letters(const Rules& rules) {
    std::string letters;
    for (int piece = 0; piece < rules.piece_count(); ++piece)
        letters += rules.letter(piece);
    return letters;
}

void print_text(const RunReport& report) {
    const Geometry& geometry = report.table->geometry();
    const RunTotals& totals = report.totals;
    std::printf("table %s: %dx%d, %s states, %s, %s (%s); start %s (id %llu); policy %s\n",
                report.table->path().c_str(), geometry.width(), geometry.height(),
                with_commas(geometry.states()).c_str(), report.table->info().generator.c_str(),
                report.table->rules().set().name().c_str(), piece_letters(report.table->rules()).c_str(),
                geometry.format_heights(geometry.decode(report.start)).c_str(),
                static_cast<unsigned long long>(report.start), report.policy.c_str());
    if (report.predicted || report.is_table_policy)
        std::printf("Exp: %.4f | Avg: %.4f | Best: %u\n", report.comparison.expected, report.observed_mean,
                    totals.best);
    else
        std::printf("Avg: %.4f | Best: %u (no exact prediction for this policy)\n", report.observed_mean, totals.best);
    std::printf("games %s, seed %llu, threads %d\n", with_commas(totals.games).c_str(),
                static_cast<unsigned long long>(report.seed), report.threads);
    if (!report.is_table_policy)
        std::printf("optimal play without preview (the table's value) %.4f; Avg - that = %+.4f\n", report.optimal_value,
                    report.observed_mean - report.optimal_value);
    std::printf("observed standard deviation %.4f, standard error %.4f\n", report.observed_deviation,
                report.observed_error);
    std::printf("95%% interval of the mean [%.4f, %.4f]\n", report.observed_mean - 1.96 * report.observed_error,
                report.observed_mean + 1.96 * report.observed_error);
    if (report.predicted) {
        const LengthDistribution& predicted = *report.predicted;
        std::printf(
            "exact distribution: mean %.12f, standard deviation %.4f, lengths 0..%zu, %s reachable boards "
            "(%.3f s)\n",
            predicted.mean, std::sqrt(predicted.variance), predicted.probability.size() - 1,
            with_commas(predicted.boards).c_str(), report.distribution_seconds);
        if (report.is_table_policy)
            std::printf("exact mean - table value = %.3g\n", predicted.mean - report.optimal_value);
        std::printf("z = (Avg - Exp) / (exact SD / sqrt(games)) = %+.3f, p = %.4g\n", report.comparison.z,
                    report.comparison.p_value);
        std::printf("chi-square %.3f on %d degrees of freedom (%d bins of >= 5 expected games), p = %.4g\n",
                    report.chi_square.statistic, report.chi_square.degrees_of_freedom, report.chi_square.bins,
                    report.chi_square.p_value);
    } else if (!report.skipped.empty()) {
        std::printf("exact distribution: skipped: %s\n", report.skipped.c_str());
        std::printf(
            "ran instead: z = (Avg - Exp) / (observed SD / sqrt(games)) = %+.3f, p = %.4g (no chi-square "
            "test: it needs the exact distribution)\n",
            report.comparison.z, report.comparison.p_value);
    }
    std::printf("table load %.3f s (%s%s), games %.3f s, %s games/s, %s moves/s\n", report.load_seconds,
                human_bytes(double(report.table->memory_bytes())).c_str(),
                report.table->resident() ? "" : " read lazily so far", report.games_seconds,
                with_commas(std::uint64_t(totals.games / std::max(report.games_seconds, 1e-9))).c_str(),
                with_commas(std::uint64_t(totals.pieces / std::max(report.games_seconds, 1e-9))).c_str());
    if (report.interrupted)
        std::printf("interrupted: %s of %s games finished; no prediction or check\n",
                    with_commas(report.totals.games).c_str(), with_commas(report.games_asked).c_str());
    if (report.checked) {
        std::printf("check: %s (level %.3g)\n", report.passed ? "PASS" : "FAIL", report.check_level);
        for (const std::string& failure : report.failures)
            std::printf("  failed: %s\n", failure.c_str());
    }
}

Json header_json(const StackTable& table, const std::string& mode) {
    return {{"mode", mode},
            {"table",
             {{"path", table.path()},
              {"width", table.info().width},
              {"height", table.info().height},
              {"states", table.info().states},
              {"generator", table.info().generator},
              {"pieces", table.rules().set().name()},
              {"piece_letters", piece_letters(table.rules())},
              {"resident", table.resident()},
              {"bytes_in_memory", table.memory_bytes()}}}};
}

void print_json(const RunReport& report) {
    const Geometry& geometry = report.table->geometry();
    const Heights start = geometry.decode(report.start);
    Json json = header_json(*report.table, "play");
    json["policy"] = report.policy;
    json["start"] = {{"heights", std::vector<int>(start.begin(), start.begin() + geometry.width())},
                     {"id", report.start}};
    json["games"] = report.totals.games;
    if (report.interrupted)
        json["interrupted"] = {{"games_asked", report.games_asked}, {"games_finished", report.totals.games}};
    json["seed"] = report.seed;
    json["threads"] = report.threads;
    json["optimal_value"] = report.optimal_value;
    json["observed"] = {{"mean", report.observed_mean},
                        {"standard_deviation", report.observed_deviation},
                        {"standard_error", report.observed_error},
                        {"best", report.totals.best},
                        {"lengths", report.totals.lengths}};
    if (!report.skipped.empty()) {
        json["predicted"] = nullptr;
        json["distribution_skipped"] = report.skipped;
        json["z_test"] = {{"z", report.comparison.z}, {"p_value", report.comparison.p_value}, {"variance", "observed"}};
    }
    if (report.predicted) {
        const LengthDistribution& predicted = *report.predicted;
        json["predicted"] = {{"mean", predicted.mean},
                             {"variance", predicted.variance},
                             {"reachable_boards", predicted.boards},
                             {"seconds", report.distribution_seconds},
                             {"lengths", predicted.probability}};
        json["z_test"] = {{"z", report.comparison.z}, {"p_value", report.comparison.p_value}};
        json["chi_square"] = {{"statistic", report.chi_square.statistic},
                              {"degrees_of_freedom", report.chi_square.degrees_of_freedom},
                              {"bins", report.chi_square.bins},
                              {"p_value", report.chi_square.p_value},
                              {"impossible_games", report.chi_square.impossible}};
    }
    json["timing"] = {{"table_load_seconds", report.load_seconds},
                      {"table_bytes_in_memory", report.table->memory_bytes()},
                      {"games_seconds", report.games_seconds},
                      {"games_per_second", report.totals.games / std::max(report.games_seconds, 1e-9)},
                      {"moves_per_second", report.totals.pieces / std::max(report.games_seconds, 1e-9)}};
    if (report.checked)
        json["check"] = {{"level", report.check_level}, {"passed", report.passed}, {"failures", report.failures}};
    std::fputs(json_text(json).c_str(), stdout);
}

int run_games(const PlayOptions& options, const StackTable& table, double load_seconds, int threads) {
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, table.rules());
    const std::unique_ptr<StackingPolicy> policy = make_policy(options.policy, placements, table);
    if (options.check && !policy->deterministic())
        throw InputError("--check needs a policy with an exact length distribution: table or heuristic, not "
                         + policy_name(options.policy));
    RunReport report;
    report.table = &table;
    report.policy = policy_name(options.policy);
    report.is_table_policy = options.policy.kind == PolicyKind::Table;
    report.start = resolve_start(options, table);
    report.threads = threads;
    report.seed = options.seed;
    report.load_seconds = load_seconds;
    report.optimal_value = table.value(report.start);

    const auto play_start = std::chrono::steady_clock::now();
    {
        const InterruptScope interrupt_scope;
        report.totals = play_games(*policy, geometry, report.start, options.runs, options.seed, threads);
        report.interrupted = report.totals.games < options.runs;  // a signal after the last game changes nothing
    }
    report.games_seconds = seconds_since(play_start);
    report.games_asked = options.runs;
    const Spread observed = observed_spread(report.totals);
    report.observed_mean = observed.mean;
    report.observed_deviation = observed.standard_deviation;
    report.observed_error = observed.standard_error;
    if (report.interrupted && report.totals.games == 0 && !options.json) {
        std::printf("interrupted: 0 of %s games finished\n", with_commas(options.runs).c_str());
        return ExitInterrupted;
    }
    if (report.interrupted) {  // the games finished so far, and no prediction or check
        report.comparison =
            compare(report.totals, report.optimal_value, report.observed_deviation * report.observed_deviation);
        options.json ? print_json(report) : print_text(report);
        return ExitInterrupted;
    }

    // The exact distribution when it fits in what the memory limit leaves
    // beside the table; else, for the table policy, the z-test of the mean
    // against the table's value with the games' own variance.
    const std::uint64_t need = exact_distribution_bytes(geometry, table.rules().piece_count(), threads);
    const std::uint64_t limit = effective_memory_limit(options.memory_limit);
    const std::uint64_t held = table.memory_bytes();
    const std::uint64_t left = limit > held ? limit - held : 0;
    if (table.info().clears != Clears::None) {
        report.skipped =
            "a line-clear table's game has cycles (a tetris lowers the stack), so its lengths are not "
            "enumerated to a bound";
    } else if (policy->deterministic() && need <= left) {
        try {
            const auto distribution_start = std::chrono::steady_clock::now();
            report.predicted = exact_length_distribution(*policy, geometry, report.start, threads, left);
            report.distribution_seconds = seconds_since(distribution_start);
        } catch (const DistributionTooLarge& error) {
            report.skipped = std::string(error.what()) + " (--memory-limit " + human_bytes(double(limit)) + ", "
                             + human_bytes(double(left)) + " beside the table)";
        }
    } else if (policy->deterministic()) {
        report.skipped = "its largest layer needs about " + human_bytes(double(need)) + ", more than the "
                         + human_bytes(double(left)) + " the memory limit of " + human_bytes(double(limit))
                         + " leaves beside the table (--memory-limit)";
    }
    if (!report.skipped.empty()) {
        if (!report.is_table_policy && options.check)
            throw InputError("--check with the " + policy_name(options.policy)
                             + " policy needs the exact distribution, and " + report.skipped);
        report.comparison =
            compare(report.totals, report.optimal_value, report.observed_deviation * report.observed_deviation);
    }
    if (report.predicted) {
        // The table policy's prediction is the table's own value; another
        // deterministic policy's is its exact mean.
        const double expected = report.is_table_policy ? report.optimal_value : report.predicted->mean;
        report.comparison = compare(report.totals, expected, report.predicted->variance);
        report.chi_square = chi_square_test(report.totals.lengths, report.predicted->probability);
    }
    if (options.check) {
        report.checked = true;
        report.check_level = options.check_level;
        evaluate_check(report);
    }
    options.json ? print_json(report) : print_text(report);
    return report.passed ? ExitSuccess : ExitCheckFailed;
}

int run_show(const PlayOptions& options, const StackTable& table) {
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, table.rules());
    const std::unique_ptr<StackingPolicy> policy = make_policy(options.policy, placements, table);
    const ShownGame game = show_game(*policy, table, resolve_start(options, table), options.seed);
    if (options.json) {
        Json json = header_json(table, "show");
        json["policy"] = policy_name(options.policy);
        json["game"] = game_json(game, geometry);
        std::fputs(json_text(json).c_str(), stdout);
    } else {
        std::printf("one game on %s (%dx%d), policy %s\n\n", table.path().c_str(), geometry.width(), geometry.height(),
                    policy_name(options.policy).c_str());
        std::fputs(format_game(game, geometry).c_str(), stdout);
    }
    return ExitSuccess;
}

int run_explain(const PlayOptions& options, const StackTable& table) {
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, table.rules());
    const Explanation explanation = explain_board(placements, table, resolve_start(options, table));
    if (options.json) {
        Json json = header_json(table, "explain");
        json["board"] = explanation_json(explanation, geometry);
        std::fputs(json_text(json).c_str(), stdout);
    } else {
        std::fputs(format_explanation(explanation, geometry).c_str(), stdout);
    }
    return ExitSuccess;
}

}  // namespace

std::string find_table_in(const std::string& directory) {
    std::vector<std::string> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
        const std::string name = entry.path().filename().string();
        if (looks_like_table_name(name))
            found.push_back(name);
    }
    std::sort(found.begin(), found.end());
    if (found.size() == 1)
        return (std::filesystem::path(directory) / found[0]).string();
    if (found.empty())
        throw InputError("no --table given and no stack_*.h5 table in " + directory
                         + ": run stackgen here first, or give --table FILE");
    std::string names;
    for (const std::string& name : found)
        names += (names.empty() ? "" : ", ") + name;
    throw InputError("no --table given and " + std::to_string(found.size()) + " tables in " + directory + " (" + names
                     + "): choose one with --table FILE");
}

int run_stackplay(const PlayOptions& options) {
    if (options.check && options.mode != PlayMode::Play)
        throw InputError("--check applies to a run of games, not to --show or --explain");
    const int threads = resolve_threads(options.threads);
    const std::string path = options.table.empty() ? find_table_in(".") : options.table;
    // --show and --explain read only the boards they visit; a run of games
    // holds the table in memory when it fits the limit.
    TableOpenOptions open_options;
    open_options.residency = options.mode == PlayMode::Play ? Residency::Automatic : Residency::Lazy;
    open_options.memory_limit = options.memory_limit;
    // The exact distribution of a run looks up every successor of every
    // board it reaches: in id order that is one load each.
    open_options.id_order = options.mode == PlayMode::Play;
    open_options.threads = threads;
    const auto load_start = std::chrono::steady_clock::now();
    const StackTable table = StackTable::open(path, open_options);
    const double load_seconds = seconds_since(load_start);
    switch (options.mode) {
    case PlayMode::Show: return run_show(options, table);
    case PlayMode::Explain: return run_explain(options, table);
    default: return run_games(options, table, load_seconds, threads);
    }
}

}  // namespace stack
