// The real game's features (tetris/features.h): each against hand counts
// (shown in a comment) on small boards, and with the placements and line
// clears against the naive cell-loop oracles (tetris_support.h) on random
// boards.
#include "tetris/features.h"
#include "tetris/search.h"
#include "tetris/tetris_board.h"
#include "tetris_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace stack::tetris {

using namespace stack::tetris::testing;

namespace {

Seed001Features naive_seed001(const Grid& g) {
    Seed001Features f;
    for (int y = 0; y < grid_height(g); ++y) {
        int filled = 0;
        for (int x = 0; x < grid_width(g); ++x)
            filled += at(g, x, y);
        if (filled == grid_width(g))
            ++f.full_rows;
        else
            f.longest_row = std::max(f.longest_row, filled);
    }
    for (int x = 0; x < grid_width(g); ++x)
        f.height = std::max(f.height, naive_column_height(g, x));
    f.unreachable = naive_holes(g);
    return f;
}

#define EXPECT_LEE_EQ(a, b)                                  \
    do {                                                     \
        const LeeFeatures a_ = (a), b_ = (b);                \
        EXPECT_EQ(a_.aggregate_height, b_.aggregate_height); \
        EXPECT_EQ(a_.complete_lines, b_.complete_lines);     \
        EXPECT_EQ(a_.holes, b_.holes);                       \
        EXPECT_EQ(a_.bumpiness, b_.bumpiness);               \
    } while (0)

void expect_board_is(const TetrisBoard& board, const Grid& g) {
    ASSERT_EQ(board.width(), grid_width(g));
    ASSERT_EQ(board.height(), grid_height(g));
    int cells = 0, top = 0;
    for (int y = 0; y < grid_height(g); ++y)
        for (int x = 0; x < grid_width(g); ++x) {
            EXPECT_EQ(board.filled(x, y), at(g, x, y)) << x << "," << y;
            cells += at(g, x, y);
        }
    for (int x = 0; x < grid_width(g); ++x) {
        EXPECT_EQ(board.column_height(x), naive_column_height(g, x)) << "column " << x;
        top = std::max(top, naive_column_height(g, x));
    }
    EXPECT_EQ(board.cells(), cells);
    EXPECT_EQ(board.top(), top);
}

}  // namespace

// ---------------------------------------------------------------------------
// Features on boards counted by hand

TEST(TetrisFeatures, BoardACountedByHand) {
    const TetrisBoard board = TetrisBoard::from_text(
        "......\n"   // y5
        "......\n"   // y4
        ".#....\n"   // y3
        ".#..#.\n"   // y2
        "##.##.\n"   // y1
        "#.####\n",  // y0
        6, 6);
    // heights 2 4 1 2 3 1
    const LeeFeatures lee = lee_features(board);
    EXPECT_EQ(lee.aggregate_height, 13);  // 2+4+1+2+3+1
    EXPECT_EQ(lee.complete_lines, 0);
    EXPECT_EQ(lee.holes, 1);      // column 1, y0
    EXPECT_EQ(lee.bumpiness, 9);  // 2+3+1+1+2
    const BoardCounts counts = board_counts(board);
    // rows (walls filled): y0 2, y1 4, y2 6, y3 4, y4 2, y5 2
    EXPECT_EQ(counts.row_transitions, 20);
    // columns (floor filled): 1, 3 (F->. .->#, #->.), 1, 1, 1, 1
    EXPECT_EQ(counts.column_transitions, 8);
    EXPECT_EQ(counts.holes, 1);
    // well runs: column 0 y2-y3 (1+2), column 1 y0 (1), column 2 y1 (1),
    // column 5 y1-y2 (1+2)
    EXPECT_EQ(counts.wells, 8);
    const Seed001Features seed = seed001_features(board);
    EXPECT_EQ(seed.full_rows, 0);
    EXPECT_EQ(seed.longest_row, 5);  // y0
    EXPECT_EQ(seed.height, 4);
    EXPECT_EQ(seed.unreachable, 1);
}

TEST(TetrisFeatures, BoardBCountedByHand) {
    const TetrisBoard board = TetrisBoard::from_text(
        "#....\n"   // y6 (the well's top row)
        "#.#..\n"   // y5
        "#.#.#\n"   // y4
        "..#.#\n"   // y3
        "###.#\n"   // y2
        "#.###\n"   // y1
        ".####\n",  // y0
        5, 7);
    // heights 7 3 6 2 5
    const LeeFeatures lee = lee_features(board);
    EXPECT_EQ(lee.aggregate_height, 23);  // 7+3+6+2+5
    EXPECT_EQ(lee.complete_lines, 0);
    EXPECT_EQ(lee.holes, 3);       // column 0: y0, y3; column 1: y1
    EXPECT_EQ(lee.bumpiness, 14);  // 4+3+4+3
    const BoardCounts counts = board_counts(board);
    // rows: 2, 2, 2, 4, 4, 4, 2
    EXPECT_EQ(counts.row_transitions, 20);
    // columns: 0 F.##.### -> 4 (the top of the well does not count);
    // 1 F#.#.... -> 3; 2 F######. -> 1; 3 F##..... -> 1; 4 F#####.. -> 1
    EXPECT_EQ(counts.column_transitions, 10);
    EXPECT_EQ(counts.holes, 3);
    // well runs: column 0 y0 (1); column 1 y1 (1) and y4-y5 (1+2);
    // column 3 y2-y4 (1+2+3)
    EXPECT_EQ(counts.wells, 11);
    const Seed001Features seed = seed001_features(board);
    EXPECT_EQ(seed.full_rows, 0);
    EXPECT_EQ(seed.longest_row, 4);
    EXPECT_EQ(seed.height, 7);
    EXPECT_EQ(seed.unreachable, 3);
}

namespace {

// A 4x5 board with a full bottom row (from_text refuses full rows: the cells
// are set): y0 ####, y1 #.##, and one cell at column 1 of row `top`.
TetrisBoard board_with_a_full_row(int top) {
    TetrisBoard board(4, 5);
    for (int x = 0; x < 4; ++x)
        board.set(x, 0);
    board.set(0, 1), board.set(2, 1), board.set(3, 1);
    board.set(1, top);
    return board;
}

}  // namespace

TEST(TetrisFeatures, BoardWithAFullRowCountedByHand) {
    //   y4 ....
    //   y3 .#..
    //   y2 ....
    //   y1 #.##
    //   y0 ####
    const TetrisBoard board = board_with_a_full_row(3);
    // heights 2 4 2 2
    const LeeFeatures lee = lee_features(board);
    EXPECT_EQ(lee.aggregate_height, 10);
    EXPECT_EQ(lee.complete_lines, 1);
    EXPECT_EQ(lee.holes, 2);      // column 1: y1, y2
    EXPECT_EQ(lee.bumpiness, 4);  // 2+2+0
    const BoardCounts counts = board_counts(board);
    EXPECT_EQ(counts.row_transitions, 10);    // 0 + 2 + 2 + 4 + 2
    EXPECT_EQ(counts.column_transitions, 6);  // 1 + 3 + 1 + 1
    EXPECT_EQ(counts.holes, 2);
    EXPECT_EQ(counts.wells, 2);  // column 1 y1 (1), column 0 y3 (1)
    const Seed001Features seed = seed001_features(board);
    EXPECT_EQ(seed.full_rows, 1);
    EXPECT_EQ(seed.longest_row, 3);  // y1; the full y0 does not count
    EXPECT_EQ(seed.height, 4);
    EXPECT_EQ(seed.unreachable, 2);
}

// Seed 001's longest row: its MiniZinc model, as printed, takes the most
// filled cells of any row (max over every row's count), a full row
// included; seed001 skips the full rows, seed001-printed does not.
TEST(TetrisFeatures, Seed001PrintedLongestRowCountsAFullRow) {
    //   y2 .#..
    //   y1 #.##
    //   y0 ####
    const TetrisBoard board = board_with_a_full_row(2);
    const Seed001Features skipped = seed001_features(board), printed = seed001_features(board, true);
    EXPECT_EQ(skipped.longest_row, 3);  // y1
    EXPECT_EQ(printed.longest_row, 4);  // y0, full
    for (const Seed001Features& f : {skipped, printed}) {
        EXPECT_EQ(f.full_rows, 1);
        EXPECT_EQ(f.height, 3);
        EXPECT_EQ(f.unreachable, 1);  // column 1, y1
    }
    const PolicyConfig config = parse_tetris_policy("seed001-printed", 0, 0);
    EXPECT_EQ(config.evaluation, Evaluation::Seed001);
    EXPECT_TRUE(config.printed_longest_row);
    EXPECT_FALSE(parse_tetris_policy("seed001", 0, 0).printed_longest_row);
    EXPECT_EQ(policy_name(config), "seed001-printed, preview 1");  // the next block, as seed001
}

TEST(TetrisFeatures, DellacherieOfOnePlacementCountedByHand) {
    // Board A with a vertical I dropped into column 5 (height 1): it lands
    // on row 1, fills y1-y4 of column 5; no row is full (y1 "##.###").
    const TetrisBoard board = TetrisBoard::from_text(
        "......\n"
        "......\n"
        ".#....\n"
        ".#..#.\n"
        "##.##.\n"
        "#.####\n",
        6, 6);
    const Shape& i = tetrominoes().shapes.shape(shape_of(VerticalI));
    ASSERT_EQ(board.landing_row(i, 5), 1);
    const DellacherieFeatures f = dellacherie_features(board, i, 5, 1);
    EXPECT_DOUBLE_EQ(f.landing_height, 2.5);  // 1 + (4 - 1) / 2
    EXPECT_EQ(f.eroded_cells, 0);
    // After:  y5 ......  y4 .....#  y3 .#...#  y2 .#..##  y1 ##.###  y0 #.####
    // rows: y0 2, y1 2, y2 4, y3 4, y4 2 (W.....#W: W->. and .->#), y5 2
    EXPECT_EQ(f.row_transitions, 16);
    // columns: 1, 3, 1, 1, 1, column 5 F#####. -> 1
    EXPECT_EQ(f.column_transitions, 8);
    EXPECT_EQ(f.holes, 1);
    // wells: column 0 y2-y3 (3), column 1 y0 (1), column 2 y1 (1);
    // y4 column 4 (left ., no); column 3 y2? left col2 '.', no
    EXPECT_EQ(f.wells, 5);

    // The I of HorizontalIClearsOneRow: one row cleared.
    const TetrisBoard clears = two_columns_6x5();
    const Shape& h = tetrominoes().shapes.shape(shape_of(HorizontalI));
    const DellacherieFeatures g = dellacherie_features(clears, h, 2, 0);
    EXPECT_DOUBLE_EQ(g.landing_height, 0.0);
    EXPECT_EQ(g.eroded_cells, 4);
    // After: y1 .#...., y0 ##....; rows y0 2, y1 4, y2-y4 2 each
    EXPECT_EQ(g.row_transitions, 12);
    // columns: 0 F#.... -> 1, 1 F##... -> 1, 2-5 F..... -> 1 each
    EXPECT_EQ(g.column_transitions, 6);
    EXPECT_EQ(g.holes, 0);
    // wells: y0 column 2? left # right . no; y1 column 0: wall and # -> 1
    EXPECT_EQ(g.wells, 1);
}

// The floor is filled, so an empty column has one transition, on an empty
// board as on any other.
TEST(TetrisFeatures, AnEmptyColumnHasOneColumnTransition) {
    TetrisBoard one(4, 5);
    one.set(0, 0);
    // column 0: F#.... -> 1; columns 1-3: F..... -> 1 each
    EXPECT_EQ(board_counts(one).column_transitions, 4);
    // rows: y0 W#...W -> 2 (#->., .->W); y1-y4 2 each
    EXPECT_EQ(board_counts(one).row_transitions, 10);
    const TetrisBoard empty(4, 5);
    EXPECT_EQ(board_counts(empty).row_transitions, 10);
    EXPECT_EQ(board_counts(empty).column_transitions, 4);
    EXPECT_EQ(board_counts(empty).holes, 0);
    EXPECT_EQ(board_counts(empty).wells, 0);
    // A perfect clear: two O's side by side at the bottom of a 4-wide well
    // (the second clears both rows, leaving the board empty).
    const TetrisBoard half = TetrisBoard::from_text("....\n....\n....\n##..\n##..\n", 4, 5);
    const Shape& o = tetrominoes().shapes.shape(shape_of(OShape));
    const DellacherieFeatures f = dellacherie_features(half, o, 2, 0);
    EXPECT_EQ(f.eroded_cells, 8);  // 2 rows x the O's 4 cells
    EXPECT_EQ(f.row_transitions, 10);
    EXPECT_EQ(f.column_transitions, 4);
}

// ---------------------------------------------------------------------------
// Random boards against the naive oracles

TEST(TetrisRandom, FeaturesAndPlacementsAgreeWithNaiveOracles) {
    const ShapeSet& shapes = tetrominoes().shapes;
    std::mt19937 rng(20240611);
    int placements_checked = 0, clears = 0;
    // The empty well's column transitions (AnEmptyColumnHasOneColumnTransition)
    // are counted here and checked once at the end, so that the other
    // checks go on past them.
    int empty_well_mismatches = 0, empty_wells = 0;
    const auto expect_counts = [&](const BoardCounts& got, const Grid& g) {
        const BoardCounts expected = naive_counts(g);
        EXPECT_EQ(got.holes, expected.holes);
        EXPECT_EQ(got.row_transitions, expected.row_transitions);
        EXPECT_EQ(got.wells, expected.wells);
        bool empty = true;
        for (int x = 0; x < grid_width(g); ++x)
            empty &= naive_column_height(g, x) == 0;
        empty_wells += empty;
        if (empty)
            empty_well_mismatches += got.column_transitions != expected.column_transitions;
        else
            EXPECT_EQ(got.column_transitions, expected.column_transitions);
    };
    for (int trial = 0; trial < 300; ++trial) {
        const int width = std::uniform_int_distribution<int>(4, 10)(rng);
        const int height = std::uniform_int_distribution<int>(6, 20)(rng);
        const Grid grid = random_grid(rng, width, height, height - 1, trial % 2 ? 0.8 : 0.92);
        const TetrisBoard board = board_of(grid);
        SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(width) + "x" + std::to_string(height)
                     + "\n" + describe(grid));
        expect_board_is(board, grid);
        EXPECT_LEE_EQ(lee_features(board), naive_lee(grid));
        expect_counts(board_counts(board), grid);
        {
            const Seed001Features a = seed001_features(board), b = naive_seed001(grid);
            EXPECT_EQ(a.full_rows, b.full_rows);
            EXPECT_EQ(a.longest_row, b.longest_row);
            EXPECT_EQ(a.height, b.height);
            EXPECT_EQ(a.unreachable, b.unreachable);
        }
        const DellacherieBase base(board);
        for (int piece = 0; piece < 7; ++piece) {
            const std::vector<TetrisPlacement> found = generated(shapes, board, piece);
            const std::vector<TetrisPlacement> expected = naive_placements(shapes, grid, piece);
            ASSERT_EQ(found, expected) << "piece " << piece;
            for (const TetrisPlacement& p : found) {
                SCOPED_TRACE("piece " + std::to_string(piece) + " shape " + std::to_string(p.shape) + " at "
                             + std::to_string(p.x) + "," + std::to_string(p.row));
                const Shape& shape = shapes.shape(p.shape);
                ++placements_checked;
                EXPECT_EQ(board.landing_row(shape, p.x), int(p.row));
                ASSERT_TRUE(board.fits(shape, p.x, p.row));

                // Before the rows clear.
                TetrisBoard kept = board;
                const Landing kept_landing = kept.place(shape, p.x, p.row, false);
                const NaivePlaced unclear = naive_place(grid, shape, p.x, p.row, false);
                expect_board_is(kept, unclear.grid);
                EXPECT_EQ(kept_landing.lines, unclear.lines);
                EXPECT_EQ(kept_landing.eroded_cells, unclear.eroded);
                EXPECT_LEE_EQ(lee_features(board, shape, p.x, p.row), lee_features(kept));
                EXPECT_LEE_EQ(lee_features(board, shape, p.x, p.row), naive_lee(unclear.grid));
                {
                    const Seed001Features a = seed001_features(kept), b = naive_seed001(unclear.grid);
                    EXPECT_EQ(a.full_rows, b.full_rows);
                    EXPECT_EQ(a.longest_row, b.longest_row);
                    EXPECT_EQ(a.height, b.height);
                    EXPECT_EQ(a.unreachable, b.unreachable);
                }

                // After.
                TetrisBoard after = board;
                const Landing landing = after.place(shape, p.x, p.row);
                const NaivePlaced cleared = naive_place(grid, shape, p.x, p.row, true);
                expect_board_is(after, cleared.grid);
                EXPECT_EQ(landing.row, int(p.row));
                EXPECT_EQ(landing.lines, cleared.lines);
                EXPECT_EQ(landing.eroded_cells, cleared.eroded);
                clears += cleared.lines > 0;
                expect_counts(board_counts(after), cleared.grid);

                const DellacherieFeatures d = dellacherie_features(board, shape, p.x, p.row);
                const DellacherieFeatures n = naive_dellacherie(grid, shape, p.x, p.row);
                EXPECT_DOUBLE_EQ(d.landing_height, n.landing_height);
                EXPECT_EQ(d.eroded_cells, n.eroded_cells);
                expect_counts({d.holes, d.row_transitions, d.column_transitions, d.wells}, cleared.grid);
                EXPECT_EQ(d.row_transitions, n.row_transitions);
                EXPECT_EQ(d.holes, n.holes);
                EXPECT_EQ(d.wells, n.wells);
                // The same from the board's shared base (columns as masks).
                const DellacherieFeatures b = base.features(shape, p.x, p.row);
                EXPECT_DOUBLE_EQ(b.landing_height, n.landing_height);
                EXPECT_EQ(b.eroded_cells, n.eroded_cells);
                EXPECT_EQ(b.row_transitions, n.row_transitions);
                EXPECT_EQ(b.column_transitions, n.column_transitions);
                EXPECT_EQ(b.holes, n.holes);
                EXPECT_EQ(b.wells, n.wells);
                if (HasFailure())
                    return;  // one board's story is enough
            }
        }
    }
    EXPECT_GT(placements_checked, 10000);
    EXPECT_GT(clears, 500);  // the clearing paths were exercised
    EXPECT_GT(empty_wells, 0);
    EXPECT_EQ(empty_well_mismatches, 0) << "of " << empty_wells
                                        << " empty wells (empty boards and perfect clears), the column transitions "
                                           "differ from the naive count (the floor filled: 1 per column)";
}

}  // namespace stack::tetris
