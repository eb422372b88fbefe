#include "tetris/features.h"

#include <bit>
#include <cstdlib>

namespace stack::tetris {

// Every column's cells lie below its height, so the empty cells under the
// heights are exactly the holes: holes = sum of heights - cells.
LeeFeatures lee_features(const Board& board, const Shape& shape, int x, int row) {
    LeeFeatures features;
    std::array<int, MostWidth> heights{};
    const int width = board.width();
    for (int c = 0; c < width; ++c)
        heights[std::size_t(c)] = board.column_height(c);
    for (int k = 0; k < shape.width; ++k) {
        const int top = row + shape.top[std::size_t(k)];
        int& column = heights[std::size_t(x + k)];
        column = top > column ? top : column;
    }
    for (int c = 0; c < width; ++c) {
        features.aggregate_height += heights[std::size_t(c)];
        if (c + 1 < width)
            features.bumpiness += std::abs(heights[std::size_t(c + 1)] - heights[std::size_t(c)]);
    }
    for (int dy = 0; dy < shape.height; ++dy)
        features.complete_lines += (board.row(row + dy) | shape.rows[std::size_t(dy)] << x) == board.full_row();
    features.holes = features.aggregate_height - board.cells() - shape.cells;
    return features;
}

LeeFeatures lee_features(const Board& board) {
    LeeFeatures features;
    const int width = board.width();
    for (int c = 0; c < width; ++c) {
        features.aggregate_height += board.column_height(c);
        if (c + 1 < width)
            features.bumpiness += std::abs(board.column_height(c + 1) - board.column_height(c));
    }
    for (int y = 0; y < board.top(); ++y)
        features.complete_lines += board.row(y) == board.full_row();
    features.holes = features.aggregate_height - board.cells();
    return features;
}

// One pass down the stack's rows gives all four counts:
//   holes    an empty cell under `covered` (the columns with a cell above);
//   row      bit x of (row ^ (row << 1 | 1)) says whether cell x differs from
//            its left neighbour (the left wall filled), and the right wall
//            adds one when the last cell is empty; the rows above the stack
//            are empty, 2 each;
//   column   popcount(r[y] ^ r[y-1]) with the floor a full row, plus the
//            change from the top row to the empty row above it;
//   wells    a run of k well cells scores 1 + ... + k, which is the sum over
//            its cells of their place in the run from its top: the sum over
//            j >= 0 of the well cells whose j cells above are well cells too
//            (after the pass, without a branch per row: wells are rare).
BoardCounts board_counts(const Row* rows, int top, int width, int height) {
    const Row full = Row((Row(1) << width) - 1), right_wall = Row(1) << (width - 1);
    const int last = width - 1;
    BoardCounts counts;
    counts.row_transitions = 2 * (height - top);
    // The change from the top row to the empty row above it; an empty well
    // has only the floor's change under its first row, one per column.
    counts.column_transitions = top == 0 ? width : top < height ? std::popcount(rows[top - 1]) : 0;
    std::array<Row, MostHeight + 1> well, runs;
    well[std::size_t(top)] = 0;
    Row covered = 0, any = 0;
    for (int y = top - 1; y >= 0; --y) {
        const Row row = rows[y], below = y > 0 ? rows[y - 1] : full;
        counts.holes += std::popcount(~row & covered & full);
        covered |= row;
        counts.row_transitions += std::popcount((row ^ (row << 1 | 1)) & full) + int(~row >> last & 1);
        counts.column_transitions += std::popcount(row ^ below);
        well[std::size_t(y)] = runs[std::size_t(y)] = ~row & full & (row << 1 | 1) & (row >> 1 | right_wall);
        any |= well[std::size_t(y)];
    }
    for (int j = 0; any; ++j) {
        any = 0;
        for (int y = 0; y + j < top; ++y) {
            counts.wells += std::popcount(runs[std::size_t(y)]);
            runs[std::size_t(y)] &= well[std::size_t(y + j + 1)];
            any |= runs[std::size_t(y)];
        }
    }
    return counts;
}

BoardCounts board_counts(const Board& board) {
    return board_counts(board.rows(), board.top(), board.width(), board.height());
}

// The stack's rows [0, top) are copied, the piece OR-ed in and the full rows
// taken out; the board itself is never copied whole.
DellacherieFeatures dellacherie_features(const Board& board, const Shape& shape, int x, int row) {
    DellacherieFeatures features;
    std::array<Row, MostHeight + MostShapeRows> rows;
    int top = std::max(board.top(), row + shape.height);
    for (int y = 0; y < top; ++y)
        rows[std::size_t(y)] = board.row(y);
    const Row full = board.full_row();
    int lines = 0, piece_cells = 0;
    for (int dy = 0; dy < shape.height; ++dy) {
        const Row filled = rows[std::size_t(row + dy)] | shape.rows[std::size_t(dy)] << x;
        rows[std::size_t(row + dy)] = filled;
        if (filled == full)
            ++lines, piece_cells += std::popcount(shape.rows[std::size_t(dy)]);
    }
    if (lines > 0) {
        int to = row;
        for (int from = row; from < top; ++from)
            if (rows[std::size_t(from)] != full)
                rows[std::size_t(to++)] = rows[std::size_t(from)];
        top = to;
        while (top > 0 && rows[std::size_t(top - 1)] == 0)
            --top;
    }
    features.landing_height = row + (shape.height - 1) / 2.0;
    features.eroded_cells = lines * piece_cells;
    const BoardCounts counts = board_counts(rows.data(), top, board.width(), board.height());
    features.row_transitions = counts.row_transitions;
    features.column_transitions = counts.column_transitions;
    features.holes = counts.holes;
    features.wells = counts.wells;
    return features;
}

Seed001Features seed001_features(const Board& board) {
    Seed001Features features;
    for (int y = 0; y < board.top(); ++y) {
        const Row row = board.row(y);
        if (row == board.full_row())
            ++features.full_rows;
        else if (std::popcount(row) > features.longest_row)
            features.longest_row = std::popcount(row);
    }
    features.height = board.top();
    features.unreachable = board_counts(board).holes;
    return features;
}

}  // namespace stack::tetris
