// Piece sets as data, read at run time: the built-in sets (tetrominoes,
// rectangles, pentominoes), a text file of pieces drawn as cell grids, and
// the 'pieces' attribute a table file stores. This is the groundwork for
// `stackgen --pieces` (issue 12); the generator and player still use the
// compile-time tetromino table in pieces.h, which builtin("tetrominoes")
// reproduces exactly (same orientations, same order, same attribute text).
//
// An orientation is (surface, added), as in pieces.h: it fits at leftmost
// column x when h[x+k+1] - h[x+k] == surface[k] for every k, and raises
// column x+k by added[k]. Derived from cells: bottom[k] is the lowest cell
// of column k and count[k] its cells, so surface[k] = bottom[k+1] -
// bottom[k] and added[k] = count[k]. A column whose cells are not one
// contiguous run always leaves a hole under its upper part; such an
// orientation cannot rest on a hole-free stack and is dropped (and listed).
//
// The piece file format (one piece per block, blank lines between blocks):
//
//   ; a comment
//   piece T weight 2        <- `piece NAME [weight N] [reflect] [letter C]`
//   ###                     <- the cells, top row first: '#' a cell, '.' none
//   .#.
//
// NAME is 1-16 letters, digits or '_'; the weight (default 1) is the piece's
// relative draw probability; `reflect` adds the mirror images of the piece
// to its orientations; the letter (default: the name's first, upper-cased)
// draws the piece in a well (default: a tetromino's usual letter, else the
// name's first character, upper-cased). The cells must be 4-connected, at
// most 8x8. Lines starting with ';' are comments.
//
// The attribute text is one line per piece:
//   NAME[ weight=N][ letter=C]: (SURFACE,ADDED) (SURFACE,ADDED) ...
// with lists written [a,b,c]; the tetrominoes' text is pieces.h's
// orientation_table_text() exactly.
#pragma once

#include "rules/orientation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stack {

struct ShapeOrientation {
    std::vector<int> surface;  // width - 1 entries
    std::vector<int> added;    // width entries, each >= 1
    int width() const { return int(added.size()); }
    int cells() const;
    bool operator==(const ShapeOrientation&) const = default;
    // The placement rule (orientation.h) at leftmost column x.
    bool fits(const int* heights, int x, int height) const {
        return fits_at(surface, added, width(), heights, x, height);
    }
    void place(int* heights, int x) const { place_at(added, width(), heights, x); }
    BoardId id_offset(const Geometry& geometry, int x) const { return id_offset_at(added, width(), geometry, x); }
};

struct PieceShape {
    std::string name;
    char letter = '?';
    std::uint32_t weight = 1;
    std::vector<ShapeOrientation> orientations;
    std::vector<std::string> dropped;  // orientations that cannot rest without a hole, drawn as grids
};

class PieceSet {
public:
    // "tetrominoes", "rectangles" or "pentominoes"; throws InputError otherwise.
    static PieceSet builtin(std::string_view name);
    // The piece file format above; throws InputError naming the line.
    static PieceSet from_file_text(const std::string& text);
    // A table file's 'pieces' attribute; throws InputError.
    static PieceSet from_attribute(const std::string& text);
    // A built-in set's name, or else the path of a piece file (--pieces).
    static PieceSet named_or_file(const std::string& name_or_path);

    const std::vector<PieceShape>& pieces() const { return pieces_; }
    int orientation_count() const;
    // The gcd of the pieces' cell counts: the height sum's classes modulo
    // it are independent problems (4 for the tetrominoes).
    int cell_gcd() const;
    // The fewest cells of any piece: no game places more than W*H of them.
    int smallest_piece_cells() const;
    std::string attribute_text() const;

private:
    void check() const;
    std::vector<PieceShape> pieces_;
};

// The orientations of a shape given as (row from the bottom, column) cells:
// its distinct rotations (and mirror images when `reflect`), in the order
// 0, 90, 180, 270 degrees clockwise (then the mirrored ones), each kept once;
// those that cannot rest on a hole-free stack go to `dropped` as grids.
std::vector<ShapeOrientation> derive_orientations(const std::vector<std::pair<int, int>>& cells, bool reflect,
                                                  std::vector<std::string>* dropped = nullptr);

}  // namespace stack
