// The features the real-game policies score a placement by, each a count on
// the board (tetris/tetris_board.h), computed with row masks and popcounts.
//
// Lee (seeds 000 and 002; Yiyuan Lee's "Tetris AI: the (near) perfect
// bot"), on the board after the piece landed and before its full rows are
// cleared, as both seeds' code scores it:
//   aggregate height   the sum of the column heights
//   complete lines     the full rows
//   holes              empty cells with a filled cell somewhere above them
//   bumpiness          the sum of |h[x+1] - h[x]|
//
// Dellacherie (and El-Tetris, the same six with other weights), after the
// full rows are cleared:
//   landing height     the piece's lowest row plus (its rows - 1) / 2,
//                      rows counted from 0 at the floor (El-Tetris's)
//   eroded cells       rows cleared x the piece's own cells in them
//   row transitions    filled/empty changes along every row of the well,
//                      the walls filled (an empty row has 2)
//   column transitions the same up every column, the floor filled; the
//                      change from a column's top cell to the empty cell
//                      above it counts, the top of the well does not
//   holes              as above
//   wells              each run of k vertically consecutive well cells (an
//                      empty cell whose left and right are filled or walls)
//                      scores 1 + 2 + ... + k (Dellacherie's cumulative wells)
//
// Seed 001 (rectangle-blocks-cp.txt, its MiniZinc model), after both of its
// blocks are placed and before any row is cleared:
//   full rows          the full rows
//   longest row        the most filled cells of a row that is not full
//                      ("the length of the longest non-filled row"); its
//                      code as printed counts the full rows too (any row's
//                      count: seed001-printed, `count_full_rows`)
//   height             the highest column
//   unreachable        empty cells under a filled cell of their column (its
//                      holes)
#pragma once

#include "tetris/tetris_board.h"

#include <array>
#include <bit>
#include <cstdint>

namespace stack::tetris {

struct LeeFeatures {
    int aggregate_height = 0, complete_lines = 0, holes = 0, bumpiness = 0;
};
struct DellacherieFeatures {
    double landing_height = 0;
    int eroded_cells = 0, row_transitions = 0, column_transitions = 0, holes = 0, wells = 0;
};
struct Seed001Features {
    int full_rows = 0, longest_row = 0, height = 0, unreachable = 0;
};

// Lee's features of `board` with `shape` put at column x, row `row` (it
// must fit there), without building that board.
LeeFeatures lee_features(const TetrisBoard& board, const Shape& shape, int x, int row);
// The same for a board as it stands.
LeeFeatures lee_features(const TetrisBoard& board);
// Dellacherie's features of `board` with `shape` put at column x, row
// `row` and the full rows cleared, on a copy of the stack's rows only.
DellacherieFeatures dellacherie_features(const TetrisBoard& board, const Shape& shape, int x, int row);

Seed001Features seed001_features(const TetrisBoard& board, bool count_full_rows = false);

// The counts on `rows` [0, top) of a well `width` x `height` (rows from top
// up are empty; rows[-1] must be readable and full: the floor), or on a
// board.
struct BoardCounts {
    int holes = 0, row_transitions = 0, column_transitions = 0, wells = 0;
};
BoardCounts board_counts(const Row* rows, int top, int width, int height);
BoardCounts board_counts(const TetrisBoard& board);

// What Dellacherie's features of every placement on one board share: the
// board's counts and its columns as bit masks (bit y: row y filled). A
// placement that clears no row changes only its own rows' row transitions
// and its own columns' (and, for wells, their neighbours') other counts, so
// it is scored from those alone; one that clears rows takes the whole path
// above. Built once per board, read by every placement on it.
class DellacherieBase {
public:
    explicit DellacherieBase(const TetrisBoard& board);
    DellacherieFeatures features(const Shape& shape, int x, int row) const;

private:
    using Column = std::uint64_t;
    // A column's own counts, from its mask and its neighbours' (walls all
    // filled): column transitions, holes, cumulative wells.
    struct ColumnCounts {
        int transitions, holes, wells;
    };
    // Transitions up a column: bit y of (c ^ (c << 1 | 1)) says whether row
    // y differs from the row below (the floor filled), over the well's rows.
    int transitions(Column column) const { return std::popcount((column ^ (column << 1 | 1)) & rows_mask_); }
    // Holes: the rows under the column's top cell, less its cells.
    static int holes(Column column) { return (column ? 64 - std::countl_zero(column) : 0) - std::popcount(column); }
    // Wells: the column's well cells m (empty, both neighbours filled), each
    // run of k scoring 1 + ... + k = the sum over j of popcount(m & m >> 1
    // & ... & m >> j).
    int wells(Column column, Column left, Column right) const {
        int count = 0;
        for (Column run = ~column & left & right & rows_mask_; run; run &= run >> 1)
            count += std::popcount(run);
        return count;
    }
    ColumnCounts column_counts(Column column, Column left, Column right) const;
    Column column(int x) const { return x < 0 || x >= board_.width() ? ~Column(0) : columns_[std::size_t(x)]; }
    const TetrisBoard& board_;
    BoardCounts counts_;  // the board's own
    Column rows_mask_;    // the well's H rows
    std::array<Column, MostWidth> columns_{};
    std::array<ColumnCounts, MostWidth> column_counts_{};
};

}  // namespace stack::tetris
