// The rules of one piece set, as every tool plays them: the generator's
// kernel, the verifier, the player and its policies, the exact length
// distribution. Built once from a PieceSet (piece_set.h), the tetrominoes'
// by default (Rules::tetrominoes()):
//
//   orientations   every orientation of every piece, pieces in the set's
//                  order and each piece's orientations in its own, flattened
//                  (the policies break ties by this order)
//   pieces         per piece: its cells, draw weight, letter and name
//   classes        the pieces add multiples of g = gcd of their cells, so the
//                  boards whose height sum is r mod g are a problem of their
//                  own (residues.h)
//   one column     the orientations one column wide: at column 0 they stay
//                  in their board's row (the generator finishes a row from
//                  the top for them)
//
// A game draws piece p with probability weight(p) / total_weight(), and the
// value equation (value.h) weighs the pieces the same way.
#pragma once

#include "rules/board.h"
#include "rules/orientation.h"
#include "rules/piece_set.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stack {

// [piece] -> a count (connections, placements) of that piece.
using PieceCounts = std::vector<std::uint64_t>;

class Rules {
public:
    explicit Rules(PieceSet set);
    // The default set, built once.
    static const Rules& tetrominoes();

    const PieceSet& set() const { return set_; }
    int piece_count() const { return int(cells_.size()); }
    int orientation_count() const { return int(orientations_.size()); }
    const Orientation& orientation(int o) const { return orientations_[std::size_t(o)]; }
    const std::vector<Orientation>& orientations() const { return orientations_; }
    // The orientations of piece p: [first_orientation(p), first_orientation(p + 1)).
    int first_orientation(int piece) const { return first_[std::size_t(piece)]; }
    // An orientation's place among its piece's (0 for the first, in the
    // set's order). The views name a tetromino's rotation by SRS instead
    // (stacking/view.h's shown_rotation: 0 R 2 L), another set's by this.
    int rotation(int o) const { return o - first_orientation(orientation(o).piece); }

    int cells(int piece) const { return cells_[std::size_t(piece)]; }
    std::uint32_t weight(int piece) const { return weights_[std::size_t(piece)]; }
    const std::vector<std::uint32_t>& weights() const { return weights_; }
    std::uint64_t total_weight() const { return total_weight_; }
    bool unit_weights() const { return unit_weights_; }
    char letter(int piece) const { return set_.pieces()[std::size_t(piece)].letter; }
    const std::string& name(int piece) const { return set_.pieces()[std::size_t(piece)].name; }

    int modulus() const { return modulus_; }  // gcd of the pieces' cells
    int most_cells() const { return most_cells_; }
    bool equal_cells() const { return most_cells_ == fewest_cells_; }
    int narrowest(int piece) const;  // the piece's narrowest orientation's columns
    // The orientations one column wide.
    const std::vector<int>& one_column() const { return one_column_; }

    // Mirror images. partner(p) is the piece whose orientations are the
    // mirror images of p's (p itself for the I, O and T; the S and Z, and
    // the J and L, are each other's), or p when no piece is; the value
    // equation sums each pair first (value.h), so that a board and its
    // mirror image get the same bits. The set is mirror-closed when every
    // piece has a partner of its own weight: then V(h0..h(W-1)) =
    // V(h(W-1)..h0) for every board, and a table need store only one of
    // the two (table_format.h).
    int partner(int piece) const { return partners_[std::size_t(piece)]; }
    const std::vector<int>& partners() const { return partners_; }  // [piece] -> partner
    bool mirror_closed() const { return mirror_closed_; }

    // The piece that makes a tetris in the well game (gen/clears.h): the
    // 1 x 4 I, found as the first piece of 4 cells with an orientation one
    // column wide; -1 when the set has none.
    int tetris_piece() const { return tetris_piece_; }

    // The tetrominoes in the reference's table order (play/srs/moves.h may then take
    // a piece index as its Piece).
    bool is_tetrominoes() const { return is_tetrominoes_; }
    // Every piece fits the well in some orientation (as wide and as tall
    // as the well at most); throws InputError naming the first that does not.
    void check_fits(const Geometry& geometry) const;

private:
    void find_partners();
    PieceSet set_;
    std::vector<Orientation> orientations_;
    std::vector<int> first_;  // [piece] -> first orientation; [pieces] -> all
    std::vector<int> cells_;
    std::vector<std::uint32_t> weights_;
    std::uint64_t total_weight_ = 0;
    bool unit_weights_ = true;
    int modulus_ = 1, most_cells_ = 0, fewest_cells_ = 0;
    std::vector<int> one_column_;
    std::vector<int> partners_;
    bool mirror_closed_ = true;
    bool is_tetrominoes_ = false;
    int tetris_piece_ = -1;
};

// The well game's tetris (gen/clears.h): the set's tetris piece upright in
// the well beside the W columns, when every column is TetrisRows or more
// high, clears TetrisRows rows: every column that much lower, the board id
// tetris_offset() smaller.
constexpr int TetrisRows = 4;
inline bool tetris_fits(const Heights& heights, int width) {
    for (int column = 0; column < width; ++column)
        if (heights[std::size_t(column)] < TetrisRows)
            return false;
    return true;
}
// The heights after a tetris (tetris_fits must hold).
inline Heights after_tetris(Heights heights, int width) {
    for (int column = 0; column < width; ++column)
        heights[std::size_t(column)] -= TetrisRows;
    return heights;
}
// The round (the row sum of columns 1..W-1) a tetris leads to from round
// `sum`; below 0: no board of that round holds a tetris.
constexpr int tetris_round_sum(int sum, int width) { return sum - TetrisRows * (width - 1); }
inline BoardId tetris_offset(const Geometry& geometry) {
    BoardId offset = 0;
    for (int column = 0; column < geometry.width(); ++column)
        offset += BoardId(TetrisRows) * geometry.place_value(column);
    return offset;
}

}  // namespace stack
