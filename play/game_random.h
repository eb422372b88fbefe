// The game's random numbers: xoshiro256** seeded through splitmix64, small,
// fast and reproducible across platforms (unlike std::uniform_int_
// distribution). Game g of a run with seed s draws its pieces from stream 0
// of (s, g) and a random policy's choices from stream 1, so every policy
// sees the same pieces for the same seed, and a run's results do not depend
// on how games are spread over threads.
#pragma once

#include "rules/rules.h"

#include <cstdint>

namespace stack {

class GameRandom {
public:
    enum Stream : std::uint64_t { Pieces = 0, Choices = 1 };

    GameRandom(std::uint64_t seed, std::uint64_t game, Stream stream = Pieces);
    std::uint64_t next();
    // A piece of the set, each with probability weight / total weight. Unit
    // weights take the top bits, rejection-sampled (for the 7 tetrominoes the
    // draws of stackplay 0.1, so old seeds replay the same pieces); other
    // weights take below(total) against the cumulative weights.
    int next_piece(const Rules& rules);
    std::uint32_t below(std::uint32_t count);  // uniform over [0, count), count >= 1

private:
    std::uint64_t state_[4];
};

}  // namespace stack
