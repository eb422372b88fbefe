// SRS true rotation's piece centre: how the Tetris Bot Protocol (and the
// decision JSON) name a location, against moves.h's bottom-left corner of
// the rotation box.
//
//   J L S T Z  the stationary point of basic rotation: the box's (1, 1)
//   I          north the middle-left cell (box (1, 2)), east the
//              middle-top (2, 2), south the middle-right (2, 1), west the
//              middle-bottom (1, 1)
//   O          north the bottom-left cell, east the top-left, south the
//              top-right, west the bottom-right (box (0, 0), (0, 1),
//              (1, 1), (1, 0))
//
// Orientations are named north (spawn), east (one clockwise turn), south
// and west, as rotations 0-3.
#pragma once

#include "srs/moves.h"

#include <optional>
#include <string_view>
#include <utility>

namespace stack::moves {

// The centre (x, y) of a piece whose box is at `box`.
std::pair<int, int> centre_of(Piece piece, const Location& box);
// The box location of a piece with this rotation and centre.
Location box_of(Piece piece, int rotation, int centre_x, int centre_y);

const char* orientation_name(int rotation);
// The rotation an orientation name gives, or nothing for another name.
std::optional<int> orientation_of(std::string_view name);

}  // namespace stack::moves
