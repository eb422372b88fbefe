#include "support/errors.h"
#include "rules/rules.h"
#include "play_support.h"
#include "stacking/policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace stack {

namespace {
Move choose(const StackingPolicy& policy, const Heights& heights, BoardId id, int piece, std::span<const int> next = {},
            GameRandom* random = nullptr) {
    return policy.choose(Turn{heights, id, piece, next, random});
}
}  // namespace

TEST(StackingPolicy, ParsesEveryFormAndRejectsTheRest) {
    EXPECT_EQ(parse_policy("table").kind, PolicyKind::Table);
    EXPECT_EQ(parse_policy("random").kind, PolicyKind::Random);
    EXPECT_EQ(parse_policy("heuristic").kind, PolicyKind::Heuristic);
    EXPECT_EQ(parse_policy("seed001").kind, PolicyKind::Seed001);
    EXPECT_EQ(parse_policy("lookahead 2").lookahead, 2);
    EXPECT_EQ(parse_policy("lookahead:3").lookahead, 3);
    EXPECT_EQ(policy_name(parse_policy("lookahead=1")), "lookahead 1");
    for (const char* bad :
         {"", "Table", "lookahead", "lookahead 0", "lookahead 5", "lookahead x", "lookahead 1x", "seed 001", "Seed001"})
        EXPECT_THROW(parse_policy(bad), InputError) << bad;
}

TEST(Heuristic, ScoreIsTheClassicLinearEvaluation) {
    const Geometry geometry(4, 20);
    // aggregate 3+6+8+7 = 24, bumpiness 3+2+1 = 6
    EXPECT_DOUBLE_EQ(heuristic_score(geometry.parse_heights("3,6,8,7"), 4), -0.510066 * 24 - 0.184483 * 6);
    EXPECT_DOUBLE_EQ(heuristic_score(Heights{}, 4), 0.0);
}

TEST(Heuristic, PicksTheFlattestBoardWithTheSharedTieBreak) {
    const StackTable table = testing::flat_table(4, 20);
    const PlacementTable placements(Geometry(4, 20), Rules::tetrominoes());
    const auto heuristic = make_policy(parse_policy("heuristic"), placements, table);
    const Move i_move = choose(*heuristic, Heights{}, 0, PieceI);
    EXPECT_EQ(i_move.orientation, 0);  // horizontal: bumpiness 0
    const Move o_move = choose(*heuristic, Heights{}, 0, PieceSquare);
    EXPECT_EQ(o_move.column, 0);  // columns 0 and 2 tie (bumpiness 2), column 1 is worse (4)
    EXPECT_TRUE(heuristic->deterministic());
}

// Every board of a small well, every drawn piece and every next piece: the
// move of a policy that knows one next piece (lookahead 1 with the
// heuristic's score, seed001 with its own) must reach the best (placed,
// score) pair that a brute force over both placements finds.
void expect_best_pair(const Rules& rules, const Geometry& geometry, const char* policy_text,
                      double (*score_of)(const Heights&, int)) {
    const int width = geometry.width();
    const PlacementTable placements(geometry, rules);
    const StackTable table = testing::flat_table(width, geometry.height());
    const auto policy = make_policy(parse_policy(policy_text), placements, table);
    EXPECT_FALSE(policy->deterministic());
    EXPECT_EQ(policy->preview(), 1);
    int checked = 0;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        const Heights heights = geometry.decode(id);
        for (int piece = 0; piece < rules.piece_count(); ++piece)
            for (int next = 0; next < rules.piece_count(); ++next) {
                // brute force: best (placed, score) over both pieces
                int best_placed = -1;
                double best_score = 0;
                auto outcome_of = [&](int o, int x, int& placed, double& score) {
                    const Heights first = placements.after(heights, o, x);
                    placed = 1;
                    score = score_of(first, width);
                    bool any = false;
                    for (int o2 = 0; o2 < rules.orientation_count(); ++o2)
                        for (int x2 = 0; x2 + rules.orientation(o2).width <= width; ++x2)
                            if (rules.orientation(o2).piece == next && placements.fits(first, o2, x2)) {
                                const double s = score_of(placements.after(first, o2, x2), width);
                                if (!any || s > score)
                                    score = s;
                                any = true;
                            }
                    placed += any;
                };
                for (int o = 0; o < rules.orientation_count(); ++o)
                    for (int x = 0; x + rules.orientation(o).width <= width; ++x)
                        if (rules.orientation(o).piece == piece && placements.fits(heights, o, x)) {
                            int placed;
                            double score;
                            outcome_of(o, x, placed, score);
                            if (placed > best_placed || (placed == best_placed && score > best_score))
                                best_placed = placed, best_score = score;
                        }
                const int upcoming[] = {next};
                const Move move = choose(*policy, heights, id, piece, upcoming);
                if (best_placed < 0) {
                    EXPECT_LT(move.orientation, 0);
                    continue;
                }
                ASSERT_GE(move.orientation, 0);
                ASSERT_EQ(move.successor, id + placements.offset(move.orientation, move.column));
                int placed;
                double score;
                outcome_of(move.orientation, move.column, placed, score);
                EXPECT_EQ(placed, best_placed) << policy_text << " " << geometry.format_heights(heights);
                EXPECT_DOUBLE_EQ(score, best_score) << policy_text << " " << geometry.format_heights(heights);
                ++checked;
            }
    }
    EXPECT_GT(checked, 1000);
}

TEST(Lookahead, OneMatchesABruteForceOverTwoPieces) {
    expect_best_pair(Rules::tetrominoes(), Geometry(3, 6), "lookahead 1", heuristic_score);
}

// Seed 001's objective counted by hand. 3,6,8,7: rows 0-2 are full (18 x 3),
// row 3 is the longest that is not (3 columns rise above it: 3 x 3), the
// highest column is 8 (-10 x 8). 2,2,2,2: two full rows, no row above them
// holds a cell. 0,1,0: no full row, row 0 holds one cell, height 1.
TEST(Seed001, ScoreIsTheDocumentsObjectiveOnAHoleFreeStack) {
    const Geometry geometry(4, 20);
    EXPECT_DOUBLE_EQ(seed001_score(geometry.parse_heights("3,6,8,7"), 4), 18 * 3 + 3 * 3 - 10 * 8);
    EXPECT_DOUBLE_EQ(seed001_score(geometry.parse_heights("2,2,2,2"), 4), 18 * 2 - 10 * 2);
    EXPECT_DOUBLE_EQ(seed001_score(Geometry(3, 5).parse_heights("0,1,0"), 3), 3 * 1 - 10 * 1);
    EXPECT_DOUBLE_EQ(seed001_score(Heights{}, 4), 0.0);
}

TEST(Seed001, MatchesABruteForceOverTwoPiecesForTheRectanglesAndTetrominoes) {
    EXPECT_EQ(policy_name(parse_policy("seed001")), "seed001");
    expect_best_pair(Rules(PieceSet::builtin("rectangles")), Geometry(4, 5), "seed001", seed001_score);
    expect_best_pair(Rules::tetrominoes(), Geometry(3, 6), "seed001", seed001_score);
}

TEST(RandomPolicy, ChoosesEveryValidPlacementEquallyOften) {
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const StackTable table = testing::flat_table(4, 20);
    const auto random_policy = make_policy(parse_policy("random"), placements, table);
    EXPECT_FALSE(random_policy->deterministic());
    const Heights heights = geometry.parse_heights("2,2,2,2");
    const BoardId id = geometry.encode(heights);
    std::map<std::pair<int, int>, int> valid;
    placements.for_each_placement(heights, [&](int o, int x, BoardId) {
        if (stack::Rules::tetrominoes().orientation(o).piece == PieceLRight)
            valid[{o, x}] = 0;
    });
    ASSERT_EQ(valid.size(), 5u);  // lr flat at columns 0, 1; lr ([0],[3,1]) at 0, 1, 2
    GameRandom random(5, 0, GameRandom::Choices);
    const int draws = 70000;
    for (int i = 0; i < draws; ++i) {
        const Move move = choose(*random_policy, heights, id, PieceLRight, {}, &random);
        auto found = valid.find({move.orientation, move.column});
        ASSERT_NE(found, valid.end());
        ASSERT_EQ(move.successor, id + placements.offset(move.orientation, move.column));
        ++found->second;
    }
    const double expected = double(draws) / valid.size();
    double chi_square = 0;
    for (const auto& [placement, count] : valid)
        chi_square += (count - expected) * (count - expected) / expected;
    EXPECT_LT(chi_square, 40.0);  // p < 1e-4 even at 15 degrees of freedom
}

}  // namespace stack
