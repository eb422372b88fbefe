#include "play_support.h"
#include "stacking/player.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stack {

namespace {
using testing::flat_table;
using testing::reference_table;

Move choose(const StackingPolicy& policy, const Heights& heights, BoardId id, Piece piece) {
    return policy.choose(Turn{heights, id, piece, {}, nullptr});
}
}  // namespace

TEST(GameRandom, SameSeedAndGameGiveTheSameSequence) {
    GameRandom a(7, 3), b(7, 3), c(7, 4), d(8, 3), e(7, 3, GameRandom::Choices);
    int same_c = 0, same_d = 0, same_e = 0;
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t value = a.next();
        ASSERT_EQ(value, b.next());
        same_c += value == c.next();
        same_d += value == d.next();
        same_e += value == e.next();
    }
    EXPECT_LT(same_c, 2);
    EXPECT_LT(same_d, 2);
    EXPECT_LT(same_e, 2);
}

TEST(GameRandom, PiecesAreUniform) {
    GameRandom random(1, 0);
    const int draws = 700000;
    std::array<int, PieceCount> counts{};
    for (int i = 0; i < draws; ++i)
        ++counts[std::size_t(random.next_piece(Rules::tetrominoes()))];
    double chi_square = 0;
    for (int count : counts)
        chi_square += std::pow(count - draws / 7.0, 2) / (draws / 7.0);
    EXPECT_LT(chi_square, 27.9);  // 6 degrees of freedom, p = 1e-4
}

// A weighted set is drawn in proportion to its weights: 5, 2 and 1 of 8.
TEST(GameRandom, PiecesFollowTheirWeights) {
    const Rules rules(PieceSet::from_file_text("piece a weight 5\n#\n\npiece b weight 2\n##\n\npiece c\n###\n"));
    GameRandom random(2, 0);
    const int draws = 400000;
    std::array<int, 3> counts{};
    for (int i = 0; i < draws; ++i)
        ++counts[std::size_t(random.next_piece(rules))];
    const std::array<double, 3> expected = {draws * 5 / 8.0, draws * 2 / 8.0, draws * 1 / 8.0};
    double chi_square = 0;
    for (std::size_t piece = 0; piece < 3; ++piece)
        chi_square += std::pow(counts[piece] - expected[piece], 2) / expected[piece];
    EXPECT_LT(chi_square, 18.4);  // 2 degrees of freedom, p = 1e-4
    EXPECT_GT(counts[0], counts[1]);
    EXPECT_GT(counts[1], counts[2]);
}

TEST(GameRandom, BelowIsInRangeAndUniform) {
    GameRandom random(3, 0, GameRandom::Choices);
    const int draws = 500000;
    std::array<int, 5> counts{};
    for (int i = 0; i < draws; ++i) {
        const std::uint32_t value = random.below(5);
        ASSERT_LT(value, 5u);
        ++counts[value];
    }
    double chi_square = 0;
    for (int count : counts)
        chi_square += std::pow(count - draws / 5.0, 2) / (draws / 5.0);
    EXPECT_LT(chi_square, 23.5);  // 4 degrees of freedom, p = 1e-4
    EXPECT_EQ(random.below(1), 0u);
}

TEST(TablePolicy, TiesGoToTheFirstOrientationThenTheLeftmostColumn) {
    const StackTable table = flat_table(4, 20);
    const PlacementTable placements(Geometry(4, 20), Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const Move i_move = choose(*policy, Heights{}, 0, PieceI);
    EXPECT_EQ(i_move.orientation, 0);  // horizontal before vertical
    EXPECT_EQ(i_move.column, 0);
    const Move l_move = choose(*policy, Heights{}, 0, PieceLLeft);
    EXPECT_EQ(l_move.orientation, 16);  // ll ([0],[1,3]): the first ll orientation that fits a flat floor
    EXPECT_EQ(l_move.column, 0);
}

TEST(TablePolicy, TakesTheHighestValuedSuccessor) {
    const Geometry geometry(4, 20);
    HugeVector<double> values = testing::flat_values(4, 20);
    values[geometry.encode(geometry.parse_heights("0,0,4,0"))] = 1.0;  // vertical I in column 2
    const StackTable table = StackTable::in_memory(geometry, std::move(values));
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const Move move = choose(*policy, Heights{}, 0, PieceI);
    EXPECT_EQ(move.orientation, 1);
    EXPECT_EQ(move.column, 2);
    EXPECT_EQ(move.successor, geometry.encode(geometry.parse_heights("0,0,4,0")));
}

TEST(Game, NoPlacementEndsTheGameAtOnce) {
    const StackTable table = flat_table(2, 3);
    const Geometry geometry(2, 3);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const BoardId full = geometry.encode(geometry.parse_heights("3,3"));
    for (const char* name : {"table", "random", "heuristic", "lookahead 2"}) {
        const auto policy = make_policy(parse_policy(name), placements, table);
        EXPECT_EQ(play_game(*policy, geometry, full, 1, 0), 0u) << name;
    }
}

TEST(Game, EveryPolicySeesTheSamePieces) {
    const StackTable table = reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    std::vector<std::vector<int>> drawn;
    for (const char* name : {"table", "random", "heuristic", "lookahead 3"}) {
        const auto policy = make_policy(parse_policy(name), placements, table);
        drawn.emplace_back();
        play_game(*policy, geometry, 0, 11, 5,
                  [&](const Heights&, BoardId, int piece, const Move&) { drawn.back().push_back(piece); });
    }
    for (const auto& pieces : drawn)
        for (std::size_t i = 0; i < std::min(pieces.size(), drawn[0].size()); ++i)
            ASSERT_EQ(pieces[i], drawn[0][i]) << "turn " << i;
}

TEST(Game, ResultsDoNotDependOnTheThreadCount) {
    const StackTable table = reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    for (const char* name : {"table", "random", "lookahead 1"}) {
        const auto policy = make_policy(parse_policy(name), placements, table);
        const RunTotals one = play_games(*policy, geometry, 1, 5000, 42, 1);
        for (int threads : {2, 3, 8}) {
            const RunTotals many = play_games(*policy, geometry, 1, 5000, 42, threads);
            EXPECT_EQ(many.games, one.games) << name;
            EXPECT_EQ(many.pieces, one.pieces) << name;
            EXPECT_EQ(many.pieces_squared, one.pieces_squared) << name;
            EXPECT_EQ(many.best, one.best) << name;
            EXPECT_EQ(many.lengths, one.lengths) << name;
        }
    }
}

TEST(Game, HistogramAgreesWithTheTotals) {
    const StackTable table = reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const RunTotals totals = play_games(*policy, geometry, 0, 3000, 8, 2);
    std::uint64_t games = 0, pieces = 0;
    for (std::size_t k = 0; k < totals.lengths.size(); ++k) {
        games += totals.lengths[k];
        pieces += k * totals.lengths[k];
    }
    EXPECT_EQ(games, totals.games);
    EXPECT_EQ(pieces, totals.pieces);
    EXPECT_EQ(totals.lengths.size(), totals.best + 1u);
}

TEST(Game, ReferenceTableReproducesTheReferenceMean) {
    // Exp 4.9751 from id 1 is the reference's own published number; the
    // standard error here is the sample one, independent of distribution.h.
    const StackTable table = reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const RunTotals totals = play_games(*policy, geometry, 1, 100000, 5, 2);
    const Spread observed = observed_spread(totals);
    EXPECT_NEAR(table.value(1), 4.975133110004251, 1e-15);
    EXPECT_LT(std::abs(observed.mean - table.value(1)) / observed.standard_error, 4.0);
}

TEST(Comparison, MeanSpreadAndZAgainstThePredictedVariance) {
    RunTotals totals;
    totals.games = 4;  // lengths 1, 2, 3, 4
    totals.pieces = 10;
    totals.pieces_squared = 30;
    const Comparison result = compare(totals, 2.0, 1.0);
    EXPECT_DOUBLE_EQ(result.mean, 2.5);
    EXPECT_DOUBLE_EQ(result.standard_deviation, std::sqrt(5.0 / 3.0));
    EXPECT_DOUBLE_EQ(result.standard_error, 0.5);  // sqrt(1 / 4)
    EXPECT_DOUBLE_EQ(result.z, 1.0);
    EXPECT_NEAR(result.p_value, 0.31731050786291415, 1e-12);  // P(|Z| >= 1)
}

}  // namespace stack
