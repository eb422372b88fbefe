#include "rules/pieces.h"

#include <gtest/gtest.h>

namespace stack {

TEST(Pieces, OrientationCountsPerPiece) {
    std::array<int, PieceCount> counts{};
    for (const Orientation& orientation : Orientations)
        ++counts[orientation.piece];
    EXPECT_EQ(counts, (std::array<int, PieceCount>{2, 4, 1, 2, 2, 4, 4}));
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
    EXPECT_EQ(orientation_table_text(), expected);
}

TEST(Pieces, EveryOrientationAddsFourCells) {
    for (const Orientation& orientation : Orientations)
        EXPECT_EQ(cells_added(orientation), 4);
}

TEST(Pieces, NamesAreTheReferenceNames) {
    EXPECT_EQ(piece_name(PieceI), "i");
    EXPECT_EQ(piece_name(PieceSquare), "sq");
    EXPECT_EQ(piece_name(PieceLLeft), "ll");
}

}  // namespace stack
