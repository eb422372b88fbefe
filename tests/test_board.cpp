#include "board.h"
#include "errors.h"

#include <gtest/gtest.h>

namespace stack {

TEST(Board, EncodeDecodeRoundTripsEveryId) {
    for (auto [width, height] : {std::pair{1, 1}, {1, 7}, {3, 5}, {4, 6}, {5, 3}}) {
        const Geometry geometry(width, height);
        for (BoardId id = 0; id < geometry.states(); ++id)
            ASSERT_EQ(geometry.encode(geometry.decode(id)), id) << width << "x" << height;
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
    EXPECT_NO_THROW(Geometry(14, 20));          // 21^14 < 2^64
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
}

}  // namespace stack
