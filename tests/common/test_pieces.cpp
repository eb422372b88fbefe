#include "rules/pieces.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

namespace stack {

// The tetrominoes are data: the reference's table text, read as a piece
// set like any other and played through its Rules.
TEST(Pieces, OrientationCountsPerPiece) {
    const Rules& rules = Rules::tetrominoes();
    std::vector<int> counts(std::size_t(rules.piece_count()), 0);
    for (const Orientation& orientation : rules.orientations())
        ++counts[std::size_t(orientation.piece)];
    EXPECT_EQ(counts, (std::vector<int>{2, 4, 1, 2, 2, 4, 4}));
    EXPECT_EQ(rules.orientation_count(), 19);
    EXPECT_TRUE(rules.is_tetrominoes());
    EXPECT_TRUE(rules.unit_weights());
    EXPECT_EQ(rules.modulus(), 4);
    EXPECT_EQ(rules.one_column(), std::vector<int>{1});  // the vertical I
}

TEST(Pieces, TableTextIsTheReferencePieceMap) {
    // Transcribed from the reference's get_piece_maps().
    const char* expected =
        "i: ([0,0,0],[1,1,1,1]) ([],[4])\n"
        "t: ([-1,1],[1,2,1]) ([-1],[1,3]) ([0,0],[1,2,1]) ([1],[3,1])\n"
        "sq: ([0],[2,2])\n"
        "zr: ([0,1],[1,2,1]) ([-1],[2,2])\n"
        "zl: ([-1,0],[1,2,1]) ([1],[2,2])\n"
        "lr: ([1,0],[2,1,1]) ([-2],[1,3]) ([0,0],[1,1,2]) ([0],[3,1])\n"
        "ll: ([0,-1],[1,1,2]) ([0],[1,3]) ([0,0],[2,1,1]) ([2],[3,1])\n";
    EXPECT_EQ(std::string(TetrominoTable), expected);
    EXPECT_EQ(Rules::tetrominoes().set().attribute_text(), expected);
}

TEST(Pieces, EveryOrientationAddsFourCells) {
    for (const Orientation& orientation : Rules::tetrominoes().orientations())
        EXPECT_EQ(orientation.cells(), 4);
}

TEST(Pieces, NamesAreTheReferenceNames) {
    EXPECT_EQ(piece_name(PieceI), "i");
    EXPECT_EQ(piece_name(PieceSquare), "sq");
    EXPECT_EQ(piece_name(PieceLLeft), "ll");
    const Rules& rules = Rules::tetrominoes();
    for (int piece = 0; piece < PieceCount; ++piece) {
        EXPECT_EQ(rules.name(piece), piece_name(Piece(piece)));
        EXPECT_EQ(rules.letter(piece), piece_letter(Piece(piece)));
    }
}

}  // namespace stack
