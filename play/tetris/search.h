// The real-game policies: a linear score over named features
// (features.h), maximised over the placements of the current piece, with
// the next pieces known (a preview) or averaged over (expectimax).
//
//   lee          seeds 000 and 002: Lee's score of aggregate height,
//                complete lines, holes and bumpiness (objectives.h, the
//                weights as seed 002 prints them)
//   dellacherie  -landing height + eroded cells - row transitions
//                - column transitions - 4 holes - wells
//   el-tetris    the same six features with El-Tetris's tuned weights
//                (-4.500158825082766, 3.4181268101392694,
//                -3.2178882868487753, -9.348695305445199,
//                -7.899265427351652, -3.3855972247263626)
//   seed001      seed 001's objective (objectives.h), over the current
//                and the next block placed together (no row clears between
//                them)
//   expectimax   Lee's score; each of the next `depth` pieces, unknown, is
//                averaged over the set's draw weights (its best placement
//                for each piece), instead of assumed
//   seed000-printed  Lee's score over seed 000's search as its code is
//                printed: nextTick drops the head of a list that is already
//                the tail, so of a window of 4 (--preview 3, the default
//                here) it places the 1st and the 3rd piece only
//   seed001-printed  seed001 with its longest row as the MiniZinc model
//                prints it: the most filled cells of any row, full rows
//                included (seed001 skips them: features.h)
//   well         the exact table judges a stack beside an empty well
//                column (well.h): a line's tetrises first, then the
//                table's value of the contour it leaves; a line that
//                leaves the board unclean, or clears 1 to 3 rows (a J, L
//                or T down the well can, and leave it clean), scores
//                NotClean. When no line of
//                the preview stays clean, the current piece alone is
//                searched; when it has no clean placement either (or none
//                whose contour the table holds), or the board is not
//                clean, the fallback policy (PolicyConfig::fallback) plays
//                the turn. The fallback never fills the well for less
//                than a tetris where the table judges waiting better:
//                when a placement keeps the well empty and leaves a board
//                the table values (past its ceiling, by the banked
//                contour) above the fill's (0 when it cannot judge that),
//                the fallback's best such placement plays instead.
//   well-builder the heuristic well-builder (well.h): a linear score of
//                the board after each placement; every placement of a
//                line adds its clears (short clears, tetris)
//
// Weights (--weights, PolicyConfig::weights): any policy's own may be
// replaced, in the order and form the seeds print them: Lee's four
// magnitudes (aggregate height, complete lines, holes, bumpiness; lee,
// expectimax, seed000-printed), the six signed coefficients of landing
// height, eroded cells, row transitions, column transitions, holes and wells
// (dellacherie, el-tetris), or seed 001's four priorities (full rows,
// height, longest row, unreachable; seed001, seed001-printed).
//
// The preview: with N next pieces known, every known piece is placed in
// turn over all its placements (rows cleared between them, except for
// seed001), and a first placement scores the best leaf below it; the leaf
// is scored on the last placement (Lee's and seed 001's features on the
// board before that piece's rows clear, Dellacherie's after). A branch in
// which a later piece has no placement scores Lost. Ties go to the first
// placement in the order the placements are generated (rotations in the
// set's order, columns left to right), so a search gives the same answer
// on any number of threads.
//
// Hold (PolicyConfig::hold): each turn may first swap the current piece
// with the held one and place that instead; with the hold empty, the
// current piece goes into the hold and the next known piece is placed. The
// search branches on both at every known piece: a turn's choices are the
// current piece's placements, then the other piece's (TetrisChoice::hold).
// A branch that fills an empty hold uses two known pieces for one
// placement, so it places one piece fewer before its leaf; the hold's own
// piece is never placed past the known ones. Ties go to not holding.
#pragma once

#include "srs/moves.h"
#include "tetris/tetris_board.h"
#include "tetris/features.h"
#include "tetris/well.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace stack::tetris {

enum class Evaluation : std::uint8_t { Lee, Dellacherie, ElTetris, Seed001, Well, WellBuilder };
// HardDrop: every rotation at every column, dropped from above the well;
// BreadthFirst: every placement SRS reaches from the spawn (srs/moves.h);
// SrsHardDrop: SRS's hard drop from the spawn (turn there, slide, drop),
// which the bot's --moves harddrop plays, so that every move it suggests
// is reachable.
enum class MoveSet : std::uint8_t { HardDrop, BreadthFirst, SrsHardDrop };

struct PolicyConfig {
    Evaluation evaluation = Evaluation::Dellacherie;
    int preview = 0;           // next pieces known and searched
    int expectimax_depth = 0;  // next pieces after those averaged over (0: none)
    MoveSet moves = MoveSet::HardDrop;
    bool printed_seed000 = false;  // search known[0], known[2], ... only (seed000-printed)
    bool hold = false;             // a turn may hold first (above)
    // Where a placement may go: SRS moves spawn at this row (moves.h's
    // MoveOptions::spawn_row; -1: the well's top), and with visible_rows > 0
    // a placement needs a cell below that row (seed 000's buffer rows above
    // the well: the board is taller than the rows that count).
    int spawn_row = -1;
    int visible_rows = 0;
    bool printed_longest_row = false;  // seed 001's longest row counts full rows (seed001-printed)
    // The feature weights (above); weight_count 0: the policy's own.
    std::array<double, 8> weights{};
    int weight_count = 0;
    // The well policies (well.h): the well's side, and the policy that
    // plays for `well` when its table cannot judge the board.
    WellSide well_side = WellSide::Left;
    Evaluation fallback = Evaluation::ElTetris;
    // The fallback's own rule: a line that leaves a board the table judges
    // (clean, within the table, of a class it holds: well.h) scores
    // RepairBonus more, once for each such board, so that the fallback
    // hands the board back to the table as soon as it can. The fallback
    // gets the well policy's table for it.
    bool repair = false;
    bool banked = false;  // the well policy judges the contour above the banked rows (well.h)
    // With banked: a line whose board rises above this many rows is not
    // clean (0: no such ceiling). The well policy's past-ceiling tier
    // (TetrisPolicy::choose) sets it to the table's H + 4.
    int banked_ceiling = 0;
    // The well policy: when every clean line rises past the table's H, the
    // table judges the contour above the banked rows up to H + 4 before the
    // fallback plays (TetrisPolicy::choose).
    bool past_ceiling_banked = true;
};
// "lee", "dellacherie", "el-tetris", "seed001", "seed000-printed",
// "seed001-printed", "expectimax" (Lee's score, depth 1 unless `depth`
// says), "well" or "well-builder"; throws InputError.
PolicyConfig parse_tetris_policy(const std::string& name, int preview, int depth);
// The policy's name, its preview and depth, and its weights when given.
std::string policy_name(const PolicyConfig& config);
// Sets the policy's weights (above); none keeps its own. Throws InputError
// naming the policy and the count it takes when there are not that many.
void set_policy_weights(PolicyConfig& config, std::span<const double> weights);
// The weights the policy scores with: those given, else its own.
std::vector<double> policy_weights(const PolicyConfig& config);

// A shape (ShapeSet index) with its leftmost column and lowest row.
// Trivially constructible: the search keeps arrays of them on the stack.
struct TetrisPlacement {
    std::int16_t shape;
    std::int8_t x, row;
    bool operator==(const TetrisPlacement&) const = default;
};

// The pieces a turn knows: queue[0] is the current piece, then the next
// ones in order; `hold` is the held piece, -1 when the hold is empty (or
// holding is not played).
struct Known {
    std::span<const int> queue;
    int hold = -1;
};

// One turn's choice: hold first or not, then the placement; with its score
// when the search made it. Trivially constructible, as TetrisPlacement: the
// search keeps an array of them on the stack, and initialising it would
// cost more than scoring a move (TetrisChoice{} is all zero).
struct TetrisChoice {
    TetrisPlacement placement;
    bool hold;
    double score;
    bool fallback;  // the well policy's fallback chose it
    bool banked;    // the well policy chose it past the table's ceiling, judging the banked contour
};
static_assert(std::is_trivially_default_constructible_v<TetrisChoice>);

// The piece a turn places: the current one, or when it holds, the held
// piece (or with the hold empty, the next one). -1 when that is not known.
int placed_piece(const Known& known, bool hold);
// What is known after the turn: the queue without the pieces it used, and
// the hold after it.
Known after_turn(const Known& known, bool hold);
// Whether a turn may hold: the hold is in play, and the held piece differs
// from the current one (a swap of equal pieces changes nothing), or the
// hold is empty and the next piece is known.
bool may_hold(const Known& known, bool hold_in_play);

// The leaves one move's search scores, projected as P^n x K^d (x 2^n with
// hold, its two choices a piece): P the placements of a piece (each
// rotation at each column of an open well, as hard drops find them,
// averaged over the set's pieces; with SRS moves at least 4 x width, and at
// least `least_placements`, which a caller that knows the board gives), n
// the pieces the search places (those known, `known`, within the preview;
// seed 000's printed rule places every other one; plus the expectimax
// levels), K the set's pieces and d the expectimax levels. The command
// line's --yes guard and the web's decision bound both use it.
double projected_leaves(const ShapeSet& shapes, int width, int height, const PolicyConfig& config, std::size_t known,
                        double least_placements = 0);

// The most placements one piece can have on one board.
constexpr int MostPlacements = 4 * MostWidth * MostHeight;  // SRS: 4 rotations at any (x, y)

constexpr double Lost = -1e12;

constexpr int MostPreview = 8;  // next pieces a search may know

// The board as SRS move generation (srs/moves.h) reads it: a well 4 to 16
// wide.
moves::SrsBoard srs_board(const TetrisBoard& board);

// Every placement SRS reaches for a tetromino `piece` on `board`
// (moves::generate, breadth first or with SrsHardDrop hard drop only, from
// a spawn at `spawn_row`), as found.
// Each thread remembers its last search of each piece, so asking again for
// the board a search just saw costs a comparison.
const std::vector<moves::SrsPlacement>& srs_placements(const TetrisBoard& board, int piece, int spawn_row,
                                                       MoveSet moves = MoveSet::BreadthFirst);

// The placement of `piece` whose cells these are (a tetromino's, SRS
// cells), or nothing when no rotation of the piece has them or they leave
// the board.
std::optional<TetrisPlacement> placement_of_cells(const ShapeSet& shapes, const TetrisBoard& board, int piece,
                                                  const moves::Cells& cells);

// Every placement of `piece` on `board` that lies wholly inside the well:
// hard drops of each rotation at each column, or (tetrominoes only) every
// one SRS reaches (srs/moves.h) from a spawn at `spawn_row`, breadth first
// or by hard drop (MoveSet); with visible_rows > 0, only those with a cell
// below that row.
// Returns the count written to `out`.
int generate_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece, MoveSet moves,
                        std::span<TetrisPlacement, MostPlacements> out, int spawn_row = -1, int visible_rows = 0);

// The fallback of --policy well by name: "well-builder", "dellacherie",
// "el-tetris" or "lee"; throws InputError.
Evaluation parse_fallback(const std::string& name);
const char* fallback_name(Evaluation fallback);

constexpr double RepairBonus = 1e4;

class TetrisPolicy {
public:
    // `table`: the well policy's (it must outlive the policy); the others
    // take none. Throws InputError when the well policy has none.
    TetrisPolicy(const ShapeSet& shapes, PolicyConfig config, std::vector<double> draw_weights,
                 const StackTable* table = nullptr);
    const PolicyConfig& config() const { return config_; }
    const ShapeSet& shapes() const { return shapes_; }
    // The well policy's judge (null for the others).
    const WellJudge* judge() const { return judge_ && config_.evaluation == Evaluation::Well ? &*judge_ : nullptr; }
    // The table's value of a board under the well policy (WellJudge::value),
    // nothing when it cannot judge it or the policy is not `well`.
    std::optional<double> table_value(const TetrisBoard& board) const;
    // The score of one first choice (at most config().preview next pieces
    // of the queue are used). `base`, when given, is DellacherieBase(board),
    // shared by the first placements when they are the leaves.
    double score(const TetrisBoard& board, const Known& known, const TetrisChoice& first,
                 const DellacherieBase* base = nullptr) const;
    double score(const TetrisBoard& board, std::span<const int> queue, const TetrisPlacement& first) const {
        return score(board, Known{queue}, TetrisChoice{first, false, 0, false, false});
    }
    // The best choice, or nothing when no placement fits. `threads` > 1
    // scores the first choices in parallel. Adds the leaves scored to
    // `leaves`, and every first choice with its score to `scored`, in the
    // search's order.
    // The well policy's choice is marked `fallback` when its fallback made
    // it.
    std::optional<TetrisChoice> choose(const TetrisBoard& board, const Known& known, int threads = 1,
                                       std::uint64_t* leaves = nullptr,
                                       std::vector<TetrisChoice>* scored = nullptr) const;
    std::optional<TetrisPlacement> choose(const TetrisBoard& board, std::span<const int> queue) const {
        const std::optional<TetrisChoice> choice = choose(board, Known{queue});
        return choice ? std::optional<TetrisPlacement>(choice->placement) : std::nullopt;
    }
    // The well's column on this board (the well policies').
    int well_column(const TetrisBoard& board) const { return tetris::well_column(config_.well_side, board.width()); }
    // Why the well policy hands this turn to its fallback (LossCause,
    // well.h): from the board and the placements of the piece the turn
    // may place (with hold, of either). Meaningful on the turns its
    // fallback plays.
    LossCause loss_cause(const TetrisBoard& board, const Known& known) const;
    // The placements of a piece on a board under this policy's rules.
    int placements(const TetrisBoard& board, int piece, std::span<TetrisPlacement, MostPlacements> out) const;

private:
    std::optional<TetrisChoice> search(const TetrisBoard& board, const Known& known, int threads, std::uint64_t* leaves,
                                       std::vector<TetrisChoice>* scored) const;
    // `turns`: the placements of known pieces a line still makes (see
    // score): every line places as many, hold or not.
    // `carried`: what the line's earlier placements add to its leaf (see
    // order_terms).
    double best(const TetrisBoard& board, const Known& known, int unknown, int turns, double carried) const;
    double after(const TetrisBoard& board, const TetrisPlacement& placement, const Known& rest, int unknown, int turns,
                 double carried, const DellacherieBase* base) const;
    double order_terms(const Shape& shape, int row, const Landing& landing) const;
    double leaf(const TetrisBoard& board, const TetrisPlacement& placement, const DellacherieBase* base) const;
    double own_leaf(const TetrisBoard& board, const TetrisPlacement& placement, const DellacherieBase* base) const;
    // The table's value of a board as a place to wait for an I: its own
    // judge's, else (a contour past the ceiling) the banked contour's.
    std::optional<double> waiting_value(const TetrisBoard& board) const;
    TetrisChoice keep_well(const TetrisBoard& board, std::span<const TetrisChoice> choices,
                           const TetrisChoice& chosen) const;
    Known window(const Known& known) const;                     // the queue cut to the preview
    bool leaves_follow(const Known& known, int unknown) const;  // the first placements are leaves
    const ShapeSet& shapes_;
    PolicyConfig config_;
    std::vector<double> draw_weights_;  // [piece] -> probability
    // The weights of the last placement's own features (landing height,
    // eroded cells) that every placement of a line adds when hold is in
    // play (order_terms); zero otherwise.
    double landing_weight_ = 0, eroded_weight_ = 0;
    // The well policy's: the table's judge, the same policy searching the
    // current piece alone, and the fallback.
    std::optional<WellJudge> judge_, banked_judge_;
    std::shared_ptr<const TetrisPolicy> alone_, fallback_;
    std::shared_ptr<const TetrisPolicy> past_ceiling_;  // the banked tier (choose), with its own alone_
    // The rows the past-ceiling tier may rise above the table's H: one
    // tetris's, which its banked rows wait for.
    static constexpr int PastCeilingRows = 4;
    bool above_ceiling(const TetrisBoard& board) const {
        return config_.banked_ceiling > 0 && board.top() > config_.banked_ceiling;
    }
};

}  // namespace stack::tetris
