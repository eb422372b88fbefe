// The real game (tetris/tetris_board.h, play/tetris/): board mechanics, game over,
// every feature against hand counts and against naive cell-loop oracles,
// the preview and expectimax searches against a plain recursion, thread
// determinism, Game Boy points (both --scoring rules), feature weights and
// seed 000's piece files. Every expected number here is counted by hand
// (shown in a comment) or computed by an oracle in this file on a
// std::vector<std::vector<bool>> grid.
#include "rules/piece_set.h"
#include "rules/pieces.h"
#include "rules/rules.h"
#include "tetris/tetris_board.h"
#include "support/errors.h"
#include "tetris/features.h"
#include "tetris/game.h"
#include "tetris/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace stack::tetris {

namespace {

// grid[y][x], y from the floor.
using Grid = std::vector<std::vector<bool>>;

struct Tetrominoes {
    PieceSet set = PieceSet::builtin("tetrominoes");
    Rules rules{set};
    ShapeSet shapes{set};
};

const Tetrominoes& tetrominoes() {
    static const Tetrominoes t;
    return t;
}

// The shape (any piece) whose rows, lowest first, are exactly these masks.
int find_shape(const ShapeSet& shapes, std::vector<Row> rows) {
    for (int s = 0; s < int(shapes.shapes().size()); ++s) {
        const Shape& shape = shapes.shape(s);
        if (shape.height != int(rows.size()))
            continue;
        bool same = true;
        for (int dy = 0; dy < shape.height; ++dy)
            same &= shape.rows[std::size_t(dy)] == rows[std::size_t(dy)];
        if (same)
            return s;
    }
    return -1;
}

// Rows lowest first, bit 0 the leftmost column.
constexpr Row HorizontalI[] = {0b1111};
constexpr Row VerticalI[] = {1, 1, 1, 1};
constexpr Row OShape[] = {0b11, 0b11};
// ..#
// ###
constexpr Row LFlat[] = {0b111, 0b100};

int shape_of(std::span<const Row> rows) {
    const int s = find_shape(tetrominoes().shapes, std::vector<Row>(rows.begin(), rows.end()));
    EXPECT_GE(s, 0) << "no such rotation in the tetrominoes";
    return s;
}

TetrisBoard board_of(const Grid& grid) {
    const int height = int(grid.size()), width = int(grid[0].size());
    TetrisBoard board(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (grid[std::size_t(y)][std::size_t(x)])
                board.set(x, y);
    return board;
}

int grid_width(const Grid& g) { return int(g[0].size()); }
int grid_height(const Grid& g) { return int(g.size()); }
bool at(const Grid& g, int x, int y) { return g[std::size_t(y)][std::size_t(x)]; }

// One past the highest filled cell of column x (0 when empty).
int naive_column_height(const Grid& g, int x) {
    for (int y = grid_height(g) - 1; y >= 0; --y)
        if (at(g, x, y))
            return y + 1;
    return 0;
}

bool naive_full(const Grid& g, int y) {
    for (int x = 0; x < grid_width(g); ++x)
        if (!at(g, x, y))
            return false;
    return true;
}

bool shape_cell(const Shape& shape, int dx, int dy) {
    return dy >= 0 && dy < shape.height && dx >= 0 && dx < shape.width && (shape.rows[std::size_t(dy)] >> dx & 1);
}

// The row a hard drop from above the well stops on: start above the
// stack and move down while the next row down is free.
int naive_landing(const Grid& g, const Shape& shape, int x) {
    const auto collides = [&](int r) {
        for (int dy = 0; dy < shape.height; ++dy)
            for (int dx = 0; dx < shape.width; ++dx)
                if (shape_cell(shape, dx, dy) && r + dy < grid_height(g) && at(g, x + dx, r + dy))
                    return true;
        return false;
    };
    int r = grid_height(g);
    while (r > 0 && !collides(r - 1))
        --r;
    return r;
}

// Every hard-drop placement lying inside the well: rotations in the set's
// order, columns left to right.
std::vector<TetrisPlacement> naive_placements(const ShapeSet& shapes, const Grid& g, int piece) {
    std::vector<TetrisPlacement> out;
    for (int s = shapes.first(piece); s < shapes.end(piece); ++s) {
        const Shape& shape = shapes.shape(s);
        for (int x = 0; x + shape.width <= grid_width(g); ++x) {
            const int r = naive_landing(g, shape, x);
            if (r + shape.height <= grid_height(g))
                out.push_back({std::int16_t(s), std::int8_t(x), std::int8_t(r)});
        }
    }
    return out;
}

struct NaivePlaced {
    Grid grid;
    int lines = 0, eroded = 0;
};

// The shape's cells put in; with `clear`, the full rows taken out and the
// rows above moved down cell by cell.
NaivePlaced naive_place(const Grid& g, const Shape& shape, int x, int row, bool clear) {
    NaivePlaced out{g};
    for (int dy = 0; dy < shape.height; ++dy)
        for (int dx = 0; dx < shape.width; ++dx)
            if (shape_cell(shape, dx, dy))
                out.grid[std::size_t(row + dy)][std::size_t(x + dx)] = true;
    int piece_cells = 0;
    std::vector<bool> full(g.size(), false);
    for (int y = 0; y < grid_height(g); ++y)
        if (naive_full(out.grid, y)) {
            full[std::size_t(y)] = true;
            ++out.lines;
            for (int dx = 0; dx < shape.width; ++dx)
                piece_cells += shape_cell(shape, dx, y - row);
        }
    out.eroded = out.lines * piece_cells;
    if (clear) {
        Grid kept;
        for (int y = 0; y < grid_height(g); ++y)
            if (!full[std::size_t(y)])
                kept.push_back(out.grid[std::size_t(y)]);
        while (kept.size() < g.size())
            kept.push_back(std::vector<bool>(std::size_t(grid_width(g)), false));
        out.grid = kept;
    }
    return out;
}

int naive_holes(const Grid& g) {
    int holes = 0;
    for (int x = 0; x < grid_width(g); ++x)
        for (int y = 0; y < grid_height(g); ++y) {
            bool above = false;
            for (int z = y + 1; z < grid_height(g); ++z)
                above |= at(g, x, z);
            holes += !at(g, x, y) && above;
        }
    return holes;
}

LeeFeatures naive_lee(const Grid& g) {
    LeeFeatures f;
    for (int x = 0; x < grid_width(g); ++x) {
        f.aggregate_height += naive_column_height(g, x);
        if (x + 1 < grid_width(g))
            f.bumpiness += std::abs(naive_column_height(g, x + 1) - naive_column_height(g, x));
    }
    for (int y = 0; y < grid_height(g); ++y)
        f.complete_lines += naive_full(g, y);
    f.holes = naive_holes(g);
    return f;
}

// Walls filled: each row walked from the left wall to the right wall.
int naive_row_transitions(const Grid& g) {
    int count = 0;
    for (int y = 0; y < grid_height(g); ++y) {
        bool previous = true;  // the left wall
        for (int x = 0; x < grid_width(g); ++x) {
            count += at(g, x, y) != previous;
            previous = at(g, x, y);
        }
        count += !previous;  // the right wall
    }
    return count;
}

// The floor filled; nothing above the top of the well.
int naive_column_transitions(const Grid& g) {
    int count = 0;
    for (int x = 0; x < grid_width(g); ++x) {
        bool previous = true;  // the floor
        for (int y = 0; y < grid_height(g); ++y) {
            count += at(g, x, y) != previous;
            previous = at(g, x, y);
        }
    }
    return count;
}

bool naive_well_cell(const Grid& g, int x, int y) {
    const bool left = x == 0 || at(g, x - 1, y), right = x == grid_width(g) - 1 || at(g, x + 1, y);
    return !at(g, x, y) && left && right;
}

int naive_wells(const Grid& g) {
    int total = 0;
    for (int x = 0; x < grid_width(g); ++x) {
        int run = 0;
        for (int y = 0; y <= grid_height(g); ++y) {
            if (y < grid_height(g) && naive_well_cell(g, x, y)) {
                ++run;
            } else {
                total += run * (run + 1) / 2;
                run = 0;
            }
        }
    }
    return total;
}

BoardCounts naive_counts(const Grid& g) {
    BoardCounts c;
    c.holes = naive_holes(g);
    c.row_transitions = naive_row_transitions(g);
    c.column_transitions = naive_column_transitions(g);
    c.wells = naive_wells(g);
    return c;
}

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

// The six features of a placement, from the grid before it.
DellacherieFeatures naive_dellacherie(const Grid& g, const Shape& shape, int x, int row) {
    const NaivePlaced placed = naive_place(g, shape, x, row, true);
    DellacherieFeatures f;
    f.landing_height = row + (shape.height - 1) / 2.0;
    f.eroded_cells = placed.eroded;
    const BoardCounts c = naive_counts(placed.grid);
    f.row_transitions = c.row_transitions;
    f.column_transitions = c.column_transitions;
    f.holes = c.holes;
    f.wells = c.wells;
    return f;
}

// The policies' scores as search.h states them.
double naive_lee_score(const LeeFeatures& f) {
    return -0.510066 * f.aggregate_height + 0.760666 * f.complete_lines - 0.35663 * f.holes - 0.184483 * f.bumpiness;
}
double naive_dellacherie_score(const DellacherieFeatures& f) {
    return -f.landing_height + f.eroded_cells - f.row_transitions - f.column_transitions - 4.0 * f.holes - f.wells;
}

#define EXPECT_LEE_EQ(a, b)                                  \
    do {                                                     \
        const LeeFeatures a_ = (a), b_ = (b);                \
        EXPECT_EQ(a_.aggregate_height, b_.aggregate_height); \
        EXPECT_EQ(a_.complete_lines, b_.complete_lines);     \
        EXPECT_EQ(a_.holes, b_.holes);                       \
        EXPECT_EQ(a_.bumpiness, b_.bumpiness);               \
    } while (0)

// Random columns up to random heights, each column's top cell filled and
// the cells under it filled with probability `fill`; then every full row
// loses one random cell.
Grid random_grid(std::mt19937& rng, int width, int height, int most, double fill = 0.8) {
    Grid g(std::size_t(height), std::vector<bool>(std::size_t(width), false));
    const int limit = std::uniform_int_distribution<int>(0, most)(rng);
    std::bernoulli_distribution cell(fill);
    for (int x = 0; x < width; ++x) {
        const int h = std::uniform_int_distribution<int>(0, limit)(rng);
        for (int y = 0; y < h; ++y)
            g[std::size_t(y)][std::size_t(x)] = y == h - 1 || cell(rng);
    }
    for (int y = 0; y < height; ++y)
        if (naive_full(g, y))
            g[std::size_t(y)][std::size_t(std::uniform_int_distribution<int>(0, width - 1)(rng))] = false;
    return g;
}

std::string describe(const Grid& g) {
    std::string out;
    for (int y = grid_height(g) - 1; y >= 0; --y) {
        for (int x = 0; x < grid_width(g); ++x)
            out += at(g, x, y) ? '#' : '.';
        out += '\n';
    }
    return out;
}

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

std::vector<TetrisPlacement> generated(const ShapeSet& shapes, const TetrisBoard& board, int piece) {
    std::array<TetrisPlacement, MostPlacements> out;
    const int count = generate_placements(shapes, board, piece, MoveSet::HardDrop, out);
    return {out.begin(), out.begin() + count};
}

}  // namespace

// ---------------------------------------------------------------------------
// 1. Board mechanics

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

// A 6x5 well with columns 0 and 1 filled to heights 2 and 3: a flat I at
// column 2 completes the bottom row.
TetrisBoard two_columns_6x5() {
    return TetrisBoard::from_text(
        "......\n"
        "......\n"
        ".#....\n"
        "##....\n"
        "##....\n",
        6, 5);
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
// 2. Game over

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
// 3. Features on boards counted by hand

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
// 4. Random boards against the naive oracles

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

// ---------------------------------------------------------------------------
// 5. The preview and expectimax searches against a plain recursion

namespace {

double plain_leaf(const ShapeSet& shapes, const Grid& g, const TetrisPlacement& p, Evaluation evaluation) {
    const Shape& shape = shapes.shape(p.shape);
    if (evaluation == Evaluation::Lee)
        return naive_lee_score(naive_lee(naive_place(g, shape, p.x, p.row, false).grid));
    return naive_dellacherie_score(naive_dellacherie(g, shape, p.x, p.row));
}

double plain_best(const ShapeSet& shapes, const Grid& g, std::span<const int> pieces, Evaluation evaluation);

// `rest` the known pieces after this placement's.
double plain_after(const ShapeSet& shapes, const Grid& g, const TetrisPlacement& p, std::span<const int> rest,
                   Evaluation evaluation) {
    if (rest.empty())
        return plain_leaf(shapes, g, p, evaluation);
    const Grid next = naive_place(g, shapes.shape(p.shape), p.x, p.row, true).grid;
    return plain_best(shapes, next, rest, evaluation);
}

double plain_best(const ShapeSet& shapes, const Grid& g, std::span<const int> pieces, Evaluation evaluation) {
    double best = Lost;
    for (const TetrisPlacement& p : naive_placements(shapes, g, pieces[0]))
        best = std::max(best, plain_after(shapes, g, p, pieces.subspan(1), evaluation));
    return best;
}

void expect_close(double got, double expected, const std::string& what) {
    if (expected == Lost) {
        EXPECT_EQ(got, Lost) << what;
        return;
    }
    EXPECT_NEAR(got, expected, 1e-9 + 1e-12 * std::abs(expected)) << what;
}

}  // namespace

TEST(TetrisPreview, ScoresEqualAPlainRecursion) {
    const ShapeSet& shapes = tetrominoes().shapes;
    std::mt19937 rng(777);
    int lost = 0, scored = 0;
    for (const auto& [width, height] : {std::pair{5, 8}, std::pair{6, 10}})
        for (const int preview : {1, 2})
            for (const char* name : {"lee", "dellacherie"}) {
                const PolicyConfig config = parse_tetris_policy(name, preview, 0);
                const TetrisPolicy policy(shapes, config, std::vector<double>(7, 1.0 / 7));
                const int boards = preview == 1 ? 12 : 6;
                for (int trial = 0; trial < boards; ++trial) {
                    const Grid grid = random_grid(rng, width, height, height - 2);
                    const TetrisBoard board = board_of(grid);
                    std::vector<int> known(std::size_t(preview + 1));
                    for (int& piece : known)
                        piece = std::uniform_int_distribution<int>(0, 6)(rng);
                    SCOPED_TRACE(std::string(name) + " preview " + std::to_string(preview) + "\n" + describe(grid));
                    const std::vector<TetrisPlacement> firsts = naive_placements(shapes, grid, known[0]);
                    ASSERT_EQ(generated(shapes, board, known[0]), firsts);
                    std::vector<double> values;
                    for (const TetrisPlacement& first : firsts) {
                        const double expected =
                            plain_after(shapes, grid, first, std::span<const int>(known).subspan(1), config.evaluation);
                        values.push_back(expected);
                        lost += expected == Lost;
                        ++scored;
                        expect_close(policy.score(board, known, first), expected,
                                     "first placement " + std::to_string(first.shape) + " at " + std::to_string(first.x)
                                         + "," + std::to_string(first.row));
                    }
                    // choose: the first placement of the best value.
                    const std::optional<TetrisPlacement> chosen = policy.choose(board, known);
                    ASSERT_EQ(chosen.has_value(), !firsts.empty());
                    if (!firsts.empty()) {
                        const double top = *std::max_element(values.begin(), values.end());
                        std::size_t first_best = 0;
                        while (values[first_best] < top - 1e-9)
                            ++first_best;
                        EXPECT_EQ(*chosen, firsts[first_best]);
                    }
                    // A longer known list is cut to the preview.
                    std::vector<int> longer = known;
                    longer.push_back(PieceI);
                    if (!firsts.empty()) {
                        EXPECT_EQ(policy.score(board, longer, firsts[0]), policy.score(board, known, firsts[0]));
                    }
                }
            }
    EXPECT_GT(scored, 500);
    EXPECT_GT(lost, 0);  // some branches ran out of room
}

TEST(TetrisPreview, ExpectimaxDepthOneIsTheMeanOverTheSevenPieces) {
    const ShapeSet& shapes = tetrominoes().shapes;
    const PolicyConfig config = parse_tetris_policy("expectimax", 0, 1);
    ASSERT_EQ(config.evaluation, Evaluation::Lee);
    ASSERT_EQ(config.expectimax_depth, 1);
    ASSERT_EQ(config.preview, 0);
    const TetrisPolicy policy(shapes, config, std::vector<double>(7, 1.0 / 7));
    std::mt19937 rng(4242);
    int scored = 0;
    for (const auto& [width, height] : {std::pair{5, 8}, std::pair{6, 10}})
        for (int trial = 0; trial < 10; ++trial) {
            const Grid grid = random_grid(rng, width, height, height - 2);
            const TetrisBoard board = board_of(grid);
            const int piece = std::uniform_int_distribution<int>(0, 6)(rng);
            const int known[] = {piece};
            SCOPED_TRACE(describe(grid));
            for (const TetrisPlacement& first : naive_placements(shapes, grid, piece)) {
                const Grid next = naive_place(grid, shapes.shape(first.shape), first.x, first.row, true).grid;
                double mean = 0;
                for (int q = 0; q < 7; ++q) {
                    const int draw[] = {q};
                    mean += plain_best(shapes, next, draw, Evaluation::Lee) / 7.0;
                }
                ++scored;
                expect_close(policy.score(board, known, first), mean, "expectimax");
            }
        }
    EXPECT_GT(scored, 100);
}

// ---------------------------------------------------------------------------
// 6. The same games on any number of search threads

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
// 7. Game Boy points

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

// ---------------------------------------------------------------------------
// 7b. Feature weights (--weights)

TEST(TetrisWeights, TheirOwnByDefaultAndAsTheSeedsPrintThem) {
    EXPECT_EQ(policy_weights(parse_tetris_policy("lee", 0, 0)),
              (std::vector<double>{0.510066, 0.760666, 0.35663, 0.184483}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("expectimax", 0, 0)),
              policy_weights(parse_tetris_policy("lee", 0, 0)));
    EXPECT_EQ(policy_weights(parse_tetris_policy("dellacherie", 0, 0)), (std::vector<double>{-1, 1, -1, -1, -4, -1}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("seed001", 0, 0)), (std::vector<double>{18, 10, 3, 10}));
    EXPECT_EQ(policy_weights(parse_tetris_policy("el-tetris", 0, 0)).size(), 6u);
    PolicyConfig lee = parse_tetris_policy("lee", 0, 0);
    EXPECT_EQ(policy_name(lee), "lee");
    const std::vector<double> seed000 = {0.810066, 0.760666, 0.35663, 0.184483};  // seed 000's getWeights
    set_policy_weights(lee, seed000);
    EXPECT_EQ(policy_name(lee), "lee, weights 0.810066,0.760666,0.35663,0.184483");
    EXPECT_EQ(policy_weights(lee), seed000);
    try {
        set_policy_weights(lee, std::vector<double>{1, 2, 3});
        ADD_FAILURE() << "3 weights for lee";
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "--weights: policy lee takes 4 weights (got 3)");
    }
    PolicyConfig dellacherie = parse_tetris_policy("dellacherie", 0, 0);
    EXPECT_THROW(set_policy_weights(dellacherie, seed000), InputError);
}

// An O on the left of an empty 10x20 well: aggregate height 2 + 2, no
// lines or holes, bumpiness 2 (column 1 to 2). Lee's score and seed 000's
// (0.810066 for the height) by hand.
TEST(TetrisWeights, LeeScoreWithSeed000sWeights) {
    const Tetrominoes& t = tetrominoes();
    const TetrisBoard empty(10, 20);
    const int o[] = {PieceSquare};
    const TetrisPlacement left{std::int16_t(t.shapes.first(PieceSquare)), 0, 0};
    PolicyConfig config = parse_tetris_policy("lee", 0, 0);
    const TetrisPolicy own(t.shapes, config, std::vector<double>(7, 1.0 / 7));
    EXPECT_DOUBLE_EQ(own.score(empty, o, left), -0.510066 * 4 - 0.184483 * 2);
    set_policy_weights(config, std::vector<double>{0.810066, 0.760666, 0.35663, 0.184483});
    const TetrisPolicy seed000(t.shapes, config, std::vector<double>(7, 1.0 / 7));
    EXPECT_DOUBLE_EQ(seed000.score(empty, o, left), -0.810066 * 4 - 0.184483 * 2);
}

// Weights that are the policy's own, or all of them scaled by 2, play the
// same game (the scores keep their order).
TEST(TetrisWeights, OwnOrScaledWeightsPlayTheSameGame) {
    const Tetrominoes& t = tetrominoes();
    TetrisOptions options;
    options.max_pieces = 200;
    options.seed = 4;
    const std::vector<double> draw(7, 1.0 / 7);
    for (const char* name : {"lee", "dellacherie", "seed001"}) {
        const PolicyConfig plain = parse_tetris_policy(name, 0, 0);
        PolicyConfig same = plain, doubled = plain;
        const std::vector<double> weights = policy_weights(plain);
        std::vector<double> twice;
        for (const double w : weights)
            twice.push_back(2 * w);
        set_policy_weights(same, weights);
        set_policy_weights(doubled, twice);
        const TetrisPolicy a(t.shapes, plain, draw), b(t.shapes, same, draw), c(t.shapes, doubled, draw);
        const GameRecord one = play_tetris_game(options, t.rules, t.shapes, a, nullptr, 0, 1);
        for (const TetrisPolicy* other : {&b, &c}) {
            const GameRecord two = play_tetris_game(options, t.rules, t.shapes, *other, nullptr, 0, 1);
            EXPECT_EQ(one.pieces, two.pieces) << name;
            EXPECT_EQ(one.lines, two.lines) << name;
            EXPECT_EQ(one.final_height, two.final_height) << name;
        }
    }
}

// ---------------------------------------------------------------------------
// 8. Seed 000's piece files

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

namespace stack::tetris {

// --moves bfs: on low random boards (nothing near the spawn rows) every
// hard drop is also reached by SRS, and a tuck under an overhang, which no
// hard drop reaches, is found; each SRS placement is a rotation of its
// piece resting on the stack or the floor.
TEST(TetrisMoves, BreadthFirstHoldsEveryHardDropAndATuck) {
    const Tetrominoes& t = tetrominoes();
    std::mt19937 random(11);
    std::array<TetrisPlacement, MostPlacements> drops, reached;
    for (int trial = 0; trial < 60; ++trial) {
        TetrisBoard board(10, 20);
        for (int x = 0; x < 10; ++x)
            for (int y = 0, top = int(random() % 8); y < top; ++y)
                if (random() % 5 != 0 || y + 1 == top)
                    board.set(x, y);
        for (int y = 0; y < board.top(); ++y)
            if (board.row(y) == board.full_row())
                board = TetrisBoard(10, 20);  // no full rows: start again empty
        for (int piece = 0; piece < 7; ++piece) {
            const int hard = generate_placements(t.shapes, board, piece, MoveSet::HardDrop, drops);
            const int srs = generate_placements(t.shapes, board, piece, MoveSet::BreadthFirst, reached);
            for (int i = 0; i < hard; ++i)
                EXPECT_NE(std::find(reached.begin(), reached.begin() + srs, drops[std::size_t(i)]),
                          reached.begin() + srs)
                    << "trial " << trial << " piece " << piece;
            for (int i = 0; i < srs; ++i) {
                const TetrisPlacement& p = reached[std::size_t(i)];
                const Shape& shape = t.shapes.shape(p.shape);
                EXPECT_EQ(shape.piece, piece);
                EXPECT_TRUE(board.fits(shape, p.x, p.row));
                EXPECT_FALSE(board.fits(shape, p.x, p.row - 1));  // it rests
            }
        }
    }
    // An overhang over columns 2-3 at row 2: an O dropped at column 0
    // slides right under it only by SRS.
    TetrisBoard overhang = TetrisBoard::from_text("....\n....\n....\n..##\n....\n....\n", 4, 6);
    const int hard = generate_placements(t.shapes, overhang, PieceSquare, MoveSet::HardDrop, drops);
    const int srs = generate_placements(t.shapes, overhang, PieceSquare, MoveSet::BreadthFirst, reached);
    const TetrisPlacement tuck{std::int16_t(t.shapes.first(PieceSquare)), 1, 0};
    EXPECT_EQ(std::find(drops.begin(), drops.begin() + hard, tuck), drops.begin() + hard);
    EXPECT_NE(std::find(reached.begin(), reached.begin() + srs, tuck), reached.begin() + srs);
}

// Seed 000's buffer rows (--buffer-rows): the board is taller than the
// well, and a placement needs a cell in the well, i.e. its lowest row below
// visible_rows. Columns 0-1 filled to row 6 of a 4x9 board (a 4x6 well and
// 3 buffer rows): an O on them lands at row 7, in the buffer only.
TEST(TetrisBufferRows, APlacementNeedsACellInTheWell) {
    const ShapeSet& shapes = tetrominoes().shapes;
    TetrisBoard board(4, 9);
    for (int x = 0; x < 2; ++x)
        for (int y = 0; y < 7; ++y)
            board.set(x, y);
    std::array<TetrisPlacement, MostPlacements> out;
    const int anywhere = generate_placements(shapes, board, PieceSquare, MoveSet::HardDrop, out);
    EXPECT_EQ(anywhere, 3);  // columns 0, 1 (row 7) and 2 (row 0)
    const int in_well = generate_placements(shapes, board, PieceSquare, MoveSet::HardDrop, out, -1, 6);
    ASSERT_EQ(in_well, 1);
    EXPECT_EQ(out[0].x, 2);
    EXPECT_EQ(out[0].row, 0);
    // A game's policy sees the same: with the buffer rows, from the options.
    TetrisOptions options;
    options.width = 4;
    options.height = 6;
    options.buffer_rows = 3;
    options.policy = "lee";
    const PolicyConfig config = policy_config(options);
    EXPECT_EQ(config.visible_rows, 6);
    EXPECT_EQ(start_board(options).height(), 9);
}

}  // namespace stack::tetris
