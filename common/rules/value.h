// The value equation, in one place for the generator, the player's checks,
// the verifier and the tests:
//   V(s) = (1/7) * sum over pieces p with a valid placement of (1 + max V(s'))
// A piece with no placement contributes 0, so a state where nothing fits has
// value 0. value_from_best() takes the sum, and is the only code that does:
// pieces in enum order, each adding 1 + its best successor value (-1 when
// none fits, which adds exactly 0), then one division. stackgen's row
// kernel, the naive baseline and state_value() all call it, so every layout
// and rank count writes the same bits.
#pragma once

#include "rules/placement.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace stack {

using PieceCounts = std::array<std::uint64_t, PieceCount>;  // [piece] -> count

// `best[piece * stride]` is the best successor value of the piece, or -1
// when the piece fits nowhere.
inline double value_from_best(const double* best, std::size_t stride = 1) {
    double sum = 0.0;
    for (int piece = 0; piece < PieceCount; ++piece)
        sum += 1.0 + best[std::size_t(piece) * stride];
    return sum / double(PieceCount);
}

// The same equation for any piece set (piece_set.h), each piece drawn with
// probability weight / total weight:
//   V(s) = sum over pieces p of weight_p * (1 + best_p) / sum of weights
// with best_p = -1 when p fits nowhere; pieces in order, then one division.
// With unit weights every term is exactly value_from_best()'s, so for the
// tetrominoes the two give the same bits (tests/test_piece_values.cpp).
inline double weighted_value_from_best(const double* best, const std::uint32_t* weights, int pieces) {
    double sum = 0.0, total = 0.0;
    for (int piece = 0; piece < pieces; ++piece) {
        sum += double(weights[piece]) * (1.0 + best[piece]);
        total += double(weights[piece]);
    }
    return sum / total;
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
