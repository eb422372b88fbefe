// How a player chooses where the drawn piece goes: one interface, four
// policies.
//
//   table       the table's policy: the placement whose successor has the
//               highest value (optimal play, the table's prediction)
//   random      uniform over the piece's valid placements
//   heuristic   the classic linear evaluation of the greedy Tetris bots,
//               -0.510066 aggregate height + 0.760666 complete lines
//               - 0.35663 holes - 0.184483 bumpiness, of the board after the
//               placement (holes and lines are always 0 in this game)
//   lookahead N the heuristic with the next N pieces known: every sequence of
//               placements of the drawn piece and the N next ones is tried;
//               sequences that place more pieces win, then the best
//               heuristic score of the last board
//
// Every policy breaks ties the same way: the first orientation in table
// order, then the leftmost column.
#pragma once

#include "game_random.h"
#include "placement.h"
#include "huge_pages.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace stack {

enum class PolicyKind : std::uint8_t { Table, Random, Heuristic, Lookahead, Count };

constexpr int MaxLookahead = 4;

struct PolicySpec {
    PolicyKind kind = PolicyKind::Table;
    int lookahead = 0;  // next pieces known, for PolicyKind::Lookahead
};

// "table", "random", "heuristic", "lookahead N" (or "lookahead:N");
// throws InputError naming the accepted forms.
PolicySpec parse_policy(const std::string& text);
std::string policy_name(const PolicySpec& spec);

struct Move {
    int orientation = -1;  // -1: the piece does not fit
    int column = 0;
    BoardId successor = 0;
};

// One decision: the board, the drawn piece, the next pieces (as many as the
// policy's preview()) and a random stream of the policy's own.
struct Turn {
    const Heights& heights;
    BoardId id;
    Piece piece;
    std::span<const Piece> next;
    GameRandom* random;
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual Move choose(const Turn& turn) const = 0;
    // Next pieces the policy must see.
    virtual int preview() const { return 0; }
    // True when the move is a function of (board, piece) alone, so the
    // exact length distribution (distribution.h) applies.
    virtual bool deterministic() const { return true; }
};

// `values` is the table (read only by the table policy) and must outlive
// the policy, as must `placements`.
std::unique_ptr<Policy> make_policy(const PolicySpec& spec, const PlacementTable& placements,
                                    const HugeVector<double>& values);

// The heights after orientation o lands at column x.
Heights heights_after(const Heights& heights, int orientation, int column);

// The heuristic's score of a board (higher is better).
double heuristic_score(const Heights& heights, int width);

}  // namespace stack
