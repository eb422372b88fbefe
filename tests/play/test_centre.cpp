// The SRS true-rotation centre the Tetris Bot Protocol names locations by
// (srs/centre.h), against the protocol's definition.
#include "rules/pieces.h"
#include "srs/centre.h"
#include "srs/moves.h"

#include <gtest/gtest.h>

#include <utility>

namespace stack::tetris {

// The protocol's centres (tbp-spec): T, S, Z, J, L turn about their box's
// centre; I north is its middle-left cell, O north its bottom-left.
TEST(SrsCentre, MatchesTheProtocolsDefinition) {
    using moves::box_of;
    using moves::cells_at;
    const moves::Cells i_north = cells_at(PieceI, box_of(PieceI, 0, 4, 19));
    EXPECT_EQ(i_north, (moves::Cells{{{3, 19}, {4, 19}, {5, 19}, {6, 19}}}));
    const moves::Cells i_east = cells_at(PieceI, box_of(PieceI, 1, 4, 19));  // the middle-top cell
    EXPECT_EQ(i_east, (moves::Cells{{{4, 17}, {4, 18}, {4, 19}, {4, 20}}}));
    const moves::Cells o_north = cells_at(PieceSquare, box_of(PieceSquare, 0, 4, 19));
    EXPECT_EQ(o_north, (moves::Cells{{{4, 19}, {4, 20}, {5, 19}, {5, 20}}}));
    const moves::Cells o_south = cells_at(PieceSquare, box_of(PieceSquare, 2, 4, 19));  // the top-right cell
    EXPECT_EQ(o_south, (moves::Cells{{{3, 18}, {3, 19}, {4, 18}, {4, 19}}}));
    const moves::Cells t_west = cells_at(PieceT, box_of(PieceT, 3, 4, 19));
    EXPECT_EQ(t_west, (moves::Cells{{{3, 19}, {4, 18}, {4, 19}, {4, 20}}}));
    for (int piece = 0; piece < 7; ++piece)
        for (int rotation = 0; rotation < 4; ++rotation) {
            const moves::Location box = box_of(static_cast<Piece>(piece), rotation, 5, 7);
            EXPECT_EQ(moves::centre_of(static_cast<Piece>(piece), box), std::make_pair(5, 7));
            EXPECT_EQ(moves::orientation_of(moves::orientation_name(rotation)), rotation);
        }
    // The guideline spawn (srs/moves.h's spawn_row 19) has its centre at (4, 19).
    moves::MoveOptions options;
    options.spawn_row = 19;
    for (const Piece piece : {PieceT, PieceI, PieceSquare, PieceZLeft})
        EXPECT_EQ(moves::centre_of(piece, *moves::spawn_location(moves::SrsBoard(10, 40), piece, options)),
                  std::make_pair(4, 19));
}

}  // namespace stack::tetris
