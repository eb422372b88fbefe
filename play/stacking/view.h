// What a person reads: one game as text frames (--show) and one board's
// options (--explain), each also as JSON.
#pragma once

#include "support/json.h"
#include "stacking/policy.h"
#include "table/stack_table.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// One turn of a shown game. The well is drawn top row first, each cell the
// letter of the piece that filled it, '#' for cells of the start board and
// '.' for empty ones.
struct ShownTurn {
    int number = 0;  // 1-based
    int piece = 0;
    Move move;  // orientation < 0: the piece did not fit and the game ended
    Heights before{};
    BoardId before_id = 0;
    double value_before = 0;
    double value_after = 0;         // of the successor, when the piece fit
    std::vector<std::string> well;  // after the turn
};

struct ShownGame {
    const Rules* rules = nullptr;  // the set played; its letters draw the well
    std::uint64_t seed = 0;
    std::vector<ShownTurn> turns;
    std::uint32_t placed = 0;
};

// Plays game 0 of a run seeded by `seed`, recording every turn.
// The table is read only at the boards the game visits.
ShownGame show_game(const StackingPolicy& policy, const StackTable& table, BoardId start, std::uint64_t seed);
std::string format_game(const ShownGame& game, const Geometry& geometry);
Json game_json(const ShownGame& game, const Geometry& geometry);

// Every valid placement of every piece on one board, best successor value
// first (ties in the policies' order), so each list starts with the table
// policy's choice.
struct PlacementOption {
    int orientation = 0;
    int column = 0;
    BoardId successor = 0;
    double value = 0;
    // For the tetrominoes, how a real player gets there under SRS
    // (play/srs/moves.h): a shortest input sequence from spawn, empty
    // when SRS cannot reach it (or the well is narrower than 4, or the set
    // is not the tetrominoes), and whether hard drop alone does; a reachable
    // placement hard drop misses needs a spin or a tuck.
    std::string inputs;
    bool hard_drop = false;
    int rotation = 0;  // as the views name it (shown_rotation); with inputs, the rotation they end in
};

// A placement's rotation as every view names it (--explain, --show, the
// web API and page), one convention: for the tetrominoes the SRS rotation
// (srs/moves.h: 0 spawn, R, 2, L; numbered 0-3), the first of the
// orientation's shape (an upright I is R) unless SRS inputs say which one
// is reached; for another set, which has no SRS, its place among its
// piece's orientations (Rules::rotation), named by its number.
int shown_rotation(const Rules& rules, int orientation);
std::string shown_rotation_name(const Rules& rules, int rotation);

struct Explanation {
    const Rules* rules = nullptr;
    Heights heights{};
    BoardId id = 0;
    double value = 0;
    std::vector<std::vector<PlacementOption>> options;  // [piece]
    bool with_inputs = false;                           // the tetrominoes in a well of 4 columns or more: SRS inputs
};

// Reads the board's value and its successors' values, nothing else.
// `with_inputs` false leaves out the SRS inputs (a replay ranks every
// turn's placements, and the inputs cost two searches a piece).
Explanation explain_board(const PlacementTable& placements, const StackTable& table, BoardId id,
                          bool with_inputs = true);
std::string format_explanation(const Explanation& explanation, const Geometry& geometry);
Json explanation_json(const Explanation& explanation, const Geometry& geometry);

}  // namespace stack
