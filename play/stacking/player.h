// The game, played with any policy (policy.h).
//
// A game starts from a board and draws pieces at random with the set's
// weights (rules.h); when the drawn piece has no valid placement the game
// ends (that piece does not count); otherwise the policy places it (with a
// line-clear table, the table policy may put the I into the well instead: a
// tetris, every column 4 lower). The result of a game is the number of
// pieces placed, tetrises included. Game g of a run draws from its own generators seeded by
// (seed, g) (game_random.h), so a run's results are identical for any number
// of threads, and every policy sees the same pieces.
#pragma once

#include "game_random.h"
#include "stacking/policy.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace stack {

// Called once per turn, before the board changes; move.orientation < 0 on
// the last turn, whose piece did not fit.
using TurnObserver = std::function<void(const Heights& heights, BoardId id, int piece, const Move& move)>;

// Plays game `game` of a run seeded by `seed`; returns the pieces placed.
std::uint32_t play_game(const StackingPolicy& policy, const Geometry& geometry, BoardId start, std::uint64_t seed,
                        std::uint64_t game, const TurnObserver& observer = {});

struct RunTotals {
    std::uint64_t games = 0;
    std::uint64_t pieces = 0;          // sum of game lengths
    std::uint64_t pieces_squared = 0;  // sum of squared game lengths
    std::uint32_t best = 0;
    std::vector<std::uint64_t> lengths;  // [k] -> games that placed exactly k pieces
};

// Plays games 0..games-1 from `start` on `threads` threads; after a Ctrl-C
// (support/interrupt.h) each thread stops before its next game, and the
// totals hold the games finished.
RunTotals play_games(const StackingPolicy& policy, const Geometry& geometry, BoardId start, std::uint64_t games,
                     std::uint64_t seed, int threads);

// The games' own mean and spread.
struct Spread {
    double mean = 0;
    double standard_deviation = 0;  // sample (n - 1)
    double standard_error = 0;      // of the mean, from the sample deviation
};
Spread observed_spread(const RunTotals& totals);

// The observed mean against a predicted mean and variance.
struct Comparison {
    double expected = 0;
    double mean = 0;
    double standard_deviation = 0;  // of the observed lengths
    double standard_error = 0;      // predicted: sqrt(variance / games)
    double z = 0;                   // (mean - expected) / standard_error; 0 when both agree with no spread
    double p_value = 1;             // two-sided
};
Comparison compare(const RunTotals& totals, double expected, double expected_variance);

}  // namespace stack
