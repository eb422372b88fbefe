// The exact distribution of a game's length under a deterministic policy.
//
// When every piece of the set has the same number of cells c (the
// tetrominoes, the pentominoes), after k placements a game is on a board
// with exactly ck more cells than the start: the boards reachable after k
// moves form layer k, and no board is in two layers. A forward pass carries
// the probability of each reachable board from layer k to layer k+1: each
// piece takes its share (weight / total weight, 1/7 for the tetrominoes) of
// it to the policy's successor, or, when the piece does not fit, ends the
// game there, adding to P(L = k). The pass touches only boards the policy
// can reach.
//
// When the pieces differ in size (the rectangles), one board can be reached
// after different numbers of moves, so the pass carries (board, moves)
// states instead, in increasing height sum: the successors of the states of
// sum s lie at sums s+1 .. s+K, K the set's most cells, and are merged, in
// one fixed order, when their sum's turn comes.
//
// Either pass runs on several threads and gives the same bits for any number
// of them: every sum is taken in one fixed order, the order of the layer
// (ids ascending) and then of the pieces, whichever thread computed its
// terms (distribution.cpp tells how).
#pragma once

#include "stacking/policy.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace stack {

struct LengthDistribution {
    std::vector<double> probability;  // [k] -> P(L = k)
    double mean = 0;
    double variance = 0;
    std::uint64_t boards = 0;        // reachable boards visited, over all layers
    std::uint64_t widest_layer = 0;  // most boards in one layer
};

// Requires policy.deterministic(). `memory_limit` bounds the pending states
// of the pass for pieces of different sizes (0: no bound); past it the pass
// throws DistributionTooLarge.
LengthDistribution exact_length_distribution(const StackingPolicy& policy, const Geometry& geometry, BoardId start,
                                             int threads = 1, std::uint64_t memory_limit = 0);

class DistributionTooLarge : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// About the most memory the pass can need on a well: a slot for every
// board of the largest height-sum class, a layer and the next, and the
// moves of a layer.
std::uint64_t exact_distribution_bytes(const Geometry& geometry, int pieces, int threads);

}  // namespace stack
