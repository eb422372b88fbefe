// The value recursion, in one place for the generator, the player's checks
// and the tests:
//   V(s) = (1/7) * sum over pieces p with a valid placement of (1 + max V(s'))
// A piece with no placement contributes 0, so a state where nothing fits has
// value 0. The order of the sum is fixed (pieces in enum order, then one
// division), so the player, the tests and stackgen's row kernel (which
// follows the same order, gen/solver.cpp) agree to the bit, for any number
// of ranks.
#pragma once

#include "placement.h"

#include <array>
#include <cstdint>

namespace stack {

using PieceCounts = std::array<std::uint64_t, PieceCount>;  // [piece] -> count

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
    double sum = 0.0;
    for (int piece = 0; piece < PieceCount; ++piece)
        if (best[piece] >= 0.0)
            sum += 1.0 + best[piece];
    return sum / double(PieceCount);
}

}  // namespace stack
