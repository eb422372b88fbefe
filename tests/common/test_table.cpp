// <stack/table.h>, the library other programs link, on the 4x20 table the
// e2e tests generate (STACK_TEST_TABLE): its value against the reference's
// published figure, its choices against stackplay's table policy on every
// board and piece, and its errors.
#include "stack/table.h"

#include "rules/placement.h"
#include "stacking/policy.h"
#include "table/stack_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::string table_path() {
    const char* path = std::getenv("STACK_TEST_TABLE");
    return path ? path : "";
}

class TableLibrary : public ::testing::Test {
protected:
    void SetUp() override {
        if (table_path().empty())
            GTEST_SKIP() << "STACK_TEST_TABLE names no table";
    }
};

TEST_F(TableLibrary, OpensTheTableWithItsGeometryAndPieces) {
    const stack::Table table = stack::Table::open(table_path());
    EXPECT_EQ(table.width(), 4);
    EXPECT_EQ(table.height(), 20);
    EXPECT_EQ(table.boards(), 194481u);
    EXPECT_EQ(table.piece_set(), "tetrominoes");
    std::string letters;
    for (const stack::Table::Piece& piece : table.pieces()) {
        letters += piece.letter;
        EXPECT_EQ(piece.cells, 4);
        EXPECT_EQ(piece.weight, 1u);
    }
    EXPECT_EQ(letters, "ITOSZLJ");
    EXPECT_EQ(table.pieces()[0].rotations, 2);  // I: flat and upright
    EXPECT_EQ(table.pieces()[2].rotations, 1);  // O
    // The reference's published V(empty 4x20) (solving-tetris-with-spark.txt).
    EXPECT_NEAR(table.value(std::vector<int>{0, 0, 0, 0}), 2.539044371732, 5e-13);
}

// The library's choice is stackplay's table policy's, on every board of
// the well and for every piece: the same placement, board after and value.
TEST_F(TableLibrary, BestPlacementIsTheTablePolicysChoiceOnEveryBoard) {
    const stack::Table table = stack::Table::open(table_path());
    const stack::StackTable reference = stack::StackTable::open(table_path());
    const stack::PlacementTable placements(reference.geometry(), reference.rules());
    const auto policy = stack::make_policy(stack::PolicySpec{}, placements, reference);
    const stack::Geometry& geometry = reference.geometry();
    std::uint64_t compared = 0, none = 0;
    for (stack::BoardId id = 0; id < geometry.states(); ++id) {
        const stack::Heights heights = geometry.decode(id);
        const std::vector<int> board(heights.begin(), heights.begin() + 4);
        for (int piece = 0; piece < reference.rules().piece_count(); ++piece) {
            const stack::Move expected = policy->choose(stack::Turn{heights, id, piece, {}, nullptr});
            const auto best = table.best_placement(board, reference.rules().letter(piece));
            ASSERT_EQ(best.has_value(), expected.orientation >= 0) << geometry.format_heights(heights) << " " << piece;
            ++compared;
            if (!best) {
                ++none;
                EXPECT_TRUE(table.placements(board, reference.rules().letter(piece)).empty());
                continue;
            }
            EXPECT_EQ(best->rotation + reference.rules().first_orientation(piece), expected.orientation);
            EXPECT_EQ(best->column, expected.column);
            const stack::Heights after = geometry.decode(expected.successor);
            EXPECT_EQ(best->heights, std::vector<int>(after.begin(), after.begin() + 4));
            EXPECT_EQ(best->value, reference.value(expected.successor));
            EXPECT_EQ(best->value, table.value(best->heights));
        }
    }
    EXPECT_EQ(compared, geometry.states() * 7);
    EXPECT_GT(none, 0u);  // the full boards
}

TEST_F(TableLibrary, TakesABoardWrittenAsABracedList) {
    const stack::Table table = stack::Table::open(table_path());
    EXPECT_EQ(table.value({0, 0, 0, 0}), table.value(std::vector<int>{0, 0, 0, 0}));
    EXPECT_EQ(table.value({1, 0, 2, 0}), table.value(std::vector<int>{1, 0, 2, 0}));
    EXPECT_TRUE(table.holds({0, 0, 0, 0}));
    EXPECT_EQ(table.placements({0, 0, 0, 0}, 'I').size(), table.placements(std::vector<int>{0, 0, 0, 0}, 'I').size());
    EXPECT_EQ(table.best_placement({0, 0, 0, 0}, 'I')->heights,
              table.best_placement(std::vector<int>{0, 0, 0, 0}, 'I')->heights);
    EXPECT_THROW(table.value({0, 0, 0}), stack::TableError);
}

TEST_F(TableLibrary, PlacementsAreListedBestFirst) {
    const stack::Table table = stack::Table::open(table_path());
    const std::vector<int> board{0, 2, 1, 1};
    for (const stack::Table::Piece& piece : table.pieces()) {
        const std::vector<stack::Table::Placement> listed = table.placements(board, piece.letter);
        ASSERT_EQ(listed.empty(), !table.best_placement(board, piece.letter)) << piece.letter;
        if (listed.empty())
            continue;
        EXPECT_EQ(listed.front().value, table.best_placement(board, piece.letter)->value);
        EXPECT_EQ(listed.front().column, table.best_placement(board, piece.letter)->column);
        EXPECT_EQ(listed.front().rotation, table.best_placement(board, piece.letter)->rotation);
        for (std::size_t i = 1; i < listed.size(); ++i)
            EXPECT_GE(listed[i - 1].value, listed[i].value);
    }
}

TEST_F(TableLibrary, BadBoardsPiecesAndFilesAreTableErrors) {
    const stack::Table table = stack::Table::open(table_path());
    for (const std::vector<int>& bad : {std::vector<int>{0, 0, 0}, std::vector<int>{0, 0, 0, 0, 0},
                                        std::vector<int>{0, 21, 0, 0}, std::vector<int>{-1, 0, 0, 0}}) {
        EXPECT_THROW(table.value(bad), stack::TableError);
        EXPECT_THROW(table.best_placement(bad, 'T'), stack::TableError);
        EXPECT_FALSE(table.holds(bad));
    }
    EXPECT_TRUE(table.holds(std::vector<int>{20, 20, 20, 20}));
    try {
        table.best_placement(std::vector<int>{0, 0, 0, 0}, 'X');
        ADD_FAILURE() << "no error for a piece not in the set";
    } catch (const stack::TableError& error) {
        EXPECT_EQ(std::string(error.what()), "piece 'X' is not in the set tetrominoes");
    }
    EXPECT_THROW(stack::Table::open(table_path() + ".missing"), stack::TableError);
    const std::string text = ::testing::TempDir() + "not_a_table.h5";
    std::ofstream(text) << "not a table\n";
    EXPECT_THROW(stack::Table::open(text), stack::TableError);
}

TEST_F(TableLibrary, MovesAndReadsFromTheMovedTable) {
    stack::Table table = stack::Table::open(table_path());
    stack::Table moved = std::move(table);
    EXPECT_NEAR(moved.value(std::vector<int>{0, 0, 0, 0}), 2.539044371732, 5e-13);
}

}  // namespace
