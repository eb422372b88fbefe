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
            ("start", po::value<std::string>(), "start board as column heights, e.g. 1,0,0,0 (default: empty)")
            ("start-id", po::value<std::uint64_t>(), "start board as a board id")
            ("seed", po::value<std::uint64_t>(&options.seed)->default_value(1), "random seed")
            ("threads", po::value<int>(&options.threads)->default_value(0), "threads (0: all hardware threads)")
            ("check", "exit 1 when |z| > 4: the observed mean disagrees with the table");
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
        if (variables.count("start"))
            options.start_heights = variables["start"].as<std::string>();
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
