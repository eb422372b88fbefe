#include "player.h"
#include "reference_data.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stack {

namespace {
Table reference_table() {
    Table table;
    table.info.width = 4;
    table.info.height = 20;
    table.info.states = 194481;
    const std::vector<double> reference = testing::reference_values_4x20();
    table.values.assign(reference.begin(), reference.end());
    return table;
}

Table flat_table(int width, int height) {
    Table table;
    table.info.width = width;
    table.info.height = height;
    table.info.states = Geometry(width, height).states();
    table.values.assign(table.info.states, 0.0);
    return table;
}
}  // namespace

TEST(GameRandom, SameSeedAndGameGiveTheSameSequence) {
    GameRandom a(7, 3), b(7, 3), c(7, 4), d(8, 3);
    int same_c = 0, same_d = 0;
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t value = a.next();
        ASSERT_EQ(value, b.next());
        same_c += value == c.next();
        same_d += value == d.next();
    }
    EXPECT_LT(same_c, 2);
    EXPECT_LT(same_d, 2);
}

TEST(GameRandom, PiecesAreUniform) {
    GameRandom random(1, 0);
    const int draws = 700000;
    std::array<int, PieceCount> counts{};
    for (int i = 0; i < draws; ++i)
        ++counts[random.next_piece()];
    double chi_square = 0;
    for (int count : counts)
        chi_square += std::pow(count - draws / 7.0, 2) / (draws / 7.0);
    EXPECT_LT(chi_square, 27.9);  // 6 degrees of freedom, p = 1e-4
}

TEST(TablePlayer, TiesGoToTheFirstOrientationThenTheLeftmostColumn) {
    const Table table = flat_table(4, 20);
    const TablePlayer player(table);
    const Heights empty{};
    const Move i_move = player.choose(empty, 0, PieceI);
    EXPECT_EQ(i_move.orientation, 0);  // horizontal before vertical
    EXPECT_EQ(i_move.column, 0);
    const Move l_move = player.choose(empty, 0, PieceLLeft);
    EXPECT_EQ(l_move.orientation, 16);  // ll ([0],[1,3]): the first ll orientation that fits a flat floor
    EXPECT_EQ(l_move.column, 0);
}

TEST(TablePlayer, TakesTheHighestValuedSuccessor) {
    Table table = flat_table(4, 20);
    const Geometry geometry(4, 20);
    table.values[geometry.encode(geometry.parse_heights("0,0,4,0"))] = 1.0;  // vertical I in column 2
    const TablePlayer player(table);
    const Move move = player.choose(Heights{}, 0, PieceI);
    EXPECT_EQ(move.orientation, 1);
    EXPECT_EQ(move.column, 2);
    EXPECT_EQ(move.successor, geometry.encode(geometry.parse_heights("0,0,4,0")));
}

TEST(TablePlayer, NoPlacementEndsTheGameAtOnce) {
    const Table table = flat_table(2, 3);
    const TablePlayer player(table);
    const Geometry geometry(2, 3);
    const BoardId full = geometry.encode(geometry.parse_heights("3,3"));
    GameRandom random(1, 0);
    EXPECT_EQ(player.play(full, random), 0u);
}

TEST(TablePlayer, ResultsDoNotDependOnTheThreadCount) {
    const Table table = reference_table();
    const TablePlayer player(table);
    const RunTotals one = play_games(player, 1, 20000, 42, 1);
    for (int threads : {2, 3, 8}) {
        const RunTotals many = play_games(player, 1, 20000, 42, threads);
        EXPECT_EQ(many.games, one.games);
        EXPECT_EQ(many.pieces, one.pieces);
        EXPECT_EQ(many.pieces_squared, one.pieces_squared);
        EXPECT_EQ(many.best, one.best);
    }
}

TEST(TablePlayer, ReferenceTableReproducesTheReferenceMean) {
    // Exp 4.9751 from id 1 is the reference's own published number.
    const Table table = reference_table();
    const TablePlayer player(table);
    const Comparison result = compare(play_games(player, 1, 100000, 5, 2), player.value(1));
    EXPECT_NEAR(result.expected, 4.975133110004251, 1e-15);
    EXPECT_LT(std::abs(result.z), 4.0);
}

TEST(Comparison, MeanVarianceAndZ) {
    RunTotals totals;
    totals.games = 4;  // lengths 1, 2, 3, 4
    totals.pieces = 10;
    totals.pieces_squared = 30;
    const Comparison result = compare(totals, 2.0);
    EXPECT_DOUBLE_EQ(result.mean, 2.5);
    EXPECT_DOUBLE_EQ(result.standard_deviation, std::sqrt(5.0 / 3.0));
    EXPECT_DOUBLE_EQ(result.standard_error, std::sqrt(5.0 / 3.0) / 2.0);
    EXPECT_DOUBLE_EQ(result.z, 0.5 / (std::sqrt(5.0 / 3.0) / 2.0));
}

}  // namespace stack
