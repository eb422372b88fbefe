#include "rules/rules.h"

#include "rules/pieces.h"
#include "support/errors.h"

#include <algorithm>

namespace stack {

Rules::Rules(PieceSet set) : set_(std::move(set)) {
    for (const PieceShape& piece : set_.pieces()) {
        first_.push_back(int(orientations_.size()));
        for (const Orientation& orientation : piece.orientations) {
            if (orientation.width == 1)
                one_column_.push_back(int(orientations_.size()));
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
