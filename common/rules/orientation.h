// The placement rule, stated once for every piece table.
//
// An orientation of a piece is (surface, added) over the `width` columns it
// touches: placed with its leftmost column at x, it raises column x+k by
// added[k] (its cells in that column), and it rests on the stack without
// leaving a hole exactly when the stack's top matches its underside,
// h[x+k+1] - h[x+k] == surface[k] for k < width-1; it fits when moreover no
// column rises above the well's height. The tetromino table (pieces.h) and
// piece sets read at run time (piece_set.h) both state orientations this
// way and place them with these three functions.
#pragma once

#include "rules/board.h"

namespace stack {

// Does the orientation fit at leftmost column x of a well of `height`?
// `heights` holds at least x + width columns.
template <class Surface, class Added>
constexpr bool fits_at(const Surface& surface, const Added& added, int width, const int* heights, int x, int height) {
    for (int k = 0; k < width; ++k)
        if (heights[x + k] + added[k] > height || (k + 1 < width && heights[x + k + 1] - heights[x + k] != surface[k]))
            return false;
    return true;
}

// Places it: the stack after the piece lands.
template <class Added>
constexpr void place_at(const Added& added, int width, int* heights, int x) {
    for (int k = 0; k < width; ++k)
        heights[x + k] += added[k];
}

// What placing it adds to a board id (board.h): the same for every board,
// so a successor's id is its board's id plus this.
template <class Added>
BoardId id_offset_at(const Added& added, int width, const Geometry& geometry, int x) {
    BoardId offset = 0;
    for (int k = 0; k < width; ++k)
        offset += BoardId(added[k]) * geometry.place_value(x + k);
    return offset;
}

}  // namespace stack
