// Slice starts (slice_starts.h): a 16-bit offset a chunk from a 64-bit base a
// block must give every chunk the row a plain prefix sum gives, whatever the
// height (the block's size follows it), the threads that lay it out, and for
// a height too tall for any block (the plain array kept). Rows are drawn at
// random up to H+1 a chunk, as a slice holds at most that many, so blocks
// reach their 16-bit limit.
#include "slice_starts.h"

#include "support/parallel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace stack {
namespace {

std::vector<std::uint64_t> plain_starts(const std::vector<std::uint32_t>& rows) {
    std::vector<std::uint64_t> starts(rows.size() + 1, 0);
    for (std::size_t chunk = 0; chunk < rows.size(); ++chunk)
        starts[chunk + 1] = starts[chunk] + rows[chunk];
    return starts;
}

SliceStarts lay_out(const std::vector<std::uint32_t>& rows, int height, int parts) {
    SliceStarts starts;
    starts.lay_out(
        rows.size(), height, parts, [&](std::uint64_t chunk) { return std::uint64_t(rows[chunk]); },
        [](int count, std::uint64_t blocks, auto&& work) { parallel_ranges(count, blocks, work); });
    return starts;
}

TEST(SliceStarts, EqualThePlainPrefixSum) {
    std::mt19937_64 random(58);
    for (const int height : {1, 4, 18, 20, 63, 1000, 40000, 1000000})
        for (const std::uint64_t chunks : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(1023),
                                           std::uint64_t(1024), std::uint64_t(5000), std::uint64_t(70001)})
            for (const int parts : {1, 2, 3, 7}) {
                const std::string what = "H=" + std::to_string(height) + ", " + std::to_string(chunks) + " chunks, "
                                         + std::to_string(parts) + " parts";
                std::vector<std::uint32_t> rows(chunks);
                // Full slices mostly (the blocks' worst case), some empty.
                for (std::uint32_t& count : rows)
                    count = random() % 4 == 0 ? std::uint32_t(random() % (std::uint64_t(height) + 2))
                                              : std::uint32_t(height + 1);
                const std::vector<std::uint64_t> expected = plain_starts(rows);
                const SliceStarts starts = lay_out(rows, height, parts);
                ASSERT_EQ(starts.size(), chunks + 1) << what;
                ASSERT_EQ(starts.rows(), expected.back()) << what;
                const SliceStartsView view = starts.view();
                for (std::uint64_t chunk = 0; chunk <= chunks; ++chunk) {
                    ASSERT_EQ(starts[chunk], expected[chunk]) << what << ", chunk " << chunk;
                    ASSERT_EQ(view[chunk], expected[chunk]) << what << ", chunk " << chunk << " (view)";
                }
            }
}

// The bytes counted (what --plan and the capacity checks add up) are what
// the arrays hold, and a quarter of a plain array's or less where blocks
// are possible.
TEST(SliceStarts, BytesAreCountedAndSmall) {
    for (const int height : {10, 18, 20, 1000, 40000}) {
        const std::uint64_t chunks = 100000;
        const std::vector<std::uint32_t> rows(chunks, std::uint32_t(height + 1));
        const SliceStarts starts = lay_out(rows, height, 2);
        EXPECT_EQ(starts.bytes(), SliceStarts::bytes(chunks, height)) << "H=" << height;
        if (SliceStarts::block_shift(height) >= 0) {
            EXPECT_LE(starts.bytes(), (chunks + 1) * sizeof(std::uint64_t) / 3) << "H=" << height;
        }
    }
    EXPECT_EQ(SliceStarts::block_shift(40000), -1);  // 2 (H+1) rows overflow 16 bits: the plain array
    EXPECT_EQ(SliceStarts::block_shift(18), 10);
}

}  // namespace
}  // namespace stack
