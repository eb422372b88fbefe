// What the real game's suites share (tests/play/test_tetris_board.cpp,
// test_features.cpp, test_search.cpp, test_game.cpp, test_decision.cpp): the
// tetrominoes' rules and shapes, rotations by their drawn rows, random boards,
// and the naive oracles on a std::vector<std::vector<bool>> grid that every
// feature and placement is checked against.
#pragma once

#include "rules/piece_set.h"
#include "rules/rules.h"
#include "tetris/features.h"
#include "tetris/search.h"
#include "tetris/tetris_board.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace stack::tetris::testing {

// grid[y][x], y from the floor.
using Grid = std::vector<std::vector<bool>>;

struct Tetrominoes {
    PieceSet set = PieceSet::builtin("tetrominoes");
    Rules rules{set};
    ShapeSet shapes{set};
    std::vector<double> weights = std::vector<double>(7, 1.0 / 7);
};

inline const Tetrominoes& tetrominoes() {
    static const Tetrominoes t;
    return t;
}

// The shape (any piece) whose rows, lowest first, are exactly these masks.
inline int find_shape(const ShapeSet& shapes, std::vector<Row> rows) {
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
inline constexpr Row HorizontalI[] = {0b1111};
inline constexpr Row VerticalI[] = {1, 1, 1, 1};
inline constexpr Row OShape[] = {0b11, 0b11};
// ..#
// ###
inline constexpr Row LFlat[] = {0b111, 0b100};

inline int shape_of(std::span<const Row> rows) {
    const int s = find_shape(tetrominoes().shapes, std::vector<Row>(rows.begin(), rows.end()));
    EXPECT_GE(s, 0) << "no such rotation in the tetrominoes";
    return s;
}

inline TetrisBoard board_of(const Grid& grid) {
    const int height = int(grid.size()), width = int(grid[0].size());
    TetrisBoard board(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (grid[std::size_t(y)][std::size_t(x)])
                board.set(x, y);
    return board;
}

inline int grid_width(const Grid& g) { return int(g[0].size()); }
inline int grid_height(const Grid& g) { return int(g.size()); }
inline bool at(const Grid& g, int x, int y) { return g[std::size_t(y)][std::size_t(x)]; }

// One past the highest filled cell of column x (0 when empty).
inline int naive_column_height(const Grid& g, int x) {
    for (int y = grid_height(g) - 1; y >= 0; --y)
        if (at(g, x, y))
            return y + 1;
    return 0;
}

inline bool naive_full(const Grid& g, int y) {
    for (int x = 0; x < grid_width(g); ++x)
        if (!at(g, x, y))
            return false;
    return true;
}

inline bool shape_cell(const Shape& shape, int dx, int dy) {
    return dy >= 0 && dy < shape.height && dx >= 0 && dx < shape.width && (shape.rows[std::size_t(dy)] >> dx & 1);
}

// The row a hard drop from above the well stops on: start above the
// stack and move down while the next row down is free.
inline int naive_landing(const Grid& g, const Shape& shape, int x) {
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
inline std::vector<TetrisPlacement> naive_placements(const ShapeSet& shapes, const Grid& g, int piece) {
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
inline NaivePlaced naive_place(const Grid& g, const Shape& shape, int x, int row, bool clear) {
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

inline int naive_holes(const Grid& g) {
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

inline LeeFeatures naive_lee(const Grid& g) {
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
inline int naive_row_transitions(const Grid& g) {
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
inline int naive_column_transitions(const Grid& g) {
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

inline bool naive_well_cell(const Grid& g, int x, int y) {
    const bool left = x == 0 || at(g, x - 1, y), right = x == grid_width(g) - 1 || at(g, x + 1, y);
    return !at(g, x, y) && left && right;
}

inline int naive_wells(const Grid& g) {
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

inline BoardCounts naive_counts(const Grid& g) {
    BoardCounts c;
    c.holes = naive_holes(g);
    c.row_transitions = naive_row_transitions(g);
    c.column_transitions = naive_column_transitions(g);
    c.wells = naive_wells(g);
    return c;
}

// The six features of a placement, from the grid before it.
inline DellacherieFeatures naive_dellacherie(const Grid& g, const Shape& shape, int x, int row) {
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

// Random columns up to random heights, each column's top cell filled and
// the cells under it filled with probability `fill`; then every full row
// loses one random cell.
inline Grid random_grid(std::mt19937& rng, int width, int height, int most, double fill = 0.8) {
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

inline std::string describe(const Grid& g) {
    std::string out;
    for (int y = grid_height(g) - 1; y >= 0; --y) {
        for (int x = 0; x < grid_width(g); ++x)
            out += at(g, x, y) ? '#' : '.';
        out += '\n';
    }
    return out;
}

inline std::vector<TetrisPlacement> generated(const ShapeSet& shapes, const TetrisBoard& board, int piece) {
    std::array<TetrisPlacement, MostPlacements> out;
    const int count = generate_placements(shapes, board, piece, MoveSet::HardDrop, out);
    return {out.begin(), out.begin() + count};
}

// A 6x5 well with columns 0 and 1 filled to heights 2 and 3: a flat I at
// column 2 completes the bottom row.
inline TetrisBoard two_columns_6x5() {
    return TetrisBoard::from_text(
        "......\n"
        "......\n"
        ".#....\n"
        "##....\n"
        "##....\n",
        6, 5);
}

// A board whose lowest `rows` rows hold each cell with probability 0.45.
inline TetrisBoard random_board(std::mt19937& rng, int width, int height, int rows) {
    TetrisBoard board(width, height);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < width; ++x)
            if (rng() % 100 < 45)
                board.set(x, y);
    return board;
}

}  // namespace stack::tetris::testing
