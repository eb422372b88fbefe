// One decision of the real game, for whoever asks: `stackplay --board FILE
// --piece X` (run.cpp), the web's /api/decide and the Tetris Bot Protocol
// bot (bot_protocol.h). The policy's choice on a board with the known
// pieces, its plan for the rest of them, every first choice ranked, and the
// SRS facts a player needs to make the move: the state (orientation and
// centre, srs/centre.h), the spin, the inputs from spawn.
//
// The plan is what the search would play if no new piece were shown: the
// choice, then the best choice for the known pieces left on the board
// after it, and so on (the principal line of the search). A game whose
// pieces end with the known ones plays exactly the plan.
#pragma once

#include "support/json.h"
#include "srs/moves.h"
#include "tetris/tetris_board.h"
#include "tetris/search.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stack::tetris {

struct Decision {
    bool enters = true;                  // the current piece can enter (always, under the placement rule)
    std::optional<TetrisChoice> choice;  // nothing: no placement fits, the game is over
    std::vector<TetrisChoice> plan;      // the choice, then the known pieces' choices after it
    std::vector<TetrisChoice> ranked;    // every first choice, the choice first, then by score
    std::uint64_t leaves = 0;
    double seconds = 0;
};

// Decides on `board` with `known` (its queue cut to the policy's preview).
Decision decide(const TetrisPolicy& policy, const TetrisBoard& board, const Known& known, GameOverRule rule,
                int threads);

// A tetromino placement's cells as SRS move generation names them (sorted).
moves::Cells placement_cells(const Shape& shape, const TetrisPlacement& placement);

// How SRS reaches a placement: the state (a location whose cells they
// are, as the search found it first), the best spin some inputs perform (a
// SpinBits bit), and the shortest inputs from spawn that perform it. Nothing for sets other than the
// tetrominoes, wells narrower than 4, or a placement SRS cannot reach.
struct SrsFacts {
    moves::Location location;
    std::uint8_t reached = 0;
    std::string inputs;
};
std::optional<SrsFacts> srs_facts(const ShapeSet& shapes, const TetrisBoard& board, const TetrisPlacement& placement,
                                  int spawn_row);

// The spin a placement is best reached with: "full", "mini" or "none".
const char* spin_name(std::uint8_t reached);

// The board's rows as text, top row first ('#' filled, '.' empty).
Json board_rows(const TetrisBoard& board);

// The decision as JSON (docs/game.md, "One decision, and a plan"): the position, the
// choice with its cells, SRS state, inputs and the board after it, the plan
// and the best `alternatives` first choices with their scores.
Json decision_json(const ShapeSet& shapes, const TetrisPolicy& policy, const TetrisBoard& board, const Known& known,
                   const Decision& decision, int alternatives);

}  // namespace stack::tetris
