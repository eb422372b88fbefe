// The digest of a table: the CRC-64/XZ (ECMA-182, as xz and liblzma
// compute it) of the bytes of /values, the values at the table's precision
// in the file's order (rounds of increasing row sum, each in id order:
// table_format.h). That order, and so the digest, is the same for any ranks
// x threads, and a reader checks it against the file by one pass.
//
// Writers compute it in pieces, each rank the CRC of the parts of the file
// it assembles, and rank 0 combines them: CRC(A || B) follows from CRC(A),
// CRC(B) and the length of B (the GF(2) arithmetic of zlib's
// crc32_combine, for the 64-bit polynomial).
#pragma once

#include "table/table_format.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stack {

// CRC-64/XZ of `bytes`, continuing `crc` (0 to start).
std::uint64_t crc64(const void* bytes, std::size_t count, std::uint64_t crc = 0);
// The CRC of A || B from crc_a = CRC(A), crc_b = CRC(B) and |B|.
std::uint64_t crc64_combine(std::uint64_t crc_a, std::uint64_t crc_b, std::uint64_t length_b);
// The CRC of consecutive pieces from their CRCs in order: every piece
// `length` bytes but the last, `last_length` (a GPU's digest, one piece a
// thread: gen/gpu_rounds.h). One multiplication a piece.
std::uint64_t crc64_of_pieces(std::span<const std::uint64_t> crcs, std::uint64_t length, std::uint64_t last_length);
// The byte-at-a-time table of CRC-64/XZ (reflected): crc = table[(crc ^
// byte) & 255] ^ (crc >> 8), from ~0, the result complemented.
std::array<std::uint64_t, 256> crc64_byte_table();
// "crc64:" and 16 hexadecimal digits.
std::string digest_text(std::uint64_t digest);

// One piece of /values: `length` bytes from byte `offset`, their CRC.
struct DigestPiece {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::uint64_t crc = 0;
};

// Rank 0: the rounds' CRCs from their pieces, then the whole digest.
class ValueDigest {
public:
    ValueDigest(const RoundLayout& layout, std::size_t value_size);
    // The pieces of round `sum`, in any order; they must cover the round's
    // bytes exactly (std::logic_error otherwise).
    void add_round(int sum, std::vector<DigestPiece> pieces);
    // A round's CRC known otherwise (read back from a partial table).
    void set_round(int sum, std::uint64_t crc);
    // The round's place in /values, in bytes.
    std::uint64_t round_offset(int sum) const;
    std::uint64_t round_bytes(int sum) const;
    // Every round's CRC combined in file order; std::logic_error when a
    // round is missing.
    std::uint64_t digest() const;

private:
    const RoundLayout& layout_;
    std::size_t value_size_;
    std::vector<std::uint64_t> crcs_;  // [sum]
    std::vector<std::uint8_t> known_;  // [sum]
};

}  // namespace stack
