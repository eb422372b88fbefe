// The tetrominoes: the default piece set, as data, and the names SRS move
// generation (play/srs/moves.h) gives them.
//
// The set itself is the reference implementation's orientation table, 19
// orientations of 7 pieces in the reference's order (its get_piece_maps()),
// written as a piece set's attribute text (piece_set.h); PieceSet::builtin
// ("tetrominoes") reads it like any other set, and every tool plays it
// through the Rules (rules.h). The order matters: the policies break ties
// by it, and tables written before piece sets were stored hold this text.
#pragma once

#include <cstdint>
#include <string_view>

namespace stack {

constexpr const char* TetrominoTable =
    "i: ([0,0,0],[1,1,1,1]) ([],[4])\n"
    "t: ([-1,1],[1,2,1]) ([-1],[1,3]) ([0,0],[1,2,1]) ([1],[3,1])\n"
    "sq: ([0],[2,2])\n"
    "zr: ([0,1],[1,2,1]) ([-1],[2,2])\n"
    "zl: ([-1,0],[1,2,1]) ([1],[2,2])\n"
    "lr: ([1,0],[2,1,1]) ([-2],[1,3]) ([0,0],[1,1,2]) ([0],[3,1])\n"
    "ll: ([0,-1],[1,1,2]) ([0],[1,3]) ([0,0],[2,1,1]) ([2],[3,1])\n";

// The tetrominoes in the table's order, which is also their index in the
// set: the SRS pieces i I, t T, sq O, zr S, zl Z, lr L, ll J.
enum Piece : std::uint8_t { PieceI, PieceT, PieceSquare, PieceZRight, PieceZLeft, PieceLRight, PieceLLeft, PieceCount };

constexpr int TetrominoCells = 4;

// The reference's piece names: i, t, sq, zr, zl, lr, ll.
std::string_view piece_name(Piece piece);
char piece_letter(Piece piece);  // I T O S Z L J, for drawing a well

}  // namespace stack
