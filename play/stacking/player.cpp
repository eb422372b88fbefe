#include "stacking/player.h"

#include "support/interrupt.h"
#include "support/parallel.h"
#include "stacking/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace stack {

// The drawn piece sits at queue[0], the next ones after it; after each turn
// the queue moves up one and a new piece is drawn at its end.
std::uint32_t play_game(const StackingPolicy& policy, const Geometry& geometry, BoardId start, std::uint64_t seed,
                        std::uint64_t game, const TurnObserver& observer) {
    GameRandom pieces(seed, game, GameRandom::Pieces);
    GameRandom choices(seed, game, GameRandom::Choices);
    const Rules& rules = policy.rules();
    const int known = 1 + policy.preview();
    std::array<int, 1 + MaxLookahead> queue{};  // [0] drawn piece, [1..] the next ones
    for (int i = 0; i < known; ++i)
        queue[i] = pieces.next_piece(rules);
    Heights heights = geometry.decode(start);
    BoardId id = start;
    std::uint32_t placed = 0;
    for (;;) {
        const Turn turn{heights, id, queue[0], std::span<const int>(queue.data() + 1, known - 1), &choices};
        const Move move = policy.choose(turn);
        if (observer)
            observer(heights, id, queue[0], move);
        if (move.orientation < 0)
            return placed;
        heights = move.tetris  // a line-clear table's game: four rows cleared
                      ? after_tetris(heights, geometry.width())
                      : policy.placements().after(heights, move.orientation, move.column);
        id = move.successor;
        ++placed;
        std::copy(queue.begin() + 1, queue.begin() + known, queue.begin());
        queue[known - 1] = pieces.next_piece(rules);
    }
}

RunTotals play_games(const StackingPolicy& policy, const Geometry& geometry, BoardId start, std::uint64_t games,
                     std::uint64_t seed, int threads) {
    std::vector<RunTotals> partial(std::max(threads, 1));
    parallel_ranges(threads, games, [&](int part, std::uint64_t first, std::uint64_t end) {
        RunTotals& totals = partial[part];
        for (std::uint64_t game = first; game < end && !interrupted(); ++game) {
            const std::uint32_t length = play_game(policy, geometry, start, seed, game);
            ++totals.games;
            totals.pieces += length;
            totals.pieces_squared += std::uint64_t(length) * length;
            totals.best = std::max(totals.best, length);
            if (totals.lengths.size() <= length)
                totals.lengths.resize(length + 1);
            ++totals.lengths[length];
        }
    });
    RunTotals all;
    for (const RunTotals& totals : partial) {
        all.games += totals.games;
        all.pieces += totals.pieces;
        all.pieces_squared += totals.pieces_squared;
        all.best = std::max(all.best, totals.best);
        all.lengths.resize(std::max(all.lengths.size(), totals.lengths.size()));
        for (std::size_t k = 0; k < totals.lengths.size(); ++k)
            all.lengths[k] += totals.lengths[k];
    }
    return all;
}

Spread observed_spread(const RunTotals& totals) {
    Spread spread;
    const double n = double(totals.games);
    spread.mean = totals.pieces / n;
    const double variance = n > 1 ? (totals.pieces_squared - n * spread.mean * spread.mean) / (n - 1) : 0.0;
    spread.standard_deviation = std::sqrt(std::max(variance, 0.0));
    spread.standard_error = spread.standard_deviation / std::sqrt(n);
    return spread;
}

Comparison compare(const RunTotals& totals, double expected, double expected_variance) {
    Comparison result;
    result.expected = expected;
    const double n = double(totals.games);
    const Spread spread = observed_spread(totals);
    result.mean = spread.mean;
    result.standard_deviation = spread.standard_deviation;
    result.standard_error = std::sqrt(std::max(expected_variance, 0.0) / n);
    const double difference = result.mean - expected;
    result.z = result.standard_error > 0      ? difference / result.standard_error
               : std::abs(difference) < 1e-12 ? 0.0
                                              : std::copysign(INFINITY, difference);
    result.p_value = normal_two_sided_p(result.z);
    return result;
}

}  // namespace stack
