#include "tetris/features.h"

#include <bit>
#include <cstdlib>

namespace stack::tetris {

namespace {

// One row's transitions: bit x of (row ^ (row << 1 | 1)) says whether cell
// x differs from its left neighbour (the left wall filled); the right wall
// adds one when the last cell is empty. An empty row has 2.
int transitions_along(Row row, Row full, int last) {
    return std::popcount((row ^ (row << 1 | 1)) & full) + int(~row >> last & 1);
}

}  // namespace

// Every column's cells lie below its height, so the empty cells under the
// heights are exactly the holes: holes = sum of heights - cells.
LeeFeatures lee_features(const TetrisBoard& board, const Shape& shape, int x, int row) {
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

LeeFeatures lee_features(const TetrisBoard& board) {
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
//   row      transitions_along each row; the rows above the stack are empty,
//            2 each;
//   column   popcount(r[y] ^ r[y-1]) with the floor a full row, plus the
//            change from the top row to the empty row above it;
//   wells    a run of k well cells scores 1 + ... + k, which is the sum over
//            its cells of their place in the run from its top: the sum over
//            j >= 0 of the well cells whose j cells above are well cells too
//            (after the pass, without a branch per row: wells are rare).
BoardCounts board_counts(const Row* rows, int top, int width, int height) {
    // rows[-1] is the floor, a full row: no branch for the lowest row.
    const Row full = Row((Row(1) << width) - 1), right_wall = Row(1) << (width - 1);
    const int last = width - 1;
    BoardCounts counts;
    counts.row_transitions = 2 * (height - top);
    // The change from the top row to the empty row above it; an empty well
    // has only the floor's change under its first row, one per column.
    counts.column_transitions = top == 0 ? width : top < height ? std::popcount(rows[top - 1]) : 0;
    // Going down, runs[y] = well[y] & well[y + 1] is known at once: the
    // well cells and the pairs are counted in the pass, and only deeper
    // runs (rarer) take further passes.
    std::array<Row, MostHeight + 1> well, runs;
    well[std::size_t(top)] = 0;
    Row covered = 0, deeper = 0;
    for (int y = top - 1; y >= 0; --y) {
        const Row row = rows[y], below = rows[y - 1];
        counts.holes += std::popcount(~row & covered & full);
        covered |= row;
        counts.row_transitions += transitions_along(row, full, last);
        counts.column_transitions += std::popcount(row ^ below);
        const Row cells = ~row & full & (row << 1 | 1) & (row >> 1 | right_wall);
        const Row pairs = cells & well[std::size_t(y + 1)];
        well[std::size_t(y)] = cells;
        runs[std::size_t(y)] = pairs;
        counts.wells += std::popcount(cells) + std::popcount(pairs);
        deeper |= pairs;
    }
    for (int j = 2; deeper; ++j) {  // runs[y]: well cells with j - 1 well cells above
        deeper = 0;
        for (int y = 0; y + j < top; ++y) {
            runs[std::size_t(y)] &= well[std::size_t(y + j)];
            counts.wells += std::popcount(runs[std::size_t(y)]);
            deeper |= runs[std::size_t(y)];
        }
    }
    return counts;
}

BoardCounts board_counts(const TetrisBoard& board) {
    std::array<Row, MostHeight + 1> rows;
    rows[0] = board.full_row();  // the floor
    std::copy(board.rows(), board.rows() + board.top(), rows.begin() + 1);
    return board_counts(rows.data() + 1, board.top(), board.width(), board.height());
}

// The stack's rows [0, top) are copied, the piece OR-ed in and the full rows
// taken out; the board itself is never copied whole.
DellacherieFeatures dellacherie_features(const TetrisBoard& board, const Shape& shape, int x, int row) {
    DellacherieFeatures features;
    std::array<Row, MostHeight + MostShapeRows + 1> buffer;
    const Row full = board.full_row();
    buffer[0] = full;  // the floor, rows[-1]
    Row* const rows = buffer.data() + 1;
    int top = std::max(board.top(), row + shape.height);
    for (int y = 0; y < top; ++y)
        rows[y] = board.row(y);
    int lines = 0, piece_cells = 0;
    for (int dy = 0; dy < shape.height; ++dy) {
        const Row filled = rows[row + dy] | shape.rows[std::size_t(dy)] << x;
        rows[row + dy] = filled;
        if (filled == full)
            ++lines, piece_cells += std::popcount(shape.rows[std::size_t(dy)]);
    }
    if (lines > 0) {
        top = remove_full_rows(rows, row, top, full);
        while (top > 0 && rows[top - 1] == 0)
            --top;
    }
    features.landing_height = row + (shape.height - 1) / 2.0;
    features.eroded_cells = lines * piece_cells;
    const BoardCounts counts = board_counts(rows, top, board.width(), board.height());
    features.row_transitions = counts.row_transitions;
    features.column_transitions = counts.column_transitions;
    features.holes = counts.holes;
    features.wells = counts.wells;
    return features;
}

// Transitions up a column: bit y of (c ^ (c << 1 | 1)) says whether row y
// differs from the row below (the floor filled), for the well's rows.
// Holes: the rows under the column's top cell, less its cells. Wells: the
// column's well cells m (empty, both neighbours filled), each run of k
// scoring 1 + ... + k = the sum over j of popcount(m & m >> 1 & ... >> j).
DellacherieBase::ColumnCounts DellacherieBase::column_counts(Column column, Column left, Column right) const {
    return {transitions(column), holes(column), wells(column, left, right)};
}

// The totals are the sums of the columns' counts, and the rows' transitions
// (the empty rows above the stack 2 each).
DellacherieBase::DellacherieBase(const TetrisBoard& board)
    : board_(board), rows_mask_(board.height() >= 64 ? ~Column(0) : (Column(1) << board.height()) - 1) {
    const Row full = board.full_row();
    const int last = board.width() - 1;
    counts_.row_transitions = 2 * (board.height() - board.top());
    for (int y = 0; y < board.top(); ++y) {
        const Row row = board.row(y);
        counts_.row_transitions += transitions_along(row, full, last);
        for (Row cells = row; cells; cells &= cells - 1)
            columns_[std::size_t(std::countr_zero(cells))] |= Column(1) << y;
    }
    for (int x = 0; x < board.width(); ++x) {
        ColumnCounts& counts = column_counts_[std::size_t(x)];
        counts = column_counts(column(x), column(x - 1), column(x + 1));
        counts_.column_transitions += counts.transitions;
        counts_.holes += counts.holes;
        counts_.wells += counts.wells;
    }
}

DellacherieFeatures DellacherieBase::features(const Shape& shape, int x, int row) const {
    const Row full = board_.full_row();
    const int last = board_.width() - 1;
    DellacherieFeatures features;
    features.row_transitions = counts_.row_transitions;
    for (int dy = 0; dy < shape.height; ++dy) {
        const Row before = board_.row(row + dy), after = before | shape.rows[std::size_t(dy)] << x;
        if (after == full)  // rows clear: the whole path
            return dellacherie_features(board_, shape, x, row);
        features.row_transitions += transitions_along(after, full, last) - transitions_along(before, full, last);
    }
    features.landing_height = row + (shape.height - 1) / 2.0;
    features.column_transitions = counts_.column_transitions;
    features.holes = counts_.holes;
    features.wells = counts_.wells;
    // The piece's columns [x, x + w), padded by a neighbour (or a wall) each side.
    std::array<Column, MostPieceColumns + 2> now;
    now[0] = column(x - 1);
    for (int k = 0; k < shape.width; ++k)
        now[std::size_t(k + 1)] = columns_[std::size_t(x + k)] | Column(shape.columns[std::size_t(k)]) << row;
    now[std::size_t(shape.width + 1)] = column(x + shape.width);
    for (int k = 0; k < shape.width; ++k) {
        const ColumnCounts& old = column_counts_[std::size_t(x + k)];
        const Column cells = now[std::size_t(k + 1)];
        features.column_transitions += transitions(cells) - old.transitions;
        features.holes += holes(cells) - old.holes;
        features.wells += wells(cells, now[std::size_t(k)], now[std::size_t(k + 2)]) - old.wells;
    }
    // The neighbours keep their cells; their well cells see the piece.
    if (x > 0)
        features.wells += wells(now[0], column(x - 2), now[1]) - column_counts_[std::size_t(x - 1)].wells;
    if (x + shape.width <= last)
        features.wells +=
            wells(now[std::size_t(shape.width + 1)], now[std::size_t(shape.width)], column(x + shape.width + 1))
            - column_counts_[std::size_t(x + shape.width)].wells;
    return features;
}

Seed001Features seed001_features(const TetrisBoard& board, bool count_full_rows) {
    Seed001Features features;
    for (int y = 0; y < board.top(); ++y) {
        const Row row = board.row(y);
        const bool full = row == board.full_row();
        features.full_rows += full;
        if ((!full || count_full_rows) && std::popcount(row) > features.longest_row)
            features.longest_row = std::popcount(row);
    }
    features.height = board.top();
    features.unreachable = board_counts(board).holes;
    return features;
}

}  // namespace stack::tetris
