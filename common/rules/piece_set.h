// Piece sets as data, read at run time: the built-in sets (tetrominoes,
// rectangles, pentominoes), a text file of pieces drawn as cell grids, and
// the attributes a table file stores. Every tool plays a set through its
// Rules (rules.h); the tetrominoes are the default set, read from their
// table in pieces.h like any other.
//
// An orientation is (surface, added), as orientation.h states: it fits at
// leftmost column x when h[x+k+1] - h[x+k] == surface[k] for every k, and
// raises column x+k by added[k]. Derived from cells: bottom[k] is the lowest
// cell of column k and count[k] its cells, so surface[k] = bottom[k+1] -
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
// NAME is 1-16 letters, digits or '_'; the weight (default 1, at most
// 1,000,000) is the piece's relative draw probability; `reflect` adds the
// mirror images of the piece to its orientations; the letter (default: a
// tetromino's usual letter, else the name's first character, upper-cased)
// draws the piece in a well. The rows of a piece are all as long, at most 8
// rows of at most 8 cells; the cells are 4-connected. A set holds 1 to 64
// pieces, no two with one name, one letter or one shape, each of which must
// rest on a hole-free stack in at least one orientation. Lines starting
// with ';' are comments.
//
// The attribute text is one line per piece:
//   NAME[ weight=N][ letter=C]: (SURFACE,ADDED) (SURFACE,ADDED) ...
// with lists written [a,b,c]; the tetrominoes' text is TetrominoTable.
#pragma once

#include "rules/orientation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stack {

// The most pieces a set holds.
// MostPieces: support/limits.h.

// A piece's cells: (row from the bottom, column), the lowest row and the
// leftmost column 0, sorted.
using PieceCells = std::vector<std::pair<int, int>>;

struct PieceShape {
    std::string name;
    char letter = '?';
    std::uint32_t weight = 1;
    PieceCells cells;                       // as drawn (or, read from orientations alone, the first one's)
    std::vector<Orientation> orientations;  // each with `piece` its index in the set
    std::vector<std::string> dropped;       // orientations that cannot rest without a hole, drawn as grids
    int cell_count() const { return int(cells.size()); }
};

class PieceSet {
public:
    // "tetrominoes", "rectangles" or "pentominoes"; throws InputError otherwise.
    static PieceSet builtin(std::string_view name);
    // The piece file format above; throws InputError naming the line.
    static PieceSet from_file_text(const std::string& text);
    // A table file's 'pieces' attribute, and its 'piece_cells' attribute
    // when it has one (tables written before piece sets were stored have
    // none: the cells are then the first orientation's); throws InputError.
    static PieceSet from_attribute(const std::string& text, const std::string& cells_text = "",
                                   const std::string& name = "");
    // A built-in set's name, or else the path of a piece file (--pieces).
    static PieceSet named_or_file(const std::string& name_or_path);

    // "tetrominoes", "rectangles", "pentominoes", or "file NAME" for a
    // piece file (NAME its file name); what a table stores as 'piece_set'.
    const std::string& name() const { return name_; }
    const std::vector<PieceShape>& pieces() const { return pieces_; }
    int orientation_count() const;
    // The gcd of the pieces' cell counts: the height sum's classes modulo
    // it are independent problems (4 for the tetrominoes).
    int cell_gcd() const;
    // The fewest cells of any piece: no game places more than W*H of them.
    int smallest_piece_cells() const;
    // The 'pieces' attribute: every orientation of every piece, in order,
    // with the weights and letters that are not the default.
    std::string attribute_text() const;
    // The 'piece_cells' attribute: a line per piece, "NAME: ROWS" with the
    // rows of its cells top first, '#' a cell, '.' none, joined by '/'.
    std::string cells_text() const;

private:
    void check();
    void read_cells(const std::string& text);
    std::string name_;
    std::vector<PieceShape> pieces_;
};

// The rows of cells, top first, joined by '/': "###/.#." for a T.
std::string grid_text(const PieceCells& cells);

// The distinct rotations of a piece's cells, normalised (lowest row and
// leftmost column 0, sorted), in the order 0, 90, 180, 270 degrees
// clockwise, then the mirror images of those when `reflect`; each once.
std::vector<PieceCells> distinct_rotations(const PieceCells& cells, bool reflect);

// The orientations of a shape given as (row from the bottom, column) cells:
// its distinct rotations (and mirror images when `reflect`), in the order
// 0, 90, 180, 270 degrees clockwise (then the mirrored ones), each kept once;
// those that cannot rest on a hole-free stack go to `dropped` as grids.
std::vector<Orientation> derive_orientations(const PieceCells& cells, bool reflect,
                                             std::vector<std::string>* dropped = nullptr);

}  // namespace stack
