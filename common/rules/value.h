// The value equation, in one place for the generator, the player's checks,
// the verifier, the plain solver for any piece set and the tests:
//   V(s) = sum over pieces p of w_p * (1 + best_p) / sum over p of w_p
// where best_p is the best value of a successor after placing p, or -1 when
// p fits nowhere (which adds exactly 0), and w_p is p's draw weight (1 for
// each of the 7 tetrominoes, so V = sum of (1 + best_p) / 7). The sum runs
// over the pieces in order, then one division, so every layout, class
// subset and rank count writes the same bits; with unit weights each term
// is 1.0 * (1 + best_p), which is exactly 1 + best_p, so the weighted and
// the tetromino forms give the same bits.
#pragma once

#include "rules/placement.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace stack {

// Every piece drawn with the same weight.
struct UnitWeights {
    constexpr double operator[](int) const { return 1.0; }
};

// `best[piece * stride]` is the best successor value of the piece, or -1
// when the piece fits nowhere; `weights[piece]` its weight.
template <class Weights = UnitWeights>
inline double value_from_best(const double* best, std::size_t stride, int pieces, const Weights& weights = {}) {
    double sum = 0.0, total = 0.0;
    for (int piece = 0; piece < pieces; ++piece) {
        sum += double(weights[piece]) * (1.0 + best[std::size_t(piece) * stride]);
        total += double(weights[piece]);
    }
    return sum / total;
}

// The tetrominoes, each 1/7.
inline double value_from_best(const double* best, std::size_t stride = 1) {
    return value_from_best(best, stride, PieceCount);
}

// A piece set's pieces with their draw weights (piece_set.h).
inline double weighted_value_from_best(const double* best, const std::uint32_t* weights, int pieces) {
    return value_from_best(best, 1, pieces, weights);
}

// successor_value(orientation, column, offset) returns V of the successor.
// When `placements_found` is given, adds the number of valid placements per
// piece to it.
template <class SuccessorValue>
double state_value(const PlacementTable& table, const Heights& heights, SuccessorValue&& successor_value,
                   PieceCounts* placements_found = nullptr) {
    std::array<double, PieceCount> best;  // [piece] -> best successor value, -1 when none fits
    best.fill(-1.0);
    table.for_each_placement(heights, [&](int o, int x, BoardId offset) {
        const Piece piece = Orientations[o].piece;
        const double value = successor_value(o, x, offset);
        best[piece] = value > best[piece] ? value : best[piece];
        if (placements_found)
            ++(*placements_found)[piece];
    });
    return value_from_best(best.data());
}

}  // namespace stack
