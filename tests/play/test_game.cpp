// One real game (tetris/game.h): game over, the same games on any number of
// search threads, and seed 000's piece files.
#include "support/errors.h"
#include "tetris/game.h"
#include "tetris/search.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

// ---------------------------------------------------------------------------
// Game over

TEST(TetrisGameOver, NoPlacementOfTheOFits) {
    // Every pair of neighbouring columns has one of height 3: an O (2 high)
    // would reach row 5 of 4.
    const TetrisBoard board = TetrisBoard::from_text(
        "....\n"
        "#.#.\n"
        "#.#.\n"
        "#.#.\n",
        4, 4);
    const Tetrominoes& t = tetrominoes();
    EXPECT_TRUE(generated(t.shapes, board, PieceSquare).empty());
    // The I still fits: vertical in column 1 or 3, flat on row 3.
    EXPECT_EQ(generated(t.shapes, board, PieceI).size(), 3u);
    const TetrisPolicy policy(t.shapes, parse_tetris_policy("dellacherie", 0, 0), std::vector<double>(7, 1.0 / 7));
    const int o[] = {PieceSquare};
    EXPECT_FALSE(policy.choose(board, o).has_value());
    const int i[] = {PieceI};
    EXPECT_TRUE(policy.choose(board, i).has_value());
    const TetrisPolicy preview(t.shapes, parse_tetris_policy("lee", 1, 0), std::vector<double>(7, 1.0 / 7));
    const int o_then_i[] = {PieceSquare, PieceI};
    EXPECT_FALSE(preview.choose(board, o_then_i).has_value());
}

TEST(TetrisGameOver, EntryIsBlockedWhileAPlacementRemainsLower) {
    const Tetrominoes& t = tetrominoes();
    const Shape& o = t.shapes.shape(t.shapes.first(PieceSquare));
    // The O spawns in columns (6 - 2) / 2 = 2 and 3, rows 4 and 5 of 6.
    const TetrisBoard blocked = TetrisBoard::from_text(
        "..#...\n"
        "......\n"
        "......\n"
        "......\n"
        "......\n"
        "......\n",
        6, 6);
    EXPECT_FALSE(blocked.can_enter(o));
    const std::vector<TetrisPlacement> lower = generated(t.shapes, blocked, PieceSquare);
    EXPECT_FALSE(lower.empty());
    EXPECT_TRUE(std::find(lower.begin(), lower.end(), TetrisPlacement{std::int16_t(t.shapes.first(PieceSquare)), 4, 0})
                != lower.end());
    const auto enters = [&](int x, int y) {
        TetrisBoard board(6, 6);
        board.set(x, y);
        return board.can_enter(o);
    };
    EXPECT_FALSE(enters(3, 5));
    EXPECT_FALSE(enters(2, 4));
    EXPECT_FALSE(enters(3, 4));
    EXPECT_TRUE(enters(1, 5));
    EXPECT_TRUE(enters(4, 5));
    EXPECT_TRUE(enters(2, 3));
    EXPECT_TRUE(TetrisBoard(6, 6).can_enter(o));
}

TEST(TetrisGameOver, AGameInAFourByFourWellTopsOut) {
    const Tetrominoes& t = tetrominoes();
    for (const char* name : {"lee", "dellacherie"})
        for (const GameOverRule rule : {GameOverRule::Placement, GameOverRule::Entry}) {
            TetrisOptions options;
            options.width = 4;
            options.height = 4;
            options.policy = name;
            options.rule = rule;
            options.max_pieces = 5000;
            options.seed = 7;
            const TetrisPolicy policy(t.shapes, parse_tetris_policy(name, 0, 0), std::vector<double>(7, 1.0 / 7));
            for (std::uint64_t game = 0; game < 3; ++game) {
                const GameRecord record = play_tetris_game(options, t.rules, t.shapes, policy, nullptr, game, 1);
                EXPECT_TRUE(record.topped_out) << name << " game " << game;
                EXPECT_LT(record.pieces, options.max_pieces) << name << " game " << game;
                EXPECT_GE(record.pieces, 1u);
                // The cells left (4 a piece, 4 a row cleared) fit in the 16 of the well.
                EXPECT_LE(record.pieces * 4, record.lines * 4 + 16);
                EXPECT_GE(record.pieces * 4, record.lines * 4);
            }
        }
    // A piece file the well survives ends without topping out: Lee puts
    // the first O of each pair at column 0 (heights 2 2 0 0, bumpiness 2;
    // column 1 would give 4) and the second beside it, clearing two rows.
    TetrisOptions options;
    options.width = 4;
    options.height = 4;
    options.policy = "lee";
    const TetrisPolicy policy(t.shapes, parse_tetris_policy("lee", 0, 0), std::vector<double>(7, 1.0 / 7));
    const std::vector<int> squares(10, PieceSquare);  // two O's clear two rows: never tops out
    const GameRecord record = play_tetris_game(options, t.rules, t.shapes, policy, &squares, 0, 1);
    EXPECT_FALSE(record.topped_out);
    EXPECT_EQ(record.pieces, 10u);
    EXPECT_EQ(record.lines, 10u);  // 5 pairs x 2 rows
}

// ---------------------------------------------------------------------------
// The same games on any number of search threads

TEST(TetrisThreads, SearchThreadsDoNotChangeTheGame) {
    const Tetrominoes& t = tetrominoes();
    TetrisOptions options;
    options.width = 10;
    options.height = 20;
    options.policy = "lee";
    options.preview = 1;
    options.max_pieces = 300;
    options.seed = 3;
    const TetrisPolicy policy(t.shapes, parse_tetris_policy("lee", 1, 0), std::vector<double>(7, 1.0 / 7));
    for (std::uint64_t game = 0; game < 2; ++game) {
        std::string frames1, frames2;
        const GameRecord one = play_tetris_game(options, t.rules, t.shapes, policy, nullptr, game, 1,
                                                [&](const TetrisTurn& turn) { frames1 += turn_frame(t.shapes, turn); });
        const GameRecord two = play_tetris_game(options, t.rules, t.shapes, policy, nullptr, game, 2,
                                                [&](const TetrisTurn& turn) { frames2 += turn_frame(t.shapes, turn); });
        EXPECT_EQ(one.pieces, two.pieces);
        EXPECT_EQ(one.lines, two.lines);
        EXPECT_EQ(one.points, two.points);
        EXPECT_EQ(one.leaves, two.leaves);
        EXPECT_EQ(one.topped_out, two.topped_out);
        EXPECT_TRUE(frames1 == frames2);
        // Lee with a preview survives 300 pieces in 10x20; then the 1200
        // cells placed, less 10 per row cleared, fit in the 200 cells of
        // the well: 100 to 120 rows cleared.
        EXPECT_EQ(one.pieces, 300u);
        EXPECT_FALSE(one.topped_out);
        EXPECT_GE(one.lines, 100u);
        EXPECT_LE(one.lines, 120u);
        EXPECT_GT(one.leaves, one.pieces);  // preview 1: many leaves per piece
    }
}

// ---------------------------------------------------------------------------
// Seed 000's piece files

TEST(TetrisPieceFile, ReadsSeed000Numbers) {
    // 0-6 are I O S Z T J L; the set's order is I T O S Z L J.
    EXPECT_EQ(read_seed000_pieces("0 1 2 3 4 5 6"), (std::vector<int>{0, 2, 3, 4, 1, 6, 5}));
    EXPECT_EQ(read_seed000_pieces("6\n\t0  4\n"), (std::vector<int>{5, 0, 1}));
    const ShapeSet& shapes = tetrominoes().shapes;
    const std::vector<int> all = read_seed000_pieces("0 1 2 3 4 5 6");
    const std::string letters = "IOSZTJL";
    for (std::size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(shapes.letter(all[i]), letters[i]) << i;
    for (const char* bad : {"7", "x", "", "0 1 7", "-1", "01", "   \n"})
        EXPECT_THROW(read_seed000_pieces(bad), InputError) << "'" << bad << "'";
}

}  // namespace stack::tetris
