#include "rules/rules.h"

#include "rules/pieces.h"
#include "support/errors.h"

#include <algorithm>
#include <tuple>

namespace stack {

Rules::Rules(PieceSet set) : set_(std::move(set)) {
    for (const PieceShape& piece : set_.pieces()) {
        first_.push_back(int(orientations_.size()));
        for (const Orientation& orientation : piece.orientations) {
            if (orientation.width == 1)
                one_column_.push_back(int(orientations_.size()));
            if (orientation.width == 1 && orientation.added[0] == TetrisRows && piece.cell_count() == TetrisRows
                && tetris_piece_ < 0)
                tetris_piece_ = int(first_.size()) - 1;
            orientations_.push_back(orientation);
        }
        cells_.push_back(piece.cell_count());
        weights_.push_back(piece.weight);
        total_weight_ += piece.weight;
        unit_weights_ = unit_weights_ && piece.weight == 1;
    }
    first_.push_back(int(orientations_.size()));
    modulus_ = set_.cell_gcd();
    fewest_cells_ = set_.smallest_piece_cells();
    most_cells_ = *std::max_element(cells_.begin(), cells_.end());
    is_tetrominoes_ = set_.attribute_text() == TetrominoTable;
    find_partners();
}

namespace {

// The orientations of a piece as a set of shapes, in a fixed order.
std::vector<Orientation> shapes_of(const std::vector<Orientation>& orientations, bool mirror) {
    std::vector<Orientation> shapes;
    for (Orientation orientation : orientations) {
        orientation = mirror ? orientation.mirrored() : orientation;
        orientation.piece = 0;
        shapes.push_back(orientation);
    }
    const auto key = [](const Orientation& o) { return std::tuple(o.width, o.surface, o.added); };
    std::sort(shapes.begin(), shapes.end(),
              [&](const Orientation& a, const Orientation& b) { return key(a) < key(b); });
    return shapes;
}

bool same_shapes(const std::vector<Orientation>& a, const std::vector<Orientation>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const Orientation& x, const Orientation& y) { return x.same_shape(y); });
}

}  // namespace

// Pairs each piece with the first piece not yet paired whose orientations
// are its mirror images, as a set of shapes: what a placement can do is all
// the value sees, so two pieces of one shape set play as one.
void Rules::find_partners() {
    const std::vector<PieceShape>& pieces = set_.pieces();
    partners_.assign(pieces.size(), -1);
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        if (partners_[p] >= 0)
            continue;
        partners_[p] = int(p);
        const std::vector<Orientation> image = shapes_of(pieces[p].orientations, true);
        for (std::size_t q = p; q < pieces.size(); ++q) {
            if (q != p && partners_[q] >= 0)
                continue;
            if (same_shapes(shapes_of(pieces[q].orientations, false), image)) {
                partners_[p] = int(q);
                partners_[q] = int(p);
                break;
            }
        }
        const bool paired = partners_[p] != int(p) || same_shapes(shapes_of(pieces[p].orientations, false), image);
        mirror_closed_ = mirror_closed_ && paired && pieces[p].weight == pieces[std::size_t(partners_[p])].weight;
    }
}

const Rules& Rules::tetrominoes() {
    static const Rules rules(PieceSet::builtin("tetrominoes"));
    return rules;
}

int Rules::narrowest(int piece) const {
    int narrowest = MostPieceColumns + 1;
    for (int o = first_orientation(piece); o < first_orientation(piece + 1); ++o)
        narrowest = std::min(narrowest, orientations_[std::size_t(o)].width);
    return narrowest;
}

// A piece that fits the well in no orientation would end every game it is
// drawn in, whatever the stack: almost certainly a piece file made for
// another well, so it is refused rather than solved.
void Rules::check_fits(const Geometry& geometry) const {
    for (int piece = 0; piece < piece_count(); ++piece) {
        if (narrowest(piece) > geometry.width())
            throw InputError("piece '" + name(piece) + "' is wider than the " + std::to_string(geometry.width())
                             + "-column well in every orientation (at least " + std::to_string(narrowest(piece))
                             + " columns)");
        int lowest = MostPieceColumns + 1;
        for (int o = first_orientation(piece); o < first_orientation(piece + 1); ++o)
            if (orientation(o).width <= geometry.width())
                lowest = std::min(lowest, orientation(o).rows());
        if (lowest > geometry.height())
            throw InputError("piece '" + name(piece) + "' is taller than the " + std::to_string(geometry.height())
                             + "-row well in every orientation that fits its " + std::to_string(geometry.width())
                             + " columns (at least " + std::to_string(lowest) + " rows)");
    }
}

}  // namespace stack
