#include "game_random.h"

#include <bit>

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

// Stream 0 keeps the seeding of stackplay 0.1, so old seeds replay the same
// pieces.
GameRandom::GameRandom(std::uint64_t seed, std::uint64_t game, Stream stream) {
    std::uint64_t mix = seed ^ splitmix64(game);
    for (std::uint64_t extra = stream; extra > 0; --extra)
        splitmix64(mix);
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

int GameRandom::next_piece(const Rules& rules) {
    const int count = rules.piece_count();
    if (rules.unit_weights()) {
        // Top b bits give 0..2^b-1, b the fewest that hold count-1; rejecting
        // count and above leaves 0..count-1 exactly uniform.
        const int bits = std::bit_width(unsigned(count - 1));
        if (bits == 0)
            return 0;
        for (;;) {
            const unsigned value = static_cast<unsigned>(next() >> (64 - bits));
            if (value < unsigned(count))
                return int(value);
        }
    }
    std::uint32_t ticket = below(std::uint32_t(rules.total_weight()));
    for (int piece = 0;; ++piece) {
        if (ticket < rules.weight(piece))
            return piece;
        ticket -= rules.weight(piece);
    }
}

// Lemire's multiply-and-reject: exactly uniform.
std::uint32_t GameRandom::below(std::uint32_t count) {
    const std::uint32_t threshold = std::uint32_t(0u - count) % count;  // 2^32 mod count
    for (;;) {
        const std::uint64_t product = (next() >> 32) * count;
        if (std::uint32_t(product) >= threshold)
            return std::uint32_t(product >> 32);
    }
}

}  // namespace stack
