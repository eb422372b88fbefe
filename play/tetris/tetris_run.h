// stackplay --game tetris: many seeded games at once on threads, with a
// progress line and the report (text or JSON); one game as frames (--show);
// or one decision on a board read from a file (seed 002's decision core,
// without its Game Boy screen reader). One game is game.h's.
#pragma once

#include "tetris/game.h"

namespace stack::tetris {

// Refuses a search whose projected time per move exceeds a minute, unless
// options.yes (throws InputError naming the projection).
void check_search_time(const TetrisOptions& options, const ShapeSet& shapes, const PolicyConfig& config);

// Checks the options, then plays, shows or decides; prints the report.
// Returns the exit code; throws InputError on bad input.
int run_tetris(const TetrisOptions& options);

}  // namespace stack::tetris
