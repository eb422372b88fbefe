// Scoring as the seeds meant (seeds 002 and 003): a W+1 board whose one
// column, the well, stays empty while the other W columns are stacked
// without a hole, until an I piece drops into the well and clears four rows
// at once (a tetris: 1200 x (level + 1) Game Boy points against 40 x
// (level + 1) for a single, 7.5 times more a row).
//
// Two ways to judge such a stack, both read by the search (search.h):
//
//   well          the exact table (a W-wide StackTable, heights from the
//                 floor) judges the contour: a board is clean when the well
//                 column is empty and no column beside it has a hole; its
//                 value is the table's value of the W heights from the
//                 floor (with --banked, less the banked rows: below). A
//                 tetris is counted first
//                 (TetrisBonus, more than any table value), then the value.
//   well-builder  a linear score of the board after the placement (the
//                 heuristic, for boards no table covers, and the
//                 comparison): WellFeatures below, weights tuned by
//                 scripts/well-tuning (the cross-entropy method).
//
// A contour higher than the table's H leaves the table; so does one the
// table does not hold (another residue class). A game from the empty well
// keeps its height sum a multiple of 4 while it clears only tetrises (each
// piece adds 4 cells, a tetris takes 4 W), so a class-0 table holds its
// boards until the first clear of 1 to 3 rows; after that (W = 9: 9 cells
// a row) the class moves with the rows cleared, until the fallback's
// clears bring it back (it is paid to: search.h, PolicyConfig::repair).
//
// Banked rows (--banked, not the default): once every column beside the
// well is at least 4 high, the lowest four rows wait only for an I in the
// well, so the contour judged may be the stack above them: the heights
// less 4 x floor(min height / 4). The stack may then rise past the
// table's H while it waits (results/score.md measures both).
#pragma once

#include "tetris/tetris_board.h"

#include <array>
#include <cstdint>
#include <optional>

namespace stack {
class StackTable;
}  // namespace stack

namespace stack::tetris {

enum class WellSide : std::uint8_t { Left, Right };

// The well's column on a board `width` wide.
inline int well_column(WellSide side, int width) { return side == WellSide::Left ? 0 : width - 1; }

// Every clean line's tetris counts this much before the table's value (a
// table's values are at most W x H / 4 pieces: 16 x 64 / 4 = 256).
constexpr double TetrisBonus = 1000;
// A line that leaves the board unclean, or its contour outside the table:
// far below any clean line, far above Lost (search.h).
constexpr double NotClean = -1e11;
inline bool is_clean_score(double score) { return score > NotClean / 2; }

// A placement that cleared 1 to 3 rows: a J, L or T down the well can
// clear three and leave the board clean, but the well is for tetrises
// (the well policy plays only clean placements that clear none or four).
inline bool short_clear(const Landing& landing) { return landing.lines > 0 && landing.lines < 4; }

// A placement that fills the well for less than a tetris: a cell of it in
// the well column, and fewer than 4 rows cleared (a J, L or T down the
// well clearing 3, an I clearing 1 to 3 with its rest left in the well).
inline bool short_fill(const Shape& shape, int x, const Landing& landing, int well) {
    return x <= well && well < x + shape.width && shape.columns[std::size_t(well - x)] != 0 && landing.lines < 4;
}

// Why the well policy handed a turn to its fallback (a loss of control,
// counted by stackplay's games: GameRecord). The first three are the
// current piece's (with hold, either piece's): the turn began on a board
// the table judges, and
//   ForcedHole   every placement leaves a hole, or fills the well for less
//                than a tetris;
//   PastCeiling  some placement leaves the board clean, but every clean one
//                leaves a contour higher than the table's H;
//   Class        some clean placement stays within H, but the table does
//                not hold its contour (another residue class).
//   FallbackOwn  the turn began on a board the table cannot judge (a hole,
//                a filled well, a contour past the ceiling or of another
//                class): the fallback's own earlier turns left it so (the
//                well policy only ever leaves boards the table judges).
enum class LossCause : std::uint8_t { ForcedHole, PastCeiling, Class, FallbackOwn };
constexpr int LossCauseCount = 4;
// "forced_hole", "past_ceiling", "class", "fallback_own" (the JSON's keys).
const char* loss_cause_key(LossCause cause);

// What keeps the table from judging a board on the fallback's own turns:
// Clean (clean, but its contour past the ceiling or of another class), a
// hole, the well column filled, or both.
enum class Unjudged : std::uint8_t { Clean, Hole, FilledWell, HoleAndFilledWell };
constexpr int UnjudgedCount = 4;
Unjudged unjudged_state(const TetrisBoard& board, int well);
// "clean", "hole", "filled_well", "hole_and_filled_well" (the JSON's keys).
const char* unjudged_key(Unjudged state);

// The well column empty, and no hole anywhere (every column's cells lie
// below its height, so the board has no hole when the cells are the sum of
// the heights).
bool is_clean(const TetrisBoard& board, int well);

// The board a placement left is one the well policy plays on: clean, and
// not by a short clear (a fill of the well for less than a tetris never
// is: it leaves cells in the well, or clears 1 to 3 rows).
inline bool keeps_clean(const TetrisBoard& next, const Landing& landing, int well) {
    return is_clean(next, well) && !short_clear(landing);
}

// The rows below every column beside the well, in whole tetrises: 4 x
// floor(min height / 4).
int banked_rows(const TetrisBoard& board, int well);

// The exact table as a judge of a well's stacks.
class WellJudge {
public:
    // Throws InputError when the table is not of the tetrominoes.
    // `banked`: judge the contour above the banked rows (above).
    explicit WellJudge(const StackTable& table, bool banked = false);
    const StackTable& table() const { return table_; }
    int width() const;   // the table's W: the board is W + 1 wide
    int height() const;  // the table's H
    // The table's value of the board's contour (above its banked rows
    // when banked); or nothing when the board is not clean, the contour leaves the table or
    // the table does not hold it. The board must be width() + 1 wide.
    std::optional<double> value(const TetrisBoard& board, int well) const;

private:
    const StackTable& table_;
    bool banked_;
};

// The heuristic well-builder's features of a placement, in the order of
// its weights: Dellacherie's six (features.h: landing height, eroded
// cells, row transitions, column transitions, holes, wells, on the board
// after the placement and its clears), then the well's two:
//   readiness  the well's open depth (the lowest column beside it less the
//              well column's height), at most 4: 4 when a tetris is ready
//   tetris     1 when the placement cleared 4 rows (or more)
constexpr int WellFeatureCount = 8;
using WellFeatures = std::array<double, WellFeatureCount>;
WellFeatures well_features(const TetrisBoard& before, const Shape& shape, int x, int row, int well);

// The builder's own weights (scripts/well-tuning's result; docs/score.md).
extern const std::array<double, WellFeatureCount> WellBuilderWeights;

}  // namespace stack::tetris
