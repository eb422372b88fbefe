#include "table/digest.h"

#include <lzma.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

namespace stack {

namespace {

// ECMA-182 reflected, as CRC-64/XZ: bit 63 stands for x^0.
constexpr std::uint64_t Polynomial = 0xC96C5795D7870F42ULL;

// a(x) b(x) mod p(x), reflected.
std::uint64_t multiply_mod(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    for (std::uint64_t bit = std::uint64_t(1) << 63; bit != 0; bit >>= 1) {
        if (a & bit)
            product ^= b;
        b = b & 1 ? (b >> 1) ^ Polynomial : b >> 1;
    }
    return product;
}

// [k] -> x^(2^k) mod p.
std::array<std::uint64_t, 64> powers_of_two() {
    std::array<std::uint64_t, 64> powers{};
    std::uint64_t power = std::uint64_t(1) << 62;  // x^1
    for (std::uint64_t& entry : powers) {
        entry = power;
        power = multiply_mod(power, power);
    }
    return powers;
}

// x^(n 2^k) mod p.
std::uint64_t x_to_the(std::uint64_t n, unsigned k) {
    static const std::array<std::uint64_t, 64> powers = powers_of_two();
    std::uint64_t result = std::uint64_t(1) << 63;  // x^0
    for (; n != 0; n >>= 1, ++k)
        if (n & 1)
            result = multiply_mod(powers[k & 63], result);
    return result;
}

}  // namespace

std::uint64_t crc64(const void* bytes, std::size_t count, std::uint64_t crc) {
    return lzma_crc64(static_cast<const std::uint8_t*>(bytes), count, crc);
}

std::uint64_t crc64_combine(std::uint64_t crc_a, std::uint64_t crc_b, std::uint64_t length_b) {
    return multiply_mod(x_to_the(length_b, 3), crc_a) ^ crc_b;  // 2^3 bits a byte
}

std::uint64_t crc64_of_pieces(std::span<const std::uint64_t> crcs, std::uint64_t length, std::uint64_t last_length) {
    const std::uint64_t shift = x_to_the(length, 3);
    std::uint64_t crc = 0;
    for (std::size_t i = 0; i < crcs.size(); ++i)
        crc = i + 1 < crcs.size() ? multiply_mod(shift, crc) ^ crcs[i] : crc64_combine(crc, crcs[i], last_length);
    return crc;
}

std::array<std::uint64_t, 256> crc64_byte_table() {
    std::array<std::uint64_t, 256> table{};
    for (std::uint64_t byte = 0; byte < 256; ++byte) {
        std::uint64_t crc = byte;
        for (int bit = 0; bit < 8; ++bit)
            crc = crc & 1 ? (crc >> 1) ^ Polynomial : crc >> 1;
        table[byte] = crc;
    }
    return table;
}

std::string digest_text(std::uint64_t digest) {
    char text[32];
    std::snprintf(text, sizeof text, "crc64:%016llx", static_cast<unsigned long long>(digest));
    return text;
}

ValueDigest::ValueDigest(const RoundLayout& layout, std::size_t value_size)
    : layout_(layout), value_size_(value_size), crcs_(std::size_t(layout.rounds()), 0),
      known_(std::size_t(layout.rounds()), 0) {}

std::uint64_t ValueDigest::round_offset(int sum) const { return layout_.round_offset(sum) * value_size_; }

std::uint64_t ValueDigest::round_bytes(int sum) const { return layout_.round_values(sum) * value_size_; }

void ValueDigest::add_round(int sum, std::vector<DigestPiece> pieces) {
    std::sort(pieces.begin(), pieces.end(),
              [](const DigestPiece& a, const DigestPiece& b) { return a.offset < b.offset; });
    std::uint64_t at = round_offset(sum), crc = 0;
    for (const DigestPiece& piece : pieces) {
        if (piece.length == 0)
            continue;
        if (piece.offset != at)
            throw std::logic_error("the digest's pieces of round " + std::to_string(sum)
                                   + " leave a gap or overlap (a bug: please report it)");
        crc = crc64_combine(crc, piece.crc, piece.length);
        at += piece.length;
    }
    if (at != round_offset(sum) + round_bytes(sum))
        throw std::logic_error("the digest's pieces of round " + std::to_string(sum)
                               + " do not cover it (a bug: please report it)");
    set_round(sum, crc);
}

void ValueDigest::set_round(int sum, std::uint64_t crc) {
    crcs_[std::size_t(sum)] = crc;
    known_[std::size_t(sum)] = 1;
}

std::uint64_t ValueDigest::digest() const {
    std::uint64_t crc = 0;
    for (int sum = 0; sum < layout_.rounds(); ++sum) {
        if (!known_[std::size_t(sum)])
            throw std::logic_error("the digest misses round " + std::to_string(sum) + " (a bug: please report it)");
        crc = crc64_combine(crc, crcs_[std::size_t(sum)], round_bytes(sum));
    }
    return crc;
}

}  // namespace stack
