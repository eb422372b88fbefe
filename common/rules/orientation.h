// The placement rule, stated once for every piece set.
//
// An orientation of a piece is (surface, added) over the `width` columns it
// touches: placed with its leftmost column at x, it raises column x+k by
// added[k] (its cells in that column), and it rests on the stack without
// leaving a hole exactly when the stack's top matches its underside,
// h[x+k+1] - h[x+k] == surface[k] for k < width-1; it fits when moreover no
// column rises above the well's height. Every piece set (piece_set.h; the
// tetrominoes are the set whose text is pieces.h's table) states its
// orientations this way, as Orientation below, whose fits, place and
// id_offset are these three functions.
#pragma once

#include "rules/board.h"

#include <array>
#include <cstdint>

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

namespace stack {

// The widest and tallest piece a set may hold (its drawing is at most
// MostPieceColumns x MostPieceColumns cells, rules/piece_set.h).
constexpr int MostPieceColumns = MostPieceExtent;

// One orientation of one piece of a set: `width` columns, the steps of its
// underside and its cells per column. Fixed-size and trivially copyable, so
// the placement tables of the hot loops hold them by value.
struct Orientation {
    int piece = 0;                                            // its piece's index in the set
    int width = 0;                                            // columns touched, 1..MostPieceColumns
    std::array<std::int8_t, MostPieceColumns - 1> surface{};  // [k] -> required h[x+k+1] - h[x+k], k < width-1
    std::array<std::int8_t, MostPieceColumns> added{};        // [k] -> cells added to column x+k, k < width

    // The rows it spans from its lowest cell to its highest.
    int rows() const {
        int bottom = 0, lowest = 0, highest = 0;
        for (int k = 0; k < width; ++k) {
            lowest = bottom < lowest ? bottom : lowest;
            highest = bottom + added[k] > highest ? bottom + added[k] : highest;
            if (k + 1 < width)
                bottom += surface[k];
        }
        return highest - lowest;
    }
    int cells() const {
        int total = 0;
        for (int k = 0; k < width; ++k)
            total += added[k];
        return total;
    }
    // The placement rule (above) at leftmost column x.
    bool fits(const int* heights, int x, int height) const {
        return fits_at(surface, added, width, heights, x, height);
    }
    void place(int* heights, int x) const { place_at(added, width, heights, x); }
    BoardId id_offset(const Geometry& geometry, int x) const { return id_offset_at(added, width, geometry, x); }
    // visit(column, row) for each cell it fills at leftmost column x of the
    // stack `heights`: column x+k gains rows heights[x+k] .. + added[k] - 1.
    template <class Visit>
    void for_each_cell(const int* heights, int x, Visit&& visit) const {
        for (int k = 0; k < width; ++k)
            for (int row = 0; row < added[k]; ++row)
                visit(x + k, heights[x + k] + row);
    }
    // Its mirror image (columns reversed): column x+k gains what column
    // x+width-1-k did, and each step of the underside is reversed and
    // negated. Placed at leftmost column W-width-x of the mirrored stack, it
    // lands as the original at x lands on the stack.
    Orientation mirrored() const {
        Orientation image = *this;
        for (int k = 0; k < width; ++k)
            image.added[std::size_t(k)] = added[std::size_t(width - 1 - k)];
        for (int k = 0; k + 1 < width; ++k)
            image.surface[std::size_t(k)] = std::int8_t(-surface[std::size_t(width - 2 - k)]);
        return image;
    }
    // The same shape (the piece it belongs to aside).
    bool same_shape(const Orientation& other) const {
        return width == other.width && surface == other.surface && added == other.added;
    }
};

}  // namespace stack
