// The real game's board (tetris/tetris_board.h): the tetrominoes' rotations,
// board mechanics (line clears, hard drops, what fits) and Game Boy points
// (both --scoring rules). Every expected number here is counted by hand
// (shown in a comment).
#include "tetris/tetris_board.h"
#include "support/errors.h"
#include "tetris/features.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

// ---------------------------------------------------------------------------
// Board mechanics

TEST(TetrisShapes, RotationsAreTheTetrominoesAndTheirColumnsMatchTheirCells) {
    const ShapeSet& shapes = tetrominoes().shapes;
    ASSERT_EQ(shapes.piece_count(), 7);
    // I 2, T 4, O 1, S 2, Z 2, L 4, J 4 distinct rotations (set order I T O S Z L J)
    const int rotations[] = {2, 4, 1, 2, 2, 4, 4};
    for (int p = 0; p < 7; ++p)
        EXPECT_EQ(shapes.end(p) - shapes.first(p), rotations[p]) << "piece " << p;
    EXPECT_EQ(int(shapes.shapes().size()), 19);
    for (int s = 0; s < 19; ++s) {
        const Shape& shape = shapes.shape(s);
        int cells = 0;
        for (int k = 0; k < shape.width; ++k) {
            int low = -1, high = -1;
            for (int dy = 0; dy < shape.height; ++dy)
                if (shape_cell(shape, k, dy)) {
                    if (low < 0)
                        low = dy;
                    high = dy + 1;
                    ++cells;
                }
            EXPECT_EQ(shape.bottom[std::size_t(k)], low) << "shape " << s << " column " << k;
            EXPECT_EQ(shape.top[std::size_t(k)], high) << "shape " << s << " column " << k;
        }
        EXPECT_EQ(cells, 4);
        EXPECT_EQ(shape.cells, 4);
    }
    // The pieces, by their drawn shapes.
    EXPECT_EQ(shapes.shape(shape_of(HorizontalI)).piece, PieceI);
    EXPECT_EQ(shapes.shape(shape_of(OShape)).piece, PieceSquare);
    EXPECT_EQ(shapes.shape(shape_of(LFlat)).piece, PieceLRight);
    const Row s_rows[] = {0b011, 0b110}, z_rows[] = {0b110, 0b011}, j_rows[] = {0b111, 0b001},
              t_rows[] = {0b111, 0b010};
    EXPECT_EQ(shapes.shape(shape_of(s_rows)).piece, PieceZRight);
    EXPECT_EQ(shapes.shape(shape_of(z_rows)).piece, PieceZLeft);
    EXPECT_EQ(shapes.shape(shape_of(j_rows)).piece, PieceLLeft);
    EXPECT_EQ(shapes.shape(shape_of(t_rows)).piece, PieceT);
}

TEST(TetrisBoard, FromTextReadsTheTopRowFirst) {
    const TetrisBoard board = TetrisBoard::from_text("....\n.#..\n#...\n", 4, 3);
    EXPECT_TRUE(board.filled(0, 0));
    EXPECT_TRUE(board.filled(1, 1));
    EXPECT_FALSE(board.filled(0, 2));
    EXPECT_FALSE(board.filled(1, 0));
    EXPECT_EQ(board.cells(), 2);
    EXPECT_EQ(board.column_height(0), 1);
    EXPECT_EQ(board.column_height(1), 2);  // a hole under it
    EXPECT_EQ(board.column_height(2), 0);
    EXPECT_EQ(board.top(), 2);
    EXPECT_EQ(TetrisBoard::from_text(board.text(), 4, 3), board);
}

TEST(TetrisBoard, FromTextRejectsBadBoards) {
    EXPECT_THROW(TetrisBoard::from_text("....\n...\n....\n", 4, 3), InputError);   // ragged
    EXPECT_THROW(TetrisBoard::from_text("....\n....\n...#\n", 5, 3), InputError);  // width
    EXPECT_THROW(TetrisBoard::from_text("....\n....\n...#\n", 4, 4), InputError);  // height
    EXPECT_THROW(TetrisBoard::from_text("....\n....\n...#\n", 4, 2), InputError);
    EXPECT_THROW(TetrisBoard::from_text("....\n.x..\n...#\n", 4, 3), InputError);  // bad character
    EXPECT_THROW(TetrisBoard::from_text("....\n.. .\n...#\n", 4, 3), InputError);
    EXPECT_THROW(TetrisBoard::from_text("....\n....\n1..#\n", 4, 3), InputError);
    EXPECT_THROW(TetrisBoard::from_text("....\n####\n#..#\n", 4, 3), InputError);  // a full row
    EXPECT_THROW(TetrisBoard::from_text("####\n", 4, 1), InputError);
    EXPECT_THROW(TetrisBoard::from_text("", 4, 3), InputError);
    EXPECT_NO_THROW(TetrisBoard::from_text("....\n###.\n#..#\n", 4, 3));
}

TEST(TetrisBoard, HorizontalIClearsOneRow) {
    TetrisBoard board = two_columns_6x5();
    const Shape& i = tetrominoes().shapes.shape(shape_of(HorizontalI));
    EXPECT_EQ(board.landing_row(i, 2), 0);  // columns 2-5 are empty
    const Landing landing = board.place(i, 2, 0);
    EXPECT_EQ(landing.row, 0);
    EXPECT_EQ(landing.lines, 1);
    EXPECT_EQ(landing.eroded_cells, 4);  // 1 row x 4 of the I's cells in it
    // The bottom row went; the two rows above moved down one.
    EXPECT_EQ(board, TetrisBoard::from_text("......\n"
                                            "......\n"
                                            "......\n"
                                            ".#....\n"
                                            "##....\n",
                                            6, 5));
    EXPECT_EQ(board.column_height(0), 1);
    EXPECT_EQ(board.column_height(1), 2);
    for (int x = 2; x < 6; ++x)
        EXPECT_EQ(board.column_height(x), 0);
    EXPECT_EQ(board.cells(), 3);
    EXPECT_EQ(board.top(), 2);
}

TEST(TetrisBoard, VerticalIClearsTwoRowsApart) {
    TetrisBoard board = TetrisBoard::from_text(
        "....\n"   // y6
        "....\n"   // y5
        ".#..\n"   // y4
        "#...\n"   // y3
        "###.\n"   // y2
        "#.#.\n"   // y1
        "###.\n",  // y0
        4, 7);
    const Shape& i = tetrominoes().shapes.shape(shape_of(VerticalI));
    ASSERT_EQ(board.landing_row(i, 3), 0);
    const Landing landing = board.place(i, 3, 0);
    // rows y0 and y2 full; the I has 1 cell in each: 2 rows x 2 cells = 4
    EXPECT_EQ(landing.lines, 2);
    EXPECT_EQ(landing.eroded_cells, 4);
    // Left: y1 "#.##", y3 "#..#", y4 ".#.."
    EXPECT_EQ(board, TetrisBoard::from_text("....\n"
                                            "....\n"
                                            "....\n"
                                            "....\n"
                                            ".#..\n"
                                            "#..#\n"
                                            "#.##\n",
                                            4, 7));
    EXPECT_EQ(board.column_height(0), 2);
    EXPECT_EQ(board.column_height(1), 3);  // over two holes
    EXPECT_EQ(board.column_height(2), 1);
    EXPECT_EQ(board.column_height(3), 2);
    EXPECT_EQ(board.cells(), 6);  // 10 + the I's 4, minus 2 rows x 4
    EXPECT_EQ(board.top(), 3);
}

TEST(TetrisBoard, ColumnWhoseTopCellIsClearedFallsOntoItsHole) {
    // Column 0's only cell is at y1, over a hole at y0.
    TetrisBoard well = TetrisBoard::from_text(
        "....\n"
        "....\n"
        "#...\n"
        ".###\n",
        4, 4);
    const Shape& l = tetrominoes().shapes.shape(shape_of(LFlat));
    ASSERT_EQ(well.landing_row(l, 1), 1);  // columns 1-3 have height 1
    const Landing landing = well.place(l, 1, 1);
    EXPECT_EQ(landing.lines, 1);         // y1 "####"
    EXPECT_EQ(landing.eroded_cells, 3);  // 1 row x the L's 3 cells in it
    EXPECT_EQ(well, TetrisBoard::from_text("....\n"
                                           "....\n"
                                           "...#\n"
                                           ".###\n",
                                           4, 4));
    EXPECT_EQ(well.column_height(0), 0);  // from 2 to 0: one row cleared, and the hole under it
    EXPECT_EQ(well.column_height(1), 1);
    EXPECT_EQ(well.column_height(2), 1);
    EXPECT_EQ(well.column_height(3), 2);
    EXPECT_EQ(well.top(), 2);
    EXPECT_EQ(well.cells(), 4);
}

TEST(TetrisBoard, HardDropStopsOnTheHighestCellUnderAnOverhang) {
    const TetrisBoard board = TetrisBoard::from_text(
        "....\n"
        "....\n"
        "....\n"
        "....\n"
        ".#..\n"  // y3: an overhang over three empty cells
        "....\n"
        "....\n"
        "....\n",
        4, 8);
    const ShapeSet& shapes = tetrominoes().shapes;
    const Shape& vertical = shapes.shape(shape_of(VerticalI));
    const Shape& horizontal = shapes.shape(shape_of(HorizontalI));
    const Shape& o = shapes.shape(shape_of(OShape));
    EXPECT_EQ(board.landing_row(vertical, 1), 4);
    EXPECT_EQ(board.landing_row(vertical, 0), 0);
    EXPECT_EQ(board.landing_row(horizontal, 0), 4);
    EXPECT_EQ(board.landing_row(o, 0), 4);
    EXPECT_EQ(board.landing_row(o, 1), 4);
    EXPECT_EQ(board.landing_row(o, 2), 0);
    // The cells under the overhang are free, but no drop reaches them.
    EXPECT_TRUE(board.fits(o, 1, 0));
    // L flat at column 0: its column 1 sits on y3 -> lowest row 4
    EXPECT_EQ(board.landing_row(shapes.shape(shape_of(LFlat)), 0), 4);
    EXPECT_EQ(board.landing_row(shapes.shape(shape_of(LFlat)), 1), 4);
}

TEST(TetrisBoard, FitsIsFalseOutsideTheWellAndOnFilledCells) {
    const TetrisBoard board = TetrisBoard::from_text(
        "....\n"
        "....\n"
        "....\n"
        "#...\n",
        4, 4);
    const ShapeSet& shapes = tetrominoes().shapes;
    const Shape& o = shapes.shape(shape_of(OShape));
    const Shape& vertical = shapes.shape(shape_of(VerticalI));
    EXPECT_TRUE(board.fits(o, 1, 0));
    EXPECT_TRUE(board.fits(o, 2, 2));
    EXPECT_FALSE(board.fits(o, -1, 1));  // left of the well
    EXPECT_FALSE(board.fits(o, 3, 1));   // its right column outside
    EXPECT_FALSE(board.fits(o, 1, 3));   // its top row above the well
    EXPECT_FALSE(board.fits(o, 1, -1));  // under the floor
    EXPECT_FALSE(board.fits(o, 0, 0));   // on (0,0)
    EXPECT_TRUE(board.fits(vertical, 3, 0));
    EXPECT_FALSE(board.fits(vertical, 3, 1));
    EXPECT_FALSE(board.fits(vertical, 0, 0));
    EXPECT_FALSE(board.fits(vertical, 1, 1));  // rows 1-4: the top above the well
}

TEST(TetrisBoard, PlaceWithoutClearingLeavesTheFullRow) {
    TetrisBoard board = two_columns_6x5();
    const Shape& i = tetrominoes().shapes.shape(shape_of(HorizontalI));
    const Landing landing = board.place(i, 2, 0, false);
    EXPECT_EQ(landing.lines, 1);
    EXPECT_EQ(landing.eroded_cells, 4);
    EXPECT_EQ(board.row(0), board.full_row());
    EXPECT_EQ(board.full_row(), Row(0b111111));
    for (int x = 0; x < 6; ++x)
        EXPECT_TRUE(board.filled(x, 0));
    EXPECT_EQ(board.cells(), 9);  // 5 + 4
    EXPECT_EQ(board.column_height(0), 2);
    EXPECT_EQ(board.column_height(1), 3);
    EXPECT_EQ(board.column_height(2), 1);
    EXPECT_EQ(board.column_height(5), 1);
    EXPECT_EQ(board.top(), 3);
    EXPECT_EQ(lee_features(board).complete_lines, 1);
    EXPECT_EQ(seed001_features(board).full_rows, 1);
}

// ---------------------------------------------------------------------------
// Game Boy points

TEST(TetrisScore, GameBoyPoints) {
    const std::uint64_t level_zero[] = {0, 40, 100, 300, 1200};
    for (int rows = 1; rows <= 4; ++rows) {
        GameBoyScore score;
        score.add(rows);
        EXPECT_EQ(score.points, level_zero[rows]) << rows;
        EXPECT_EQ(score.lines, std::uint64_t(rows));
        EXPECT_EQ(score.level(), 0);
    }
    GameBoyScore score;
    score.add(4), score.add(4);  // 2400, 8 lines
    score.add(2);                // still level 0: +100
    EXPECT_EQ(score.points, 2500u);
    EXPECT_EQ(score.lines, 10u);
    EXPECT_EQ(score.level(), 1);
    score.add(1);  // level 1: 40 x 2
    EXPECT_EQ(score.points, 2580u);
    score.add(0);
    EXPECT_EQ(score.points, 2580u);
    GameBoyScore nine;
    nine.start_level = 9;
    nine.add(4);  // 1200 x 10
    EXPECT_EQ(nine.points, 12000u);
    GameBoyScore last;  // the level stops at 20: 200 lines in, a single is 40 x 21
    last.start_level = 19;
    for (int i = 0; i < 50; ++i)
        last.add(4);
    EXPECT_EQ(last.level(), 20);
    const std::uint64_t before = last.points;
    last.add(1);
    EXPECT_EQ(last.points - before, 40u * 21u);
}

// The Game Boy's A-TYPE rule (--scoring gameboy; TetrisWiki, "Tetris (Game
// Boy)"): from start level L the first level-up comes at L * 10 + 10 lines,
// (L + 1) * 10 for the levels 0-9 it offers, then one every 10 lines. A
// clear scores 40, 100, 300 or 1200 x (level + 1) at the level before it.
// From level 5: the first level-up at 60 lines, not at 10 (the simple
// rule's 5 + lines / 10 says 10 at 50 lines).
TEST(TetrisScore, GameBoyLevelsFromStartLevelFive) {
    GameBoyScore gameboy, simple;
    gameboy.rule = ScoringRule::GameBoy;
    gameboy.start_level = simple.start_level = 5;
    std::uint64_t points = 0;
    for (int i = 1; i <= 12; ++i) {  // 12 tetrises: 48 lines, all at level 5
        gameboy.add(4), simple.add(4);
        points += 1200 * (5 + 1);
        EXPECT_EQ(gameboy.points, points) << i;
        EXPECT_EQ(gameboy.lines, std::uint64_t(4 * i));
        EXPECT_EQ(gameboy.level(), 5) << i;
    }
    struct Clear {
        int rows;
        std::uint64_t points;  // the clear's, by the table
        std::uint64_t lines;   // after it
        int level;             // after it
    };
    const Clear clears[] = {
        {2, 100 * (5 + 1), 50, 5},   // 50 lines: still level 5
        {1, 40 * (5 + 1), 51, 5},    //
        {4, 1200 * (5 + 1), 55, 5},  //
        {4, 1200 * (5 + 1), 59, 5},  //
        {1, 40 * (5 + 1), 60, 6},    // 60 lines: level 6, the single scored at 5
        {4, 1200 * (6 + 1), 64, 6},  //
        {3, 300 * (6 + 1), 67, 6},   //
        {3, 300 * (6 + 1), 70, 7},   // 70 lines: level 7
    };
    for (const Clear& clear : clears) {
        gameboy.add(clear.rows), simple.add(clear.rows);
        points += clear.points;
        EXPECT_EQ(gameboy.points, points) << clear.lines;
        EXPECT_EQ(gameboy.lines, clear.lines);
        EXPECT_EQ(gameboy.level(), clear.level) << clear.lines;
        if (clear.lines == 50) {
            EXPECT_EQ(simple.level(), 10);  // 5 + 50 / 10
        }
    }
    EXPECT_EQ(simple.level(), 12);  // 5 + 70 / 10
    // Start level 0: the first level-up at (0 + 1) * 10 lines, as the simple rule.
    GameBoyScore zero;
    zero.rule = ScoringRule::GameBoy;
    zero.add(4), zero.add(4), zero.add(1);
    EXPECT_EQ(zero.level(), 0);  // 9 lines
    zero.add(1);
    EXPECT_EQ(zero.level(), 1);  // 10 lines
    EXPECT_EQ(zero.points, 1200 * (0 + 1) * 2 + 40 * (0 + 1) * 2);
}

// The Game Boy's counter stops at 999,999; the simple rule's does not.
TEST(TetrisScore, GameBoyScoreStopsAt999999) {
    GameBoyScore gameboy, simple;
    gameboy.rule = ScoringRule::GameBoy;
    gameboy.start_level = simple.start_level = 20;  // the last level: every tetris 1200 x 21
    for (int i = 0; i < 39; ++i)
        gameboy.add(4), simple.add(4);
    EXPECT_EQ(gameboy.points, 39u * 1200 * (20 + 1));  // 982,800
    gameboy.add(4), simple.add(4);
    EXPECT_EQ(gameboy.points, 999999u);
    EXPECT_EQ(simple.points, 40u * 1200 * (20 + 1));  // 1,008,000
    gameboy.add(0, 16);
    EXPECT_EQ(gameboy.points, 999999u);
}

// Soft drops: a point a row the piece is pushed down from its spawn (its top
// row in the well's top row) to its landing, on the Game Boy's 10x18 well;
// none under the simple rule.
TEST(TetrisScore, GameBoySoftDropPointsOnAnEmptyWell) {
    const Tetrominoes& t = tetrominoes();
    const TetrisBoard empty(10, 18);
    const Shape& o = t.shapes.shape(t.shapes.first(PieceSquare));  // 2 rows
    const Shape& flat_i = t.shapes.shape(t.shapes.first(PieceI));  // 1 row
    const Shape& tall_i = t.shapes.shape(t.shapes.first(PieceI) + 1);
    ASSERT_EQ(o.height, 2);
    ASSERT_EQ(flat_i.height, 1);
    ASSERT_EQ(tall_i.height, 4);
    EXPECT_EQ(dropped_rows(o, 18, empty.landing_row(o, 4)), 18 - 2);  // spawn rows 16-17, lands on 0
    EXPECT_EQ(dropped_rows(flat_i, 18, 0), 18 - 1);
    EXPECT_EQ(dropped_rows(tall_i, 18, 0), 18 - 4);
    EXPECT_EQ(dropped_rows(o, 18, 16), 0);  // landed at its spawn
    EXPECT_EQ(dropped_rows(o, 18, 17), 0);  // never negative
    GameBoyScore gameboy, simple;
    gameboy.rule = ScoringRule::GameBoy;
    gameboy.add(0, dropped_rows(o, 18, 0));
    simple.add(0, dropped_rows(o, 18, 0));
    EXPECT_EQ(gameboy.points, 16u);
    EXPECT_EQ(simple.points, 0u);
    gameboy.add(1, 14);  // a single at level 0 after 14 rows of soft drop
    EXPECT_EQ(gameboy.points, 16u + 40 * (0 + 1) + 14);
}

// One reader for board files and the web API's rows: the same rows, the
// same checks, each error naming the row its way (a file's line from the
// top, 1 first; the page's row from the floor, 0 first).
TEST(TetrisBoard, FilesAndTheWebApiReadBoardsByOneReader) {
    const std::vector<std::string> rows = {"....", "#..#", "##.#"};
    EXPECT_EQ(read_board_rows("....\r\n#..#\n##.#\n\n", '\n', RowNaming::FileLine), rows);
    EXPECT_EQ(read_board_rows("..../#..#/##.#", '/', RowNaming::FromFloor), rows);
    const auto error_of = [](const std::string& text, char separator, RowNaming naming) {
        try {
            read_board_rows(text, separator, naming);
        } catch (const InputError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of("....\n#x.#\n##.#\n", '\n', RowNaming::FileLine),
              "board row 2 has 'x' (only '#' filled and '.' empty)");
    EXPECT_EQ(error_of("..../#x.#/##.#", '/', RowNaming::FromFloor),
              "board: row 1 (from the bottom, 0) has 'x' (only '#' filled and '.' empty)");
    EXPECT_EQ(error_of("....\n####\n##.#\n", '\n', RowNaming::FileLine),
              "board row 2 is full (a full row is cleared at once)");
    EXPECT_EQ(error_of("..../####/##.#", '/', RowNaming::FromFloor),
              "board: row 1 (from the bottom, 0) is full (a full row is cleared at once)");
    EXPECT_EQ(error_of("....\n#..#\n##.\n", '\n', RowNaming::FileLine), "board row 3 has 3 cells, row 1 has 4");
    EXPECT_EQ(error_of("..../#..#/##.", '/', RowNaming::FromFloor),
              "board: row 0 (from the bottom, 0) has 3 cells, the top row has 4");
    EXPECT_EQ(error_of("....\n\n##.#\n", '\n', RowNaming::FileLine),
              "board row 2 is empty (blank lines only at the end)");
    EXPECT_EQ(error_of("", '/', RowNaming::FromFloor), "the board has no rows");
    const TetrisBoard board = TetrisBoard::from_rows(rows);
    EXPECT_EQ(board.width(), 4);
    EXPECT_EQ(board.height(), 3);
    EXPECT_EQ(board.row(0), Row(0b1011));  // "##.#": columns 0, 1 and 3
    EXPECT_EQ(board.row(1), Row(0b1001));
    EXPECT_EQ(board.row(2), Row(0));
}

}  // namespace stack::tetris
