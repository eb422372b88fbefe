// The piece set as data: the 7 tetrominoes and their 19 orientations exactly
// as the reference implementation lists them. Every tool and test reads the
// piece table from here and nowhere else.
//
// An orientation is (surface, added). It fits at leftmost column x when
// h[x+k+1] - h[x+k] == surface[k] for every k (the stack's top matches the
// piece's underside, so no hole forms) and h[x+k] + added[k] <= H; placing it
// raises column x+k by added[k]. Every orientation adds exactly 4 cells.
#pragma once

#include "rules/orientation.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace stack {

enum Piece : std::uint8_t { PieceI, PieceT, PieceSquare, PieceZRight, PieceZLeft, PieceLRight, PieceLLeft, PieceCount };

struct Orientation {
    Piece piece;
    std::uint8_t width;                  // columns touched, 1..4
    std::array<std::int8_t, 3> surface;  // [k] -> required h[x+k+1] - h[x+k], k < width-1
    std::array<std::int8_t, 4> added;    // [k] -> cells added to column x+k, k < width

    // The placement rule (orientation.h) at leftmost column x.
    constexpr bool fits(const int* heights, int x, int height) const {
        return fits_at(surface, added, width, heights, x, height);
    }
    constexpr void place(int* heights, int x) const { place_at(added, width, heights, x); }
    BoardId id_offset(const Geometry& geometry, int x) const { return id_offset_at(added, width, geometry, x); }
};

constexpr int OrientationCount = 19;
constexpr int CellsPerPiece = 4;

using PieceCounts = std::array<std::uint64_t, PieceCount>;  // [piece] -> count

// Table order is the reference's order; the player's tie-break depends on it.
constexpr std::array<Orientation, OrientationCount> Orientations = {{
    {PieceI, 4, {0, 0, 0}, {1, 1, 1, 1}},
    {PieceI, 1, {}, {4}},
    {PieceT, 3, {-1, 1}, {1, 2, 1}},
    {PieceT, 2, {-1}, {1, 3}},
    {PieceT, 3, {0, 0}, {1, 2, 1}},
    {PieceT, 2, {1}, {3, 1}},
    {PieceSquare, 2, {0}, {2, 2}},
    {PieceZRight, 3, {0, 1}, {1, 2, 1}},
    {PieceZRight, 2, {-1}, {2, 2}},
    {PieceZLeft, 3, {-1, 0}, {1, 2, 1}},
    {PieceZLeft, 2, {1}, {2, 2}},
    {PieceLRight, 3, {1, 0}, {2, 1, 1}},
    {PieceLRight, 2, {-2}, {1, 3}},
    {PieceLRight, 3, {0, 0}, {1, 1, 2}},
    {PieceLRight, 2, {0}, {3, 1}},
    {PieceLLeft, 3, {0, -1}, {1, 1, 2}},
    {PieceLLeft, 2, {0}, {1, 3}},
    {PieceLLeft, 3, {0, 0}, {2, 1, 1}},
    {PieceLLeft, 2, {2}, {3, 1}},
}};

constexpr int cells_added(const Orientation& orientation) {
    int cells = 0;
    for (int k = 0; k < orientation.width; ++k)
        cells += orientation.added[k];
    return cells;
}

constexpr bool orientation_table_is_sound() {
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        if (orientation.width < 1 || orientation.width > 4 || cells_added(orientation) != CellsPerPiece)
            return false;
        if (o > 0 && orientation.piece < Orientations[o - 1].piece)
            return false;  // orientations of one piece are contiguous, pieces in enum order
    }
    return Orientations[OrientationCount - 1].piece == PieceCount - 1;
}
static_assert(orientation_table_is_sound(), "every orientation adds 4 cells; pieces are grouped in order");

// The reference's piece names: i, t, sq, zr, zl, lr, ll.
std::string_view piece_name(Piece piece);
char piece_letter(Piece piece);  // I T O S Z L J, for drawing a well

// The orientation table as text, "i: ([0,0,0],[1,1,1,1]) ([],[4])\n...";
// stored in every table file so a reader knows the rules it was built with.
std::string orientation_table_text();

}  // namespace stack
