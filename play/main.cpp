// stackplay: parse the options, call run_stackplay(), report errors.
#include "support/cli.h"
#include "support/errors.h"
#include "run.h"

#include <cstdio>
#include <iostream>

namespace po = boost::program_options;

namespace {

po::options_description described_options() {
    po::options_description described = stack::tool_options("Usage: stackplay [--table FILE] [options]");
    described.add_options()
        ("table", po::value<std::string>(),
         "table written by stackgen (default: the one stack_*.h5 in the current directory)")
        ("runs", po::value<std::string>()->default_value("100000"), "games to play (>= 1)")
        ("policy", po::value<std::string>()->default_value("table"),
         "table, random, heuristic, seed001 (its objective, the next piece known) or \"lookahead N\" (N = 1..4 next pieces known)")
        ("start", po::value<std::string>(), "start board as column heights, e.g. 1,0,0,0 (default: empty)")
        ("board", po::value<std::string>(), "the same as --start (reads better with --explain)")
        ("start-id", po::value<std::string>(), "start board as a board id")
        ("seed", po::value<std::string>()->default_value("1"), "random seed (>= 0)")
        ("threads", po::value<std::string>()->default_value("0"), "threads (0: all hardware threads)")
        ("check", "exit 1 when the games disagree with the exact length distribution (z-test of the mean, "
                  "chi-square test of the lengths) or, for the table policy, its mean with the table's value")
        ("check-level", po::value<std::string>()->default_value("1e-4"), "--check fails on a p-value below this")
        ("memory-limit", po::value<std::string>(),
         "most bytes of table values to hold in memory, e.g. 16G (default: 3/4 of the available memory); "
         "a larger table is read lazily")
        ("show", "print one game (game 0 of --seed) as text frames instead of playing --runs games")
        ("explain", "print the start board's value and every placement of every piece, best first")
        ("json", "print the report as JSON");
    return described;
}

stack::PlayOptions parse_options(const po::variables_map& variables) {
    stack::PlayOptions options;
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    if (variables.count("table")) {
        options.table = text("table");
        if (options.table.empty())
            throw stack::InputError("--table must name a file");
    }
    if (variables.count("start") && variables.count("board"))
        throw stack::InputError("give either --start or --board, not both");
    if (variables.count("start") || variables.count("board"))
        options.start_heights = text(variables.count("start") ? "start" : "board");
    if (variables.count("start-id"))
        options.start_id = stack::parse_unsigned_option("start-id", text("start-id"));
    if (variables.count("show") && variables.count("explain"))
        throw stack::InputError("give either --show or --explain, not both");
    options.mode = variables.count("show") ? stack::PlayMode::Show
                   : variables.count("explain") ? stack::PlayMode::Explain
                                                : stack::PlayMode::Play;
    options.runs = stack::parse_unsigned_option("runs", text("runs"), 1, std::uint64_t(1) << 40);
    options.seed = stack::parse_unsigned_option("seed", text("seed"));
    options.threads = stack::parse_int_option("threads", text("threads"), 0, 4096);
    options.check_level = stack::parse_real_option("check-level", text("check-level"), 0.0, 1.0);
    if (variables.count("memory-limit"))
        options.memory_limit = stack::parse_bytes_option("memory-limit", text("memory-limit"));
    options.policy = stack::parse_policy(text("policy"));
    options.json = variables.count("json") > 0;
    options.check = variables.count("check") > 0;
    return options;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const po::options_description described = described_options();
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables);
        if (stack::print_help_or_version("stackplay", described, variables))
            return stack::ExitSuccess;
        return stack::run_stackplay(parse_options(variables));
    } catch (const stack::InputError& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitBadInput;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitFailure;
    }
}
