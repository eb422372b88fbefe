// The table digest's CRC-64: the standard's check value, and combining.
#include "table/digest.h"

#include <gtest/gtest.h>

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

}  // namespace stack
