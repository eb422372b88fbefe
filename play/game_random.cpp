#include "game_random.h"

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

Piece GameRandom::next_piece() {
    // Top 3 bits give 0..7; rejecting 7 leaves 0..6 exactly uniform.
    for (;;) {
        const unsigned value = static_cast<unsigned>(next() >> 61);
        if (value < PieceCount)
            return Piece(value);
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
