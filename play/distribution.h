// The exact distribution of a game's length under a deterministic policy.
//
// Every placement adds 4 cells, so after k placements a game is on a board
// with exactly 4k more cells than the start: the boards reachable after k
// moves form layer k, and no board is in two layers. A forward pass carries
// the probability of each reachable board from layer k to layer k+1: each of
// the 7 pieces takes 1/7 of it to the policy's successor, or, when the piece
// does not fit, ends the game there, adding to P(L = k). The pass touches
// only boards the policy can reach.
//
// The pass runs on several threads and gives the same bits for any number
// of them: every sum is taken in one fixed order, the order of the layer
// (ids ascending) and then of the pieces, whichever thread computed its
// terms (distribution.cpp tells how).
#pragma once

#include "policy.h"

#include <cstdint>
#include <vector>

namespace stack {

struct LengthDistribution {
    std::vector<double> probability;  // [k] -> P(L = k)
    double mean = 0;
    double variance = 0;
    std::uint64_t boards = 0;        // reachable boards visited, over all layers
    std::uint64_t widest_layer = 0;  // most boards in one layer
};

// Requires policy.deterministic().
LengthDistribution exact_length_distribution(const Policy& policy, const Geometry& geometry, BoardId start,
                                             int threads = 1);

// About the most memory the pass can need on a well: a slot for every
// board of the largest height-sum class, a layer and the next, and the
// moves of a layer.
std::uint64_t exact_distribution_bytes(const Geometry& geometry, int threads);

}  // namespace stack
