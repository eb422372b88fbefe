#include "player.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace stack {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
std::uint64_t rotate_left(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

GameRandom::GameRandom(std::uint64_t seed, std::uint64_t game) {
    std::uint64_t mix = seed ^ splitmix64(game);
    for (std::uint64_t& word : state_)
        word = splitmix64(mix);
}

std::uint64_t GameRandom::next() {
    const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotate_left(state_[3], 45);
    return result;
}

Piece GameRandom::next_piece() {
    // Top 3 bits give 0..7; rejecting 7 leaves 0..6 exactly uniform.
    for (;;) {
        const unsigned value = static_cast<unsigned>(next() >> 61);
        if (value < PieceCount)
            return Piece(value);
    }
}

TablePlayer::TablePlayer(const Table& table)
    : placements_(Geometry(table.info.width, table.info.height)), values_(table.values) {}

Move TablePlayer::choose(const Heights& heights, BoardId id, Piece piece) const {
    Move best;
    double best_value = -1.0;
    placements_.for_each_placement(heights, [&](int o, int x, BoardId offset) {
        if (Orientations[o].piece != piece)
            return;
        const double value = values_[id + offset];
        const bool earlier = best.orientation < 0 || o < best.orientation || (o == best.orientation && x < best.column);
        if (value > best_value || (value == best_value && earlier)) {
            best_value = value;
            best = {o, x, id + offset};
        }
    });
    return best;
}

std::uint32_t TablePlayer::play(BoardId start, GameRandom& random) const {
    Heights heights = geometry().decode(start);
    BoardId id = start;
    std::uint32_t placed = 0;
    for (;;) {
        const Move move = choose(heights, id, random.next_piece());
        if (move.orientation < 0)
            return placed;
        const Orientation& orientation = Orientations[move.orientation];
        for (int k = 0; k < orientation.width; ++k)
            heights[move.column + k] += orientation.added[k];
        id = move.successor;
        ++placed;
    }
}

RunTotals play_games(const TablePlayer& player, BoardId start, std::uint64_t games, std::uint64_t seed,
                     int threads) {
    threads = static_cast<int>(std::clamp<std::uint64_t>(threads, 1, std::max<std::uint64_t>(games, 1)));
    std::vector<RunTotals> partial(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            RunTotals& totals = partial[t];
            for (std::uint64_t game = games * t / threads; game < games * (t + 1) / threads; ++game) {
                GameRandom random(seed, game);
                const std::uint32_t length = player.play(start, random);
                ++totals.games;
                totals.pieces += length;
                totals.pieces_squared += std::uint64_t(length) * length;
                totals.best = std::max(totals.best, length);
            }
        });
    }
    for (std::thread& worker : workers)
        worker.join();
    RunTotals all;
    for (const RunTotals& totals : partial) {
        all.games += totals.games;
        all.pieces += totals.pieces;
        all.pieces_squared += totals.pieces_squared;
        all.best = std::max(all.best, totals.best);
    }
    return all;
}

Comparison compare(const RunTotals& totals, double expected) {
    Comparison result;
    result.expected = expected;
    const double n = double(totals.games);
    result.mean = totals.pieces / n;
    const double variance = n > 1 ? (totals.pieces_squared - n * result.mean * result.mean) / (n - 1) : 0.0;
    result.standard_deviation = std::sqrt(std::max(variance, 0.0));
    result.standard_error = result.standard_deviation / std::sqrt(n);
    const double difference = result.mean - expected;
    result.z = result.standard_error > 0 ? difference / result.standard_error
               : std::abs(difference) < 1e-12 ? 0.0 : std::copysign(INFINITY, difference);
    return result;
}

}  // namespace stack
