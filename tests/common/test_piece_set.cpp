#include "support/errors.h"
#include "rules/rules.h"
#include "rules/piece_set.h"
#include "rules/pieces.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace stack {

namespace {

// A piece's orientations as a sorted list, to compare sets whatever their order.
std::vector<std::pair<std::vector<int>, std::vector<int>>> sorted_orientations(
    const std::vector<Orientation>& orientations) {
    std::vector<std::pair<std::vector<int>, std::vector<int>>> list;
    for (const Orientation& orientation : orientations)
        list.push_back(
            {std::vector<int>(orientation.surface.begin(), orientation.surface.begin() + orientation.width - 1),
             std::vector<int>(orientation.added.begin(), orientation.added.begin() + orientation.width)});
    std::sort(list.begin(), list.end());
    return list;
}
std::vector<std::pair<std::vector<int>, std::vector<int>>> sorted_orientations(const PieceShape& piece) {
    return sorted_orientations(piece.orientations);
}

// An orientation from its lists.
Orientation shape(const std::vector<int>& surface, const std::vector<int>& added) {
    Orientation orientation;
    orientation.width = int(added.size());
    for (std::size_t k = 0; k < added.size(); ++k)
        orientation.added[k] = std::int8_t(added[k]);
    for (std::size_t k = 0; k < surface.size(); ++k)
        orientation.surface[k] = std::int8_t(surface[k]);
    return orientation;
}

const PieceShape& find_piece(const PieceSet& set, const std::string& name) {
    for (const PieceShape& piece : set.pieces())
        if (piece.name == name)
            return piece;
    throw std::runtime_error("no piece " + name);
}

}  // namespace

TEST(PieceSet, TetrominoesAreThePieceTableExactly) {
    const PieceSet set = PieceSet::builtin("tetrominoes");
    EXPECT_EQ(set.attribute_text(), std::string(stack::TetrominoTable));
    EXPECT_EQ(set.orientation_count(), stack::Rules::tetrominoes().orientation_count());
    EXPECT_EQ(set.cell_gcd(), stack::TetrominoCells);
    EXPECT_EQ(find_piece(set, "lr").letter, 'L');
}

TEST(PieceSet, AttributeTextReadsBack) {
    for (const char* name : {"tetrominoes", "rectangles", "pentominoes"}) {
        const PieceSet set = PieceSet::builtin(name);
        const PieceSet again = PieceSet::from_attribute(set.attribute_text());
        EXPECT_EQ(again.attribute_text(), set.attribute_text()) << name;
        ASSERT_EQ(again.pieces().size(), set.pieces().size());
        for (std::size_t p = 0; p < set.pieces().size(); ++p) {
            EXPECT_EQ(again.pieces()[p].letter, set.pieces()[p].letter);
            EXPECT_EQ(sorted_orientations(again.pieces()[p]), sorted_orientations(set.pieces()[p]));
        }
    }
}

// The tetrominoes drawn as grids derive the reference's orientations: the
// reference lists them by hand, so this checks the derivation (rotation,
// de-duplication, surface and added counts) against independent data.
TEST(PieceSet, TetrominoGridsDeriveTheReferenceOrientations) {
    const PieceSet drawn = PieceSet::from_file_text(
        "; the seven tetrominoes\n"
        "piece i\n####\n\n"
        "piece t\n###\n.#.\n\n"
        "piece sq\n##\n##\n\n"
        "piece zr\n.##\n##.\n\n"
        "piece zl\n##.\n.##\n\n"
        "piece lr\n#.\n#.\n##\n\n"
        "piece ll\n.#\n.#\n##\n");
    const PieceSet reference = PieceSet::builtin("tetrominoes");
    ASSERT_EQ(drawn.pieces().size(), reference.pieces().size());
    for (std::size_t p = 0; p < drawn.pieces().size(); ++p)
        EXPECT_EQ(sorted_orientations(drawn.pieces()[p]), sorted_orientations(reference.pieces()[p]))
            << drawn.pieces()[p].name;
    EXPECT_EQ(drawn.cell_gcd(), 4);
}

TEST(PieceSet, ReflectAddsMirrorImages) {
    const PieceSet set = PieceSet::from_file_text("piece l reflect\n#.\n#.\n##\n");
    const PieceSet reference = PieceSet::builtin("tetrominoes");
    auto both = sorted_orientations(find_piece(reference, "lr"));
    const auto left = sorted_orientations(find_piece(reference, "ll"));
    both.insert(both.end(), left.begin(), left.end());
    std::sort(both.begin(), both.end());
    EXPECT_EQ(sorted_orientations(set.pieces()[0]), both);
    // A symmetric piece gains nothing from reflection.
    EXPECT_EQ(PieceSet::from_file_text("piece t reflect\n###\n.#.\n").orientation_count(), 4);
}

// Every w x h block, 1 <= w, h <= 3, a block and its rotation one piece: 6
// pieces, 9 orientations (the issue's count), each a flat-bottomed block.
TEST(PieceSet, Rectangles) {
    const PieceSet set = PieceSet::builtin("rectangles");
    EXPECT_EQ(set.pieces().size(), 6u);
    EXPECT_EQ(set.orientation_count(), 9);
    EXPECT_EQ(set.cell_gcd(), 1);
    EXPECT_EQ(sorted_orientations(find_piece(set, "r1x3")),
              sorted_orientations(std::vector<Orientation>{shape({}, {3}), shape({0, 0}, {1, 1, 1})}));
}

// The 12 pentominoes have 41 distinct rotations (I and Z two each, X one,
// the others four); U's two sideways ones ("##/#./##") have a gap in a
// column and are dropped, leaving 39.
TEST(PieceSet, Pentominoes) {
    const PieceSet set = PieceSet::builtin("pentominoes");
    EXPECT_EQ(set.pieces().size(), 12u);
    EXPECT_EQ(set.cell_gcd(), 5);
    EXPECT_EQ(set.orientation_count(), 39);
    const PieceShape& u = find_piece(set, "u");
    EXPECT_EQ(u.orientations.size(), 2u);
    ASSERT_EQ(u.dropped.size(), 2u);
    EXPECT_EQ(u.dropped[0], "##/#./##");  // turned clockwise, U opens to the right
    EXPECT_EQ(u.dropped[1], "##/.#/##");
    EXPECT_EQ(find_piece(set, "x").orientations.size(), 1u);
    EXPECT_EQ(find_piece(set, "i").orientations.size(), 2u);
}

TEST(PieceSet, WeightsAndLetters) {
    const PieceSet set = PieceSet::from_file_text("piece big weight 3 letter Q\n##\n##\n\npiece dot\n#\n");
    EXPECT_EQ(set.pieces()[0].weight, 3u);
    EXPECT_EQ(set.pieces()[0].letter, 'Q');
    EXPECT_EQ(set.pieces()[1].letter, 'D');
    EXPECT_EQ(set.attribute_text(), "big weight=3 letter=Q: ([0],[2,2])\ndot: ([],[1])\n");
    EXPECT_EQ(PieceSet::from_attribute(set.attribute_text()).pieces()[0].weight, 3u);
}

// Any letter a piece file accepts reads back from the table's attribute:
// ':' too, which the attribute also uses after the name (a table made with
// 'letter :' was refused by every reader, issue 28).
TEST(PieceSet, EveryLetterAPieceFileTakesReadsBack) {
    for (const char letter : std::string("!\"$%&'()*+,-/:;<=>?@[\\]^_`{|}~Qz9")) {
        const PieceSet set =
            PieceSet::from_file_text(std::string("piece dot letter ") + letter + "\n#\n\npiece bar\n###\n");
        const PieceSet again = PieceSet::from_attribute(set.attribute_text());
        ASSERT_EQ(again.pieces().size(), 2u) << letter;
        EXPECT_EQ(again.pieces()[0].letter, letter);
        EXPECT_EQ(again.pieces()[0].name, "dot");
        EXPECT_EQ(again.attribute_text(), set.attribute_text()) << letter;
    }
}

// Mirror pairs: the tetrominoes' S and Z, and L and J, are each other's
// mirror images, the I, T and O their own; the built-in pentominoes are the
// twelve free pieces turned but not reflected, so the six chiral ones (F, L,
// N, P, Y, Z) have no image in the set; a set that lacks a piece's image, or
// weighs a pair unevenly, is not mirror-closed, and reflect closes it.
TEST(PieceSet, MirrorPartners) {
    const Rules& tetrominoes = Rules::tetrominoes();
    const std::vector<int> expected = {PieceI, PieceT, PieceSquare, PieceZLeft, PieceZRight, PieceLLeft, PieceLRight};
    EXPECT_EQ(tetrominoes.partners(), expected);
    EXPECT_TRUE(tetrominoes.mirror_closed());
    const Rules rectangles(PieceSet::builtin("rectangles"));
    EXPECT_TRUE(rectangles.mirror_closed());
    for (int piece = 0; piece < rectangles.piece_count(); ++piece)
        EXPECT_EQ(rectangles.partner(piece), piece);
    const Rules pentominoes(PieceSet::builtin("pentominoes"));
    EXPECT_FALSE(pentominoes.mirror_closed());
    int own_image = 0;
    for (int piece = 0; piece < pentominoes.piece_count(); ++piece) {
        EXPECT_EQ(pentominoes.partner(piece), piece);  // no two of them are each other's image
        const Orientation image = pentominoes.orientation(pentominoes.first_orientation(piece)).mirrored();
        for (int o = pentominoes.first_orientation(piece); o < pentominoes.first_orientation(piece + 1); ++o)
            own_image += pentominoes.orientation(o).same_shape(image);
    }
    EXPECT_EQ(own_image, 6);  // I, T, U, V, W and X
    const Rules s_alone(PieceSet::from_file_text("piece S\n.##\n##.\n"));
    EXPECT_EQ(s_alone.partners(), std::vector<int>{0});
    EXPECT_FALSE(s_alone.mirror_closed());
    const Rules uneven(PieceSet::from_file_text("piece S weight 2\n.##\n##.\n\npiece Z\n##.\n.##\n"));
    EXPECT_EQ(uneven.partners(), (std::vector<int>{1, 0}));
    EXPECT_FALSE(uneven.mirror_closed());
    const Rules even(PieceSet::from_file_text("piece Z\n##.\n.##\n\npiece O\n##\n##\n\npiece S\n.##\n##.\n"));
    EXPECT_EQ(even.partners(), (std::vector<int>{2, 1, 0}));
    EXPECT_TRUE(even.mirror_closed());
    const Rules reflected(PieceSet::from_file_text("piece S reflect\n.##\n##.\n"));
    EXPECT_TRUE(reflected.mirror_closed());
}

TEST(PieceSet, BadPieceFilesAreRefused) {
    for (const char* text : {
             "",                               // no pieces
             "###\n",                          // cells before any piece
             "piece a\n#.#\n",                 // not connected
             "piece a\n#x#\n",                 // a stray character
             "piece a\n.........#\n",          // wider than 8
             "piece a\n#\n\npiece a\n##\n",    // a name twice
             "piece a weight 0\n#\n",          // weight out of range
             "piece a weight -1\n#\n",         //
             "piece a weight 2x\n#\n",         //
             "piece a colour red\n#\n",        // an unknown word
             "piece\n#\n",                     // no name
             "piece a-b\n#\n",                 // a bad name
             "piece a\n",                      // no rows
             "piece a\n...\n",                 // no cells
             "piece ab\n#\n\npiece ac\n##\n",  // one letter for two pieces
             "piece o\n###\n#.#\n###\n",       // a gap in a column in every orientation
         }) {
        EXPECT_THROW(PieceSet::from_file_text(text), InputError) << text;
    }
    EXPECT_THROW(PieceSet::builtin("hexominoes"), InputError);
}

TEST(PieceSet, BadAttributesAreRefused) {
    for (const char* text : {
             "",                              // no pieces
             "i ([0],[1,1])\n",               // no colon
             "i: ([0],[1,1]\n",               // unclosed
             "i: ([0,0],[1,1])\n",            // steps and counts disagree
             "i: ([0],[1,1]) ([],[3])\n",     // cell counts differ
             "i: ([0],[1,1]) ([0],[1,1])\n",  // an orientation twice
             "i: ([],[0])\n",                 // an empty column
             "i: ([],[99999])\n",             // out of range
             "i:\n",                          // no orientations
             "i weight=0: ([],[1])\n",        // weight out of range
             "i size=2: ([],[1])\n",          // an unknown key
         }) {
        EXPECT_THROW(PieceSet::from_attribute(text), InputError) << text;
    }
}

// Rows spanned, counted by hand from the drawings: the flat I one row, the
// standing I four; the T pointing down (underside steps -1, +1) two; the S
// lying (steps 0, +1, cells 1,2,1) two; a hook whose middle column hangs
// two below its ends three.
TEST(Orientation, RowsCountTheSpanFromLowestToHighestCell) {
    EXPECT_EQ(shape({0, 0, 0}, {1, 1, 1, 1}).rows(), 1);
    EXPECT_EQ(shape({}, {4}).rows(), 4);
    EXPECT_EQ(shape({-1, 1}, {1, 2, 1}).rows(), 2);
    EXPECT_EQ(shape({0, 1}, {1, 1, 1}).rows(), 2);
    EXPECT_EQ(shape({-2, 2}, {1, 3, 1}).rows(), 3);
}

// A piece that fits the well in no orientation is refused, by width and by
// height; one that fits standing or lying is not.
TEST(Rules, CheckFitsRefusesAPieceThatFitsTheWellInNoOrientation) {
    const Rules& tetrominoes = Rules::tetrominoes();
    EXPECT_THROW(tetrominoes.check_fits(Geometry(1, 8)), InputError);  // the T needs two columns
    EXPECT_THROW(tetrominoes.check_fits(Geometry(3, 1)), InputError);  // the I lies in 4 columns, stands in 4 rows
    EXPECT_THROW(tetrominoes.check_fits(Geometry(2, 3)), InputError);
    EXPECT_NO_THROW(tetrominoes.check_fits(Geometry(2, 4)));
    const Rules bar(PieceSet::from_file_text("piece bar\n#####\n"));
    EXPECT_NO_THROW(bar.check_fits(Geometry(5, 1)));  // lying
    EXPECT_NO_THROW(bar.check_fits(Geometry(1, 5)));  // standing
    EXPECT_THROW(bar.check_fits(Geometry(4, 4)), InputError);
    const Rules block(PieceSet::from_file_text("piece block\n###\n###\n"));
    EXPECT_THROW(block.check_fits(Geometry(5, 1)), InputError);
    EXPECT_NO_THROW(block.check_fits(Geometry(2, 3)));
}

}  // namespace stack
