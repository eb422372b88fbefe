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
// d_k shrinking about geometrically (ratio r = d_k / d_(k-1)).
//
// What a sweep reads of the last one. Its tetrises land on the boards
// whose every column is at most H - 4 high (the targets: 1.7% of 9x10's
// boards, 3.6% of 9x12's), and nothing else of the last sweep is read: the
// sweeps are a fixed-point iteration on the targets' values alone. The CPU
// kernel keeps those values on every rank (TetrisTargets, in the layout of
// the W x (H-4) well) instead of the last sweep's whole table.
//
// The proven bound (rules/bracket.h). A sweep computes every board by the
// Bellman step from this sweep's values, except that its tetrises read the
// targets' values X the sweep began with. One Bellman step T of the table
// L the sweep made therefore moves a board only through the I's tetris:
//   |T(L) - L| <= w_I / w (the I's share of the draws) x the change of the
//   tetris successor's value, L - X, at the targets,
// the change measured one way and the other (change_up, change_down). That,
// with the rounding, is the bracket's residual on each side, and the
// sweeps stop when its bound is within the tolerance: a proof, whatever
// the iterate, not an estimate from the ratio.
//
// Fewer sweeps. Once the change shrinks at a steady ratio r, the error is
// mostly one direction, the last change's, and the fixed point lies about
// r / (1 - r) changes further on (Aitken's extrapolation). A sweep then
// stores Y + r / (1 - r) (Y - X) as the targets' next values instead of
// its own Y (a jump); the sweeps after it go on plainly until the ratio is
// steady again. A jump that overshoots only shows as a larger change (and
// a change down) in the next sweep; the bound stays a proof, since it
// holds for any X.
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
#include "rules/bracket.h"
#include "support/communicator.h"
#include "table/stack_table.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// One sweep, as the summary reports it.
struct SweepRecord {
    std::int64_t sweep = 0;
    double change = 0;  // the largest change at the targets (sweep 0: none, 0)
    double ratio = 0;   // change over the sweep before's (0: none)
    double bound = 0;   // proven: on any value's distance from the fixed point
    double jump = 0;    // the extrapolation factor this sweep stored its targets with (0: none)
    double largest = 0;  // the largest value
    double empty_board_value = 0;
    double empty_low = 0, empty_high = 0;  // its proven bracket (NaN: class 0 not held)
    double seconds = 0;
};

// The targets' values (see the top of the file), on every rank. Each
// rank's rows of a target round are stored by take_round() as the sweep
// computes the round, after every round that reads them (the tetrises
// from 4(W-1) rows higher) is done, and several ranks then share them.
class TetrisTargets {
public:
    explicit TetrisTargets(const RoundLayout& layout);
    // Whether any board has a tetris (H >= 4).
    bool any() const { return any_; }
    std::uint64_t values() const { return values_.size(); }
    // The value a tetris from a board of round `sum` reads: `lower` its
    // columns 1..W-1 four lower, `top` its column W-1 as the big layout has it.
    std::uint64_t row_position(const Heights& lower, int below, int lower_top) const {
        return small_.row_position(below, small_.row_rank(lower, below), small_.mirrored() ? lower_top : 0);
    }
    const int* row_indices(int below) const { return small_.row_indices(below); }
    double at(std::uint64_t position) const { return values_[position]; }
    // Round `store.sum`'s targets (this rank's rows of it), just computed:
    // stored as next = Y + jump (Y - X), and, when `measure`, their change
    // against the X they replace returned. Collective over `comm`.
    TargetChange take_round(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                            const RoundStore& store, int threads, bool measure, double jump);
    // Resuming: the targets' values from a sweep's table.
    void read_table(const RoundLayout& layout, const StackTable& table, int threads);
    // Round `store.sum` (a target round, one rank's) laid out as the
    // table's, from the targets' values: the round the portable slice work
    // reads its tetrises from (RoundView::tetris). Its other boards, which
    // no tetris reaches, hold -1.
    void fill_round(const Partition& partition, const RoundLayout& layout, RoundStore& store, int threads) const;

private:
    bool any_ = false;
    int target_height_ = 0;  // H - 4: a target's columns are at most this high
    RoundLayout small_;      // the W x max(H - 4, 1) well's layout, the classes and mirroring of the table's
    std::vector<double> values_;
};

// This rank's targets in the store's round, as runs of its values: each
// target row's first `count` values (the h0 <= H - 4 it stores), as
// (first value, count) pairs. The GPU measures its change over these.
std::vector<std::uint64_t> target_runs(const Partition& partition, const RoundLayout& layout, const RoundStore& store,
                                       int threads);

// The bytes TetrisTargets holds for a table of this layout.
double tetris_targets_bytes(const RoundLayout& layout);

// The largest value of this rank's states of the store's round.
double round_largest(const Partition& partition, const RoundLayout& layout, const RoundStore& store, int threads);

// The proven bracket of a sweep's table (see the top of the file): the
// I's share of the draws times the change each way, with the rounding of
// the step and its check (rules/bracket.h), at values up to `largest`.
Bracket sweep_bracket(const Rules& rules, const TargetChange& change, double largest);

// When the targets jump (see the top of the file): the factor the next
// sweep stores its targets with, from the sweeps so far (0: a plain
// sweep): r / (1 - r) once the last two ratios agree within 5%, r < 0.99,
// and three plain sweeps have passed since the last jump (so that both
// ratios compare plain sweeps' changes).
double next_jump(const std::vector<SweepRecord>& records);

// The previous sweep's table, where the next sweep reads its tetrises.
std::string sweep_name(const std::string& output);  // "<output>.sweep"

// Fills `floor`'s values with the tetris successor's
// value of each of this rank's states of the store's round, read from the
// targets' values, or -1 where there is no tetris (a
// column below 4). On `threads` threads.
// `floor` is a float64 round store laid out for the round (its values are
// the floor). Returns false, touching nothing, for a round too low for
// any tetris (its row sum below 4 (W - 1)): the kernel then takes no floor.
bool tetris_floor(const Partition& partition, const RoundLayout& layout, RoundStore& floor,
                  const TetrisTargets& targets, int threads);

// Round `store.sum` of `table` into the float64 store laid out for it
// (this rank's rows): the last sweep's round the portable slice work reads
// its tetrises from (RoundView::tetris), and the rounds a GPU run resumed
// from a sweep table uploads (GpuSweeps). On `threads` threads.
void read_round(const Partition& partition, const RoundLayout& layout, RoundStore& store, const StackTable& table,
                int threads);

}  // namespace stack
