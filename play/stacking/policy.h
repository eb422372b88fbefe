// How a player chooses where the drawn piece goes: one interface, five
// policies, each meaning the same for every piece set (rules.h): each reads
// the column heights and the set's placements, nothing of a piece's shape.
//
//   table       the table's policy: the placement whose successor has the
//               highest value (optimal play, the table's prediction)
//   random      uniform over the piece's valid placements
//   heuristic   the classic linear evaluation of the greedy Tetris bots,
//               Lee's score (objectives.h) of aggregate height, complete
//               lines, holes and bumpiness, of the board after the
//               placement (holes and lines are always 0 in this game, for
//               any set); it reads only the column heights, so it needs no
//               change for pieces of other shapes or sizes
//   lookahead N the heuristic with the next N pieces known (drawn with the
//               set's weights): every sequence of placements of the drawn
//               piece and the N next ones is tried; sequences that place
//               more pieces win, then the best heuristic score of the last
//               board
//   seed001     seed 001's objective (objectives.h), the current and the
//               next piece placed: the pair of placements with the highest
//               objective wins (seed001_score); as in lookahead 1, a
//               placement after which the next piece fits nowhere loses to
//               one after which it fits
//
// Every policy breaks ties the same way: the first orientation in the set's
// order, then the leftmost column.
#pragma once

#include "game_random.h"
#include "rules/placement.h"
#include "table/stack_table.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace stack {

enum class PolicyKind : std::uint8_t { Table, Random, Heuristic, Lookahead, Seed001, Count };

constexpr int MaxLookahead = 4;

struct PolicySpec {
    PolicyKind kind = PolicyKind::Table;
    int lookahead = 0;  // next pieces known, for PolicyKind::Lookahead
};

// "table", "random", "heuristic", "seed001", "lookahead N" (or "lookahead:N");
// throws InputError naming the accepted forms.
PolicySpec parse_policy(const std::string& text);
std::string policy_name(const PolicySpec& spec);

struct Move {
    int orientation = -1;  // -1: the piece does not fit
    int column = 0;
    BoardId successor = 0;
    // The well game (a line-clear table): the tetris piece upright in the
    // well (rules.h), every column 4 lower; orientation is then the piece's
    // one-column orientation and column the well's, W.
    bool tetris = false;
};

// [piece] -> the move a policy makes for it, for the set's pieces.
using PieceMoves = std::array<Move, MostPieces>;

// One decision: the board, the drawn piece, the next pieces (as many as the
// policy's preview()) and a random stream of the policy's own.
struct Turn {
    const Heights& heights;
    BoardId id;
    int piece;
    std::span<const int> next;
    GameRandom* random;
};

class StackingPolicy {
public:
    explicit StackingPolicy(const PlacementTable& placements) : placements_(placements) {}
    virtual ~StackingPolicy() = default;
    const PlacementTable& placements() const { return placements_; }
    const Rules& rules() const { return placements_.rules(); }
    virtual Move choose(const Turn& turn) const = 0;
    // Next pieces the policy must see.
    virtual int preview() const { return 0; }
    // True when the move is a function of (board, piece) alone, so the
    // exact length distribution (distribution.h) applies.
    virtual bool deterministic() const { return true; }
    // For a deterministic policy: the move choose() makes for each piece on
    // one board. The exact length distribution asks this of every board it
    // reaches; the table policy answers in one pass over the placements.
    virtual PieceMoves choose_for_each_piece(const Heights& heights, BoardId id) const;
    // The same for many boards at once: calls moves_of(i, heights, moves)
    // for each ids[i], in order, with the board's heights. The table policy
    // lists the placements of a batch of boards first and prefetches their
    // values, so the scattered reads of the table overlap.
    using BoardMoves = std::function<void(std::size_t index, const Heights& heights, const PieceMoves& moves)>;
    virtual void choose_for_each_piece(std::span<const BoardId> ids, const Geometry& geometry,
                                       const BoardMoves& moves_of) const;

protected:
    const PlacementTable& placements_;
};

// `table` is read only by the table policy; it and `placements` (whose
// rules are the game's) must outlive the policy.
std::unique_ptr<StackingPolicy> make_policy(const PolicySpec& spec, const PlacementTable& placements,
                                            const StackTable& table);

// The heuristic's score of a board (higher is better).
double heuristic_score(const Heights& heights, int width);
// Seed 001's objective on a board (higher is better).
double seed001_score(const Heights& heights, int width);

}  // namespace stack
