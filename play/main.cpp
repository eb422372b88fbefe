// stackplay: parse the options, call run_stackplay(), report errors.
#include "cli.h"
#include "errors.h"
#include "run.h"

#include <cstdio>
#include <iostream>

namespace po = boost::program_options;

int main(int argc, char** argv) {
    try {
        stack::PlayOptions options;
        po::options_description described("Usage: stackplay --table FILE [options]\nOptions");
        described.add_options()
            ("help", "print this help and exit")
            ("version", "print the version and exit")
            ("table", po::value<std::string>(&options.table), "table written by stackgen, required")
            ("runs", po::value<std::uint64_t>(&options.runs)->default_value(100000), "games to play")
            ("policy", po::value<std::string>()->default_value("table"),
             "table, random, heuristic or \"lookahead N\" (N = 1..4 next pieces known)")
            ("start", po::value<std::string>(), "start board as column heights, e.g. 1,0,0,0 (default: empty)")
            ("board", po::value<std::string>(), "the same as --start (reads better with --explain)")
            ("start-id", po::value<std::uint64_t>(), "start board as a board id")
            ("seed", po::value<std::uint64_t>(&options.seed)->default_value(1), "random seed")
            ("threads", po::value<int>(&options.threads)->default_value(0), "threads (0: all hardware threads)")
            ("check", "exit 1 when the games disagree with the exact length distribution (z-test of the mean, "
                      "chi-square test of the lengths) or, for the table policy, its mean with the table's value")
            ("check-level", po::value<double>(&options.check_level)->default_value(1e-4, "1e-4"),
             "--check fails on a p-value below this")
            ("show", "print one game (game 0 of --seed) as text frames instead of playing --runs games")
            ("explain", "print the start board's value and every placement of every piece, best first")
            ("json", "print the report as JSON");
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables);
        if (variables.count("help")) {
            std::cout << described;
            return stack::ExitSuccess;
        }
        if (variables.count("version")) {
            std::cout << "stackplay " << stack::project_version() << "\n";
            return stack::ExitSuccess;
        }
        if (!variables.count("table"))
            throw stack::InputError("--table is required (see --help)");
        if (variables.count("start") && variables.count("board"))
            throw stack::InputError("give either --start or --board, not both");
        if (variables.count("start"))
            options.start_heights = variables["start"].as<std::string>();
        if (variables.count("board"))
            options.start_heights = variables["board"].as<std::string>();
        if (variables.count("show") && variables.count("explain"))
            throw stack::InputError("give either --show or --explain, not both");
        options.mode = variables.count("show") ? stack::PlayMode::Show
                       : variables.count("explain") ? stack::PlayMode::Explain
                                                    : stack::PlayMode::Play;
        options.policy = stack::parse_policy(variables["policy"].as<std::string>());
        options.json = variables.count("json") > 0;
        if (variables.count("start-id"))
            options.start_id = variables["start-id"].as<std::uint64_t>();
        options.check = variables.count("check") > 0;
        return stack::run_stackplay(options);
    } catch (const stack::InputError& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitBadInput;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "stackplay: error: %s\n", error.what());
        return stack::ExitFailure;
    }
}
