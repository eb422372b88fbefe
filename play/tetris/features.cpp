#include "tetris/features.h"

#include <bit>
#include <cstdlib>

namespace stack::tetris {

// Every column's cells lie below its height, so the empty cells under the
// heights are exactly the holes: holes = sum of heights - cells.
LeeFeatures lee_features(const Board& board, const Shape& shape, int x, int row) {
    LeeFeatures features;
    std::array<int, MostWidth> heights;
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

int holes(const Board& board) {
    int count = 0;
    for (int c = 0; c < board.width(); ++c)
        count += board.column_height(c);
    return count - board.cells();
}

// Bit x of (row ^ (row << 1 | 1)) says whether cell x differs from its left
// neighbour (the left wall filled); the right wall adds one when the last
// cell is empty. Rows above the stack are empty: 2 each.
int row_transitions(const Board& board) {
    const Row full = board.full_row();
    const int last = board.width() - 1;
    int count = 2 * (board.height() - board.top());
    for (int y = 0; y < board.top(); ++y) {
        const Row row = board.row(y);
        count += std::popcount((row ^ (row << 1 | 1)) & full) + int(~row >> last & 1);
    }
    return count;
}

// Consecutive rows differ in popcount(r[y] ^ r[y-1]) columns, the floor a
// full row; above the top the rows are empty and equal.
int column_transitions(const Board& board) {
    int count = 0;
    Row below = board.full_row();
    const int rows = board.top() < board.height() ? board.top() + 1 : board.height();
    for (int y = 0; y < rows; ++y) {
        const Row row = board.row(y);
        count += std::popcount(row ^ below);
        below = row;
    }
    return count;
}

// A well cell's share is its place in its run counted from the run's top:
// the sum over k >= 0 of the cells whose k cells above are well cells too.
// runs[y] starts as the well cells of row y and keeps, round k, those
// whose k cells above are well cells.
int cumulative_wells(const Board& board) {
    const Row full = board.full_row();
    const int top = board.top();
    const Row right_wall = Row(1) << (board.width() - 1);
    std::array<Row, MostHeight + 1> well{}, runs{};
    int live = 0;
    for (int y = 0; y < top; ++y) {
        const Row row = board.row(y);
        well[std::size_t(y)] = ~row & full & (row << 1 | 1) & (row >> 1 | right_wall);
        runs[std::size_t(y)] = well[std::size_t(y)];
        live |= well[std::size_t(y)] != 0;
    }
    int count = 0;
    for (int k = 0; live; ++k) {
        live = 0;
        for (int y = 0; y + k < top; ++y) {
            count += std::popcount(runs[std::size_t(y)]);
            runs[std::size_t(y)] &= well[std::size_t(y + k + 1)];
            live |= runs[std::size_t(y)] != 0;
        }
    }
    return count;
}

DellacherieFeatures dellacherie_features(const Board& after, const Shape& shape, const Landing& landing) {
    DellacherieFeatures features;
    features.landing_height = landing.row + (shape.height - 1) / 2.0;
    features.eroded_cells = landing.eroded_cells;
    features.row_transitions = row_transitions(after);
    features.column_transitions = column_transitions(after);
    features.holes = holes(after);
    features.wells = cumulative_wells(after);
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
    features.unreachable = holes(board);
    return features;
}

}  // namespace stack::tetris
