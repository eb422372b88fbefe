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
#pragma once

#include "srs/moves.h"
#include "tetris/board.h"
#include "tetris/features.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace stack::tetris {

enum class Evaluation : std::uint8_t { Lee, Dellacherie, ElTetris, Seed001 };
enum class MoveSet : std::uint8_t { HardDrop, BreadthFirst };

struct PolicyConfig {
    Evaluation evaluation = Evaluation::Dellacherie;
    int preview = 0;           // next pieces known and searched
    int expectimax_depth = 0;  // next pieces after those averaged over (0: none)
    MoveSet moves = MoveSet::HardDrop;
    bool printed_seed000 = false;  // search known[0], known[2], ... only (seed000-printed)
};
// "lee", "dellacherie", "el-tetris", "seed001", "seed000-printed" or
// "expectimax" (Lee's score, depth 1 unless `depth` says); throws InputError.
PolicyConfig parse_tetris_policy(const std::string& name, int preview, int depth);
std::string policy_name(const PolicyConfig& config);

// A shape (ShapeSet index) with its leftmost column and lowest row.
// Trivially constructible: the search keeps arrays of them on the stack.
struct TetrisPlacement {
    std::int16_t shape;
    std::int8_t x, row;
    bool operator==(const TetrisPlacement&) const = default;
};

// The most placements one piece can have on one board.
constexpr int MostPlacements = 4 * MostWidth * MostHeight;  // SRS: 4 rotations at any (x, y)

constexpr double Lost = -1e12;

// The board as SRS move generation (srs/moves.h) reads it: a well 4 to 16
// wide.
moves::SrsBoard srs_board(const TetrisBoard& board);

// Every placement of `piece` on `board` that lies wholly inside the well:
// hard drops of each rotation at each column, or (MoveSet::BreadthFirst,
// tetrominoes only) every one SRS reaches (srs/moves.h). Returns the count
// written to `out`.
int generate_placements(const ShapeSet& shapes, const TetrisBoard& board, int piece, MoveSet moves,
                        std::span<TetrisPlacement, MostPlacements> out);

class TetrisPolicy {
public:
    TetrisPolicy(const ShapeSet& shapes, PolicyConfig config, std::vector<double> draw_weights);
    const PolicyConfig& config() const { return config_; }
    // The score of one first placement of known[0] (known[1..] the next
    // pieces known; at most config().preview of them are used).
    // `base`, when given, is DellacherieBase(board), shared by the first
    // placements when they are the leaves.
    double score(const TetrisBoard& board, std::span<const int> known, const TetrisPlacement& first,
                 const DellacherieBase* base = nullptr) const;
    // The best placement of known[0], or nothing when none fits. `threads`
    // > 1 scores the first placements in parallel. Adds the leaves scored
    // to `leaves`, and every first placement with its score to `scored`.
    std::optional<TetrisPlacement> choose(const TetrisBoard& board, std::span<const int> known, int threads = 1,
                                          std::uint64_t* leaves = nullptr,
                                          std::vector<std::pair<TetrisPlacement, double>>* scored = nullptr) const;

private:
    double best(const TetrisBoard& board, std::span<const int> known, int unknown) const;
    double after(const TetrisBoard& board, const TetrisPlacement& placement, std::span<const int> known, int unknown,
                 const DellacherieBase* base) const;
    double leaf(const TetrisBoard& board, const TetrisPlacement& placement, const DellacherieBase* base) const;
    std::optional<DellacherieBase> base_for_leaves(const TetrisBoard& board, std::size_t known, int unknown) const;
    std::size_t pieces_placed(std::size_t known) const;  // of the known pieces, those the search places
    const ShapeSet& shapes_;
    PolicyConfig config_;
    std::vector<double> draw_weights_;  // [piece] -> probability
};

}  // namespace stack::tetris
