// The table digest's CRC-64: the standard's check value, and combining.
#include "table/digest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

namespace stack {

// CRC-64/XZ's published check value: the CRC of the nine ASCII digits.
TEST(Digest, IsCrc64XzByItsCheckValue) {
    const std::string digits = "123456789";
    EXPECT_EQ(crc64(digits.data(), digits.size()), 0x995DC9BBDF1939FAULL);
    EXPECT_EQ(digest_text(0x995DC9BBDF1939FAULL), "crc64:995dc9bbdf1939fa");
}

// CRC(A || B) from the two CRCs and |B|, for every split of random bytes,
// empty parts included.
TEST(Digest, CombiningPartsGivesTheWholesCrc) {
    std::mt19937_64 random(7);
    std::vector<unsigned char> bytes(3000);
    for (unsigned char& byte : bytes)
        byte = static_cast<unsigned char>(random());
    const std::uint64_t whole = crc64(bytes.data(), bytes.size());
    for (std::size_t split :
         {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1024), std::size_t(2999), std::size_t(3000)}) {
        const std::uint64_t left = crc64(bytes.data(), split);
        const std::uint64_t right = crc64(bytes.data() + split, bytes.size() - split);
        EXPECT_EQ(crc64_combine(left, right, bytes.size() - split), whole) << "split at " << split;
    }
    EXPECT_NE(crc64_combine(crc64(bytes.data(), 10), crc64(bytes.data() + 10, 2990), 2989), whole);
}

// A round's pieces in any order make the round's CRC; a gap is a bug.
TEST(Digest, FoldsARoundsPiecesInAnyOrderAndRefusesAGap) {
    const RoundLayout layout(Geometry(3, 4), ResidueSet::all(4));
    ValueDigest digest(layout, sizeof(double));
    std::vector<unsigned char> bytes;
    for (int sum = 0; sum < layout.rounds(); ++sum) {
        std::vector<unsigned char> round(digest.round_bytes(sum));
        for (std::size_t i = 0; i < round.size(); ++i)
            round[i] = static_cast<unsigned char>(i * 37 + std::size_t(sum));
        bytes.insert(bytes.end(), round.begin(), round.end());
        const std::uint64_t half = round.size() / 2, offset = digest.round_offset(sum);
        std::vector<DigestPiece> pieces = {
            {offset + half, round.size() - half, crc64(round.data() + half, round.size() - half)},
            {offset, half, crc64(round.data(), half)}};
        digest.add_round(sum, pieces);
        if (half > 0) {
            ValueDigest gap(layout, sizeof(double));
            EXPECT_THROW(gap.add_round(sum, {pieces[0]}), std::logic_error);
        }
    }
    EXPECT_EQ(digest.digest(), crc64(bytes.data(), bytes.size()));
    ValueDigest missing(layout, sizeof(double));
    EXPECT_THROW(missing.digest(), std::logic_error);
}

// A GPU's digest: equal pieces (the last shorter) CRC'd byte at a time by
// the table, then folded by crc64_of_pieces, give the whole's CRC.
TEST(Digest, EqualPiecesByTheByteTableFoldIntoTheWholesCrc) {
    const std::array<std::uint64_t, 256> table = crc64_byte_table();
    const auto by_table = [&](const unsigned char* bytes, std::size_t count) {
        std::uint64_t crc = ~std::uint64_t(0);
        for (std::size_t i = 0; i < count; ++i)
            crc = table[(crc ^ bytes[i]) & 255] ^ (crc >> 8);
        return ~crc;
    };
    std::mt19937_64 random(7);
    for (const std::size_t total : {std::size_t(1), std::size_t(4096), std::size_t(10000), std::size_t(65537)}) {
        std::vector<unsigned char> bytes(total);
        for (unsigned char& b : bytes)
            b = static_cast<unsigned char>(random());
        EXPECT_EQ(by_table(bytes.data(), total), crc64(bytes.data(), total));
        for (const std::size_t length : {std::size_t(8), std::size_t(1000), std::size_t(4096)}) {
            std::vector<std::uint64_t> crcs;
            for (std::size_t at = 0; at < total; at += length)
                crcs.push_back(by_table(bytes.data() + at, std::min(length, total - at)));
            const std::size_t last = total - (crcs.size() - 1) * length;
            EXPECT_EQ(crc64_of_pieces(crcs, length, last), crc64(bytes.data(), total)) << total << " " << length;
        }
    }
}

}  // namespace stack
