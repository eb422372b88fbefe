// The value equation, in one place for the generator (gen/solver.h), the
// verifier (gen/verify/verify.h), the plain solver for any piece set
// (piece_values.h) and the tests' naive solver and benchmarks:
//   V(s) = sum over pieces p of w_p * (1 + best_p) / sum over p of w_p
// where best_p is the best value of a successor after placing p, or -1 when
// p fits nowhere (which adds exactly 0), and w_p is p's draw weight (1 for
// each of the 7 tetrominoes, so V = sum of (1 + best_p) / 7). The sum runs
// over the pieces in order (each mirror pair added first, below), then one
// division, so every layout, class subset and rank count writes the same
// bits, and a board and its mirror image too; with unit weights each term
// is 1.0 * (1 + best_p), which is exactly 1 + best_p, so the weighted and
// the tetromino forms give the same bits.
#pragma once

#include "rules/placement.h"
#include "support/host_device.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace stack {

// Every piece drawn with the same weight.
struct UnitWeights {
    STACK_HD constexpr double operator[](int) const { return 1.0; }
};

// `best[piece * stride]` is the best successor value of the piece, or -1
// when the piece fits nowhere; `weights[piece]` its weight. The sum takes
// the pieces in the set's order, but each mirror pair as one term, its two
// pieces added first (`partner[piece]`, Rules::partners; nullptr: every
// piece alone, the order of format-2 tables): IEEE addition commutes, so a
// board and its mirror image, whose pair terms are swapped, get the same
// bits (table_format.h). The GPU runs this same function (STACK_HD),
// compiled with fused multiply-adds off, so its bits are the host's.
template <class Weights = UnitWeights>
STACK_HD inline double value_from_best(const double* best, std::size_t stride, int pieces, const Weights& weights = {},
                                       const int* partner = nullptr) {
    double sum = 0.0, total = 0.0;
    for (int piece = 0; piece < pieces; ++piece) {
        const int other = partner ? partner[piece] : piece;
        if (other < piece)
            continue;  // taken with its partner
        double term = double(weights[piece]) * (1.0 + best[std::size_t(piece) * stride]);
        double weight = double(weights[piece]);
        if (other > piece) {
            term = term + double(weights[other]) * (1.0 + best[std::size_t(other) * stride]);
            weight = weight + double(weights[other]);
        }
        sum += term;
        total += weight;
    }
    return sum / total;
}

// A set's pieces with their draw weights (rules.h): `best[piece * stride]`
// for each of its pieces, summed by mirror pairs (`pairs` false: in the
// set's order, as format-2 tables were). Unit weights take the first
// form's bits.
inline double value_from_best(const double* best, std::size_t stride, const Rules& rules, bool pairs = true) {
    const int* partner = pairs ? rules.partners().data() : nullptr;
    return rules.unit_weights() ? value_from_best(best, stride, rules.piece_count(), UnitWeights{}, partner)
                                : value_from_best(best, stride, rules.piece_count(), rules.weights().data(), partner);
}

// successor_value(orientation, column, offset) returns V of the successor.
// When `placements_found` is given, adds the number of valid placements per
// piece to it.
template <class SuccessorValue>
double state_value(const PlacementTable& table, const Heights& heights, SuccessorValue&& successor_value,
                   PieceCounts* placements_found = nullptr) {
    const Rules& rules = table.rules();
    std::array<double, MostPieces> best;  // [piece] -> best successor value, -1 when none fits
    std::fill_n(best.begin(), rules.piece_count(), -1.0);
    table.for_each_placement(heights, [&](int o, int x, BoardId offset) {
        const int piece = rules.orientation(o).piece;
        const double value = successor_value(o, x, offset);
        best[std::size_t(piece)] = value > best[std::size_t(piece)] ? value : best[std::size_t(piece)];
        if (placements_found)
            ++(*placements_found)[std::size_t(piece)];
    });
    return value_from_best(best.data(), 1, rules);
}

}  // namespace stack
