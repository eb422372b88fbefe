#include "rules/board.h"
#include "rules/residues.h"
#include "rules/compositions.h"
#include "support/errors.h"

#include <gtest/gtest.h>

namespace stack {

TEST(Board, EncodeDecodeRoundTripsEveryId) {
    for (auto [width, height] : {std::pair{1, 1}, {1, 7}, {3, 5}, {4, 6}, {5, 3}}) {
        const Geometry geometry(width, height);
        for (BoardId id = 0; id < geometry.states(); ++id)
            ASSERT_EQ(geometry.encode(geometry.decode(id)), id) << width << "x" << height;
    }
}

// decode divides by H+1 with a multiply and a correction: it must agree
// with plain division on ids all over the 64-bit range, for every base.
TEST(Board, DecodeAgreesWithDivisionAcrossTheIdRange) {
    std::uint64_t state = 12345;
    for (auto [width, height] : {std::pair{14, 20}, {16, 14}, {2, 1000000}, {3, 1}, {9, 20}}) {
        const Geometry geometry(width, height);
        for (int trial = 0; trial < 20000; ++trial) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const BoardId id = trial < 3 ? geometry.states() - 1 - trial : state % geometry.states();
            const Heights heights = geometry.decode(id);
            BoardId rest = id;
            int sum = 0;
            for (int column = 0; column < width; ++column) {
                ASSERT_EQ(heights[column], int(rest % (height + 1))) << id;
                sum += heights[column];
                rest /= height + 1;
            }
            ASSERT_EQ(geometry.height_sum(id), sum);
        }
    }
}

TEST(Board, MatchesTheReferenceWriteUpExample) {
    // From the reference's own notebook: 145672560876 -> [3,6,8,7,4,10,18,17,3].
    const Geometry geometry(9, 20);
    const Heights heights = geometry.decode(145672560876ull);
    EXPECT_EQ(geometry.format_heights(heights), "3,6,8,7,4,10,18,17,3");
    EXPECT_EQ(geometry.encode(geometry.parse_heights("3,6,8,7,4,10,18,17,3")), 145672560876ull);
}

TEST(Board, ColumnZeroIsTheLowestDigit) {
    const Geometry geometry(4, 20);
    EXPECT_EQ(geometry.encode(geometry.parse_heights("1,0,0,0")), 1u);
    EXPECT_EQ(geometry.encode(geometry.parse_heights("0,1,0,0")), 21u);
    EXPECT_EQ(geometry.encode(geometry.parse_heights("0,0,0,20")), 20u * 21 * 21 * 21);
    EXPECT_EQ(geometry.states(), 194481u);
    EXPECT_EQ(geometry.height_sum(geometry.encode(geometry.parse_heights("3,6,8,7"))), 24);
}

TEST(Board, RejectsBadShapes) {
    EXPECT_THROW(Geometry(0, 20), InputError);
    EXPECT_THROW(Geometry(4, 0), InputError);
    EXPECT_THROW(Geometry(-1, 5), InputError);
    EXPECT_THROW(Geometry(15, 20), InputError);  // 21^15 > 2^64
    EXPECT_NO_THROW(Geometry(14, 20));           // 21^14 < 2^64
    EXPECT_EQ(checked_state_count(15, 20), 0u);
    EXPECT_EQ(checked_state_count(9, 20), 794280046581ull);
}

TEST(Board, RejectsBadBoards) {
    const Geometry geometry(4, 20);
    EXPECT_THROW(geometry.parse_heights("1,2,3"), InputError);
    EXPECT_THROW(geometry.parse_heights("1,2,3,4,5"), InputError);
    EXPECT_THROW(geometry.parse_heights("1,2,3,21"), InputError);
    EXPECT_THROW(geometry.parse_heights("1,-2,3,4"), InputError);
    EXPECT_THROW(geometry.parse_heights("1,x,3,4"), InputError);
    EXPECT_THROW(geometry.parse_heights("1,2.5,3,4"), InputError);
    EXPECT_THROW(geometry.parse_heights(""), InputError);
    // Strict: no sign, no space, no empty item, no trailing comma.
    for (const char* text :
         {"+1,2,3,4", "1,2,3,4,", ",1,2,3,4", " 1,2,3,4", "1,2,3, 4", "1,,3,4", "1,2,3,4 ", "0x1,2,3,4", "1,2,3,4\n"})
        EXPECT_THROW(geometry.parse_heights(text), InputError) << text;
    EXPECT_EQ(geometry.format_heights(geometry.parse_heights("0,20,3,04")), "0,20,3,4");
}

TEST(ResidueSet, HoldsTheClassesAskedForModTheirModulus) {
    const ResidueSet all = ResidueSet::all(4);
    EXPECT_TRUE(all.all());
    EXPECT_EQ(all.count(), 4);
    EXPECT_EQ(all.text(), "0,1,2,3");
    const ResidueSet some = ResidueSet::of(5, {1, 4});
    EXPECT_EQ(some.modulus(), 5);
    EXPECT_TRUE(some.holds_sum(6) && some.holds_sum(9) && !some.holds_sum(5) && !some.holds_sum(7));
    EXPECT_FALSE(some.all());
    EXPECT_EQ(ResidueSet::all(64).count(), 64);
    EXPECT_THROW(ResidueSet::of(4, {4}), InputError);
    EXPECT_THROW(ResidueSet::of(4, {-1}), InputError);
    EXPECT_THROW(ResidueSet::of(4, {2, 2}), InputError);
    EXPECT_THROW(ResidueSet::of(4, {}), InputError);
    EXPECT_THROW(ResidueSet::all(0), InputError);
    EXPECT_THROW(ResidueSet::all(65), InputError);
}

}  // namespace stack

namespace stack {

// Walking every id of small wells in order, the boards of each height sum
// must get ranks 0, 1, 2, ... (so rank order is id order), unrank must give
// the board back, and count(sum) must be the number of boards of that sum.
TEST(CompositionCodec, RanksEachSumDenselyInIdOrderAndUnranks) {
    for (auto [width, height] : {std::pair{1, 5}, {2, 3}, {3, 4}, {4, 6}, {6, 3}}) {
        const Geometry geometry(width, height);
        const CompositionCodec codec(width, height);
        std::vector<std::uint64_t> next_rank(codec.max_sum() + 1, 0);
        for (BoardId id = 0; id < geometry.states(); ++id) {
            const Heights heights = geometry.decode(id);
            const int sum = geometry.height_sum(id);
            ASSERT_EQ(codec.rank(heights.data()), next_rank[sum]++) << width << "x" << height << " id " << id;
            Heights back{};
            codec.unrank(sum, codec.rank(heights.data()), back.data());
            ASSERT_EQ(back, heights) << width << "x" << height << " id " << id;
        }
        for (int sum = 0; sum <= codec.max_sum(); ++sum)
            EXPECT_EQ(codec.count(sum), next_rank[sum]) << width << "x" << height << " sum " << sum;
        EXPECT_EQ(codec.count(-1), 0u);
        EXPECT_EQ(codec.count(codec.max_sum() + 1), 0u);
        EXPECT_THROW(codec.unrank(0, 1, std::array<int, MaxWidth>{}.data()), std::out_of_range);
    }
}

// first() and next() walk each sum's vectors in rank order, as unrank
// numbers them, and next() says when the last is passed.
TEST(CompositionCodec, FirstAndNextWalkTheRanksInOrder) {
    // Every sum of each well; 7x7 walks all 8^7 vectors (7x20's 1.8e9, one
    // sum in 29, took 8 minutes under the sanitizers).
    for (auto [width, height] : {std::pair{1, 5}, {2, 3}, {3, 4}, {4, 6}, {6, 3}, {7, 7}}) {
        const CompositionCodec codec(width, height);
        for (int sum = 0; sum <= codec.max_sum(); ++sum) {
            Heights walked{}, ranked{};
            codec.first(sum, walked.data());
            std::uint64_t rank = 0;
            do {
                codec.unrank(sum, rank, ranked.data());
                ASSERT_EQ(walked, ranked) << width << "x" << height << " sum " << sum << " rank " << rank;
                ++rank;
            } while (codec.next(walked.data()));
            EXPECT_EQ(rank, codec.count(sum)) << width << "x" << height << " sum " << sum;
        }
    }
}

// A tall well costs tables of O(W^2 H), not O(W^2 H^2): the codec of two
// columns a million high is built at once, and its ranks are still dense.
TEST(CompositionCodec, TallWellsAreCheap) {
    const CompositionCodec codec(2, 1000000);
    EXPECT_EQ(codec.count(0), 1u);
    EXPECT_EQ(codec.count(1000000), 1000001u);
    EXPECT_EQ(codec.count(2000000), 1u);
    const int heights[2] = {999999, 1};
    EXPECT_EQ(codec.rank(heights), 1u);  // after (1000000, 0)
    int back[2] = {};
    codec.unrank(1000000, 1, back);
    EXPECT_EQ(back[0], 999999);
    EXPECT_EQ(back[1], 1);
    EXPECT_LT(CompositionCodec::table_bytes(2, 1000000), std::uint64_t(100) << 20);
}

// The classes of a 6x20 well partition its 85,766,121 ids.
TEST(CompositionCodec, ClassesAddUpToTheWholeWell) {
    const CompositionCodec codec(6, 20);
    std::uint64_t total = 0;
    for (int sum = 0; sum <= codec.max_sum(); ++sum)
        total += codec.count(sum);
    EXPECT_EQ(total, Geometry(6, 20).states());
    EXPECT_EQ(codec.count(0), 1u);
    EXPECT_EQ(codec.count(1), 6u);
    EXPECT_EQ(codec.count(120), 1u);
}

}  // namespace stack
