// piece_policies --pieces NAME|FILE --width W --height H [--games N] [--seed S]:
// plays games of any piece set from the empty board with three policies and
// prints one JSON line with each one's mean pieces placed (and its standard
// error) beside the set's exact value (the plain solver, piece_values.h):
//   table      the placement whose successor has the highest value
//   heuristic  the greedy bots' linear evaluation of the board after the
//              placement (play/policy.h; it reads only the heights, so it
//              means the same for every set)
//   seed001    seed 001's objective: the lowest stack with the next piece
//              known: each placement of this piece, followed by the best
//              placement of the next, scored by the highest column, then
//              the aggregate height; a placement after which the next piece
//              fits nowhere is the worst
// Every policy sees the same pieces for the same seed (one draw stream per
// game, pieces drawn with their weights). Ties go to the first orientation,
// then the leftmost column. scripts/pieces runs it for results/pieces.md.
#include "support/cli.h"
#include "support/errors.h"
#include "game_random.h"
#include "support/json.h"
#include "rules/piece_values.h"
#include "policy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace po = boost::program_options;

namespace {

using stack::Heights;

struct Move {
    Heights after{};
    stack::BoardId id = 0;
};

// Every placement of piece p on the board, in orientation then column order.
std::vector<Move> moves_of(const stack::PieceSet& set, std::size_t piece, const stack::Geometry& geometry,
                           const Heights& heights) {
    std::vector<Move> moves;
    for (const stack::Orientation& orientation : set.pieces()[piece].orientations)
        for (int x = 0; x + orientation.width <= geometry.width(); ++x) {
            if (!orientation.fits(heights.data(), x, geometry.height()))
                continue;
            Move move{heights, 0};
            orientation.place(move.after.data(), x);
            move.id = geometry.encode(move.after);
            moves.push_back(move);
        }
    return moves;
}

std::pair<int, int> stack_height(const Heights& heights, int width) {
    int highest = 0, aggregate = 0;
    for (int x = 0; x < width; ++x)
        highest = std::max(highest, heights[x]), aggregate += heights[x];
    return {highest, aggregate};
}

std::size_t draw(stack::GameRandom& random, const std::vector<std::uint32_t>& cumulative) {
    const std::uint32_t ticket = random.below(cumulative.back());
    return std::size_t(std::upper_bound(cumulative.begin(), cumulative.end(), ticket) - cumulative.begin());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        po::options_description options("piece_policies options");
        options.add_options()("pieces", po::value<std::string>()->default_value("rectangles"), "a set or a piece file")(
            "width", po::value<std::string>()->required(), "well width")(
            "height", po::value<std::string>()->required(), "well height")(
            "games", po::value<std::string>()->default_value("20000"), "games per policy")(
            "seed", po::value<std::string>()->default_value("1"), "seed");
        po::variables_map variables;
        stack::parse_command_line(argc, argv, options, variables);
        const stack::Geometry geometry(stack::parse_int_option("width", variables["width"].as<std::string>(), 1, 16),
                                       stack::parse_int_option("height", variables["height"].as<std::string>(), 1, 1000));
        const std::uint64_t games = stack::parse_unsigned_option("games", variables["games"].as<std::string>(), 1);
        const std::uint64_t seed = stack::parse_unsigned_option("seed", variables["seed"].as<std::string>());
        const std::string name = variables["pieces"].as<std::string>();
        const stack::PieceSet set = stack::PieceSet::named_or_file(name);
        const stack::PieceSetSolution solution = solve_piece_set(set, geometry);
        std::vector<std::uint32_t> cumulative;
        for (const stack::PieceShape& piece : set.pieces())
            cumulative.push_back((cumulative.empty() ? 0 : cumulative.back()) + piece.weight);
        const int width = geometry.width();

        stack::Json policies = stack::Json::array();
        for (const char* policy : {"table", "heuristic", "seed001"}) {
            double sum = 0, sum_squares = 0;
            for (std::uint64_t game = 0; game < games; ++game) {
                stack::GameRandom random(seed, game);
                Heights heights{};
                std::size_t piece = draw(random, cumulative), next = draw(random, cumulative);
                std::uint64_t placed = 0;
                while (true) {
                    const std::vector<Move> moves = moves_of(set, piece, geometry, heights);
                    if (moves.empty())
                        break;
                    std::size_t chosen = 0;
                    double best = -std::numeric_limits<double>::infinity();
                    for (std::size_t m = 0; m < moves.size(); ++m) {
                        double score;
                        if (std::string(policy) == "table") {
                            score = solution.values[moves[m].id];
                        } else if (std::string(policy) == "heuristic") {
                            score = stack::heuristic_score(moves[m].after, width);
                        } else {  // the lowest stack after this and the next piece's best placement
                            score = -1e18;
                            for (const Move& then : moves_of(set, next, geometry, moves[m].after)) {
                                const auto [highest, aggregate] = stack_height(then.after, width);
                                score = std::max(score, -(highest * 1e6 + aggregate));
                            }
                        }
                        if (score > best)
                            best = score, chosen = m;
                    }
                    heights = moves[chosen].after;
                    ++placed;
                    piece = next;
                    next = draw(random, cumulative);
                }
                sum += double(placed);
                sum_squares += double(placed) * double(placed);
            }
            const double mean = sum / double(games);
            const double variance = std::max(0.0, sum_squares / double(games) - mean * mean);
            policies.push_back({{"policy", policy}, {"mean", mean}, {"standard_error", std::sqrt(variance / double(games))}});
        }
        const stack::Json report = {{"pieces", name},
                                    {"width", geometry.width()},
                                    {"height", geometry.height()},
                                    {"games", games},
                                    {"seed", seed},
                                    {"empty_board_value", solution.values[0]},
                                    {"policies", policies}};
        std::fputs(stack::json_text(report).c_str(), stdout);
        return 0;
    } catch (const stack::InputError& error) {
        std::fprintf(stderr, "piece_policies: %s\n", error.what());
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "piece_policies: %s\n", error.what());
        return 3;
    }
}
