// piece_values --pieces NAME|FILE --width W --height H: the empty board's
// value for any piece set, by the plain solver (common/rules/piece_values.h), as
// one JSON line (states, connections per piece, the orientations kept and
// dropped, seconds). scripts/pieces runs it over the wells of
// results/pieces.md.
#include "support/cli.h"
#include "support/errors.h"
#include "support/json.h"
#include "rules/piece_values.h"

#include <chrono>
#include <cstdio>

namespace po = boost::program_options;

int main(int argc, char** argv) {
    try {
        po::options_description options("piece_values options");
        options.add_options()("pieces", po::value<std::string>()->default_value("tetrominoes"),
                              "tetrominoes, rectangles, pentominoes or a piece file")(
            "width", po::value<std::string>()->required(), "well width")("height", po::value<std::string>()->required(),
                                                                         "well height");
        po::variables_map variables;
        stack::parse_command_line(argc, argv, options, variables);
        const int width = stack::parse_int_option("width", variables["width"].as<std::string>(), 1, 16);
        const int height = stack::parse_int_option("height", variables["height"].as<std::string>(), 1, 1000);
        const std::string name = variables["pieces"].as<std::string>();
        stack::PieceSet set = stack::PieceSet::named_or_file(name);
        const auto start = std::chrono::steady_clock::now();
        const stack::PieceSetSolution solution = solve_piece_set(set, stack::Geometry(width, height));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stack::Json pieces = stack::Json::array();
        for (std::size_t p = 0; p < set.pieces().size(); ++p)
            pieces.push_back({{"name", set.pieces()[p].name},
                              {"weight", set.pieces()[p].weight},
                              {"orientations", set.pieces()[p].orientations.size()},
                              {"dropped", set.pieces()[p].dropped},
                              {"connections", solution.connections[p]}});
        const stack::Json report = {{"pieces", name},
                                    {"width", width},
                                    {"height", height},
                                    {"states", solution.values.size()},
                                    {"cell_gcd", set.cell_gcd()},
                                    {"empty_board_value", solution.values[0]},
                                    {"seconds", seconds},
                                    {"piece_list", pieces}};
        std::fputs(stack::json_text(report).c_str(), stdout);
        return 0;
    } catch (const stack::InputError& error) {
        std::fprintf(stderr, "piece_values: %s\n", error.what());
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "piece_values: %s\n", error.what());
        return 3;
    }
}
