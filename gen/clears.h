// The well game: tables that know tetrises (stackgen --clears tetris).
//
// The game. W field columns of height H stand beside an empty well column.
// Each piece, drawn independently by its weight, is placed hole-free in the
// field with every height at most H, as in the no-clear game; or, when it
// is the 1 x 4 I (Rules::tetris_piece) and every field column is 4 or more
// high, it goes upright into the well: a tetris, every height 4 lower.
// V(board) is the expected number of pieces placed, the I into the well
// included, before a piece has no move:
//   V(h) = sum_p w_p (1 + best_p(h)) / sum_p w_p,
//   best_I(h) = max(the field's best, V(h - 4)) when min(h) >= 4,
// the no-clear equation (value.h) with one more successor for the I.
//
// Solving it. A tetris lowers the row sum, so the rounds are no longer an
// order to compute in: V is a fixed point, found by sweeps. Sweep 0 is the
// no-clear table, a lower bound; sweep k computes every round from the top
// as a no-clear run does, the tetris successor read from sweep k-1's table
// (a lower row sum, not yet computed in this sweep). The map is monotone,
// so the values rise towards the fixed point, each sweep's largest change
// d_k shrinking about geometrically (ratio r = d_k / d_(k-1)); the distance
// of any value from the fixed point is then about d_k r / (1 - r), the
// bound printed, and the sweeps stop when it is within the tolerance.
//
// Each sweep is a whole run of the rounds (generate.cpp), written to
// <output>.sweep when done: the checkpoint between sweeps, which --resume
// continues from, and the table the next sweep reads its tetrises from. On
// a GPU (gpu_rounds.h's GpuSweeps) the last sweep stays on the device, and
// a sweep is written only now and then (--sweep-seconds), when it is the
// answer, or when the run stops.
// Every value is computed from the same inputs by the same arithmetic
// whatever the ranks and threads, so the tables are the same bits.
#pragma once

#include "band.h"
#include "partition.h"
#include "table/stack_table.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// One sweep, as the summary reports it.
struct SweepRecord {
    std::int64_t sweep = 0;
    double change = 0;  // the largest change of a value (sweep 0: none, 0)
    double ratio = 0;   // change over the sweep before's (0: none)
    double bound = 0;   // on any value's distance from the fixed point
    double empty_board_value = 0;
    double seconds = 0;
};

// The previous sweep's table, where the next sweep reads its tetrises.
std::string sweep_name(const std::string& output);  // "<output>.sweep"

// Fills `floor`'s values with the tetris successor's
// value of each of this rank's states of the store's round, read from the
// previous sweep's `previous` table, or -1 where there is no tetris (a
// column below 4). On `threads` threads.
// `floor` is a float64 round store laid out for the round (its values are
// the floor). Returns false, touching nothing, for a round too low for
// any tetris (its row sum below 4 (W - 1)): the kernel then takes no floor.
bool tetris_floor(const Partition& partition, const RoundLayout& layout, RoundStore& floor, const StackTable& previous,
                  int threads);

// Round `store.sum` of `table` into the float64 store laid out for it
// (this rank's rows): the last sweep's round the portable slice work reads
// its tetrises from (RoundView::tetris), and the rounds a GPU run resumed
// from a sweep table uploads (GpuSweeps). On `threads` threads.
void read_round(const Partition& partition, const RoundLayout& layout, RoundStore& store, const StackTable& table,
                int threads);

// The largest |value - previous value| over this rank's states of the
// store's round (a float64 band).
double round_change(const Partition& partition, const RoundLayout& layout, const RoundStore& store,
                    const StackTable& previous, int threads);

// The sweeps' progress: the bound on every value's distance from the fixed
// point after a sweep whose largest change is `change`, the sweep before's
// `previous` (0: no sweep before, so no ratio: infinity).
double sweep_bound(double change, double previous);

}  // namespace stack
