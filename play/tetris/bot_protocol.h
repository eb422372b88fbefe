// stackplay --bot tbp: the real game's policies as a Tetris Bot Protocol
// bot (tbp-spec: JSON lines on standard input and output; docs/bot.md). The frontend owns the game; the bot keeps its own
// copy of the position (board, queue, hold), suggests moves for it and
// advances it by the moves the frontend says were played.
//
// The rules it assumes: a 10x40 board, row 0 at the bottom; pieces spawn
// north with their centre at x=4, y=19 (SRS true rotation, srs/centre.h)
// and move by SRS (left, right, soft drop, both turns with the SRS kicks:
// every placement breadth-first search reaches, srs/moves.h); full rows
// clear; garbage cells ("G") are filled cells like any other. With --hold
// a turn may hold; without, the bot never suggests holding but follows a
// frontend that holds (a start with a held piece, a play of the hold's
// piece). No placement reachable from the spawn, or an empty queue: the
// bot suggests no move (it forfeits, as the protocol says) and says why in
// the suggestion's "reason" and one line on the error stream. Every
// suggest is answered, on a line it refuses too; every start it refuses,
// for any reason, clears the position (docs/bot.md says which lines count).
//
// Beside the protocol: the suggestion carries the bot's position as
// "state" ({"board", "queue", "hold"}, the board as the start message
// gives one), so a frontend can check that the two agree, and "move_info"
// ({"nodes": leaves scored, "depth": pieces searched, "time_ms"}).
//
// A budget per suggestion (--budget-ms, --budget-leaves) deepens the
// search one known piece at a time, from the current piece alone up to
// --preview, and keeps the deepest search whose projected cost (the last
// depth's leaves times its growth) fits.
#pragma once

#include "tetris/game.h"

#include <cstdint>
#include <iosfwd>

namespace stack::tetris {

constexpr int DefaultSpawnRow = 20;

struct BotOptions {
    TetrisOptions game;               // policy, preview, depth, hold, weights, threads
    double budget_ms = 0;             // 0: none
    std::uint64_t budget_leaves = 0;  // 0: none
    int moves = 5;                    // moves a suggestion lists, best first
    // The centre's row at spawn, north (srs/moves.h's spawn_row): 20, the
    // guideline's rows 21-22 counted from 1 (a T's flat side in row 20 from
    // 0, its nub in 21); 19 is TBP's "roughly y=19" and this bot's before
    // issue 49, under which a cell at (4, 19) blocks the spawn.
    int spawn_row = DefaultSpawnRow;
    // The guideline's lock-out: a piece locked wholly above the visible 20
    // rows ends the game, so no such placement is suggested while a lower
    // one fits (the search's visible_rows, search.h); every policy, the
    // well policy's fallback included, chooses among the lower ones.
    bool lock_out = false;
};

constexpr int VisibleRows = 20;  // the guideline's visible field (--lock-out)

// Plays the protocol on `in` and `out` until quit or end of input;
// returns the exit code. Malformed lines get a line on `errors`; a refused
// start clears the position and a refused suggest gets a suggestion of no
// moves, any other is ignored.
int run_bot(const BotOptions& options, std::istream& in, std::ostream& out, std::ostream& errors);

}  // namespace stack::tetris
