// The tools' limits, each stated once: the headers and the option parsers
// that need one name it from here, and `stackgen --help`, `stackplay
// --help`, the web page's checks and the manual say the same number.
#pragma once

namespace stack {

// Worker threads a process may run (--threads of every tool; 0 asks for
// the cores the process is bound to).
constexpr int MostThreads = 1024;

// The widest well: rows and contours are 16-bit masks, and 21^14 still
// fits in 64 bits, so the width limit never hides the id-overflow check.
constexpr int MaxWidth = 16;
// The tallest stacking well: the codecs' counting tables grow with W*H,
// and a file claiming more is refused before any of them is built.
constexpr int MaxHeight = 1000000;

// The real game's board (stackplay --game tetris, the bot, the web page):
// at most MaxWidth columns and 64 rows, a 64-bit column mask.
constexpr int MostGameHeight = 64;

// A piece: at most MostPieceExtent rows and columns of cells; a set: at
// most MostPieces pieces, and at most MostResidueClasses classes of the
// height sum.
constexpr int MostPieceExtent = 8;
constexpr int MostPieces = 64;
constexpr int MostResidueClasses = 64;

}  // namespace stack
