// The partition (partition.h): every row owned once and counted by round,
// the lower columns it refuses, and the counting partition of --plan.
#include "partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace stack {

TEST(Partition, OwnsEveryRowOnceAndCountsThemByRound) {
    const Geometry geometry(5, 6);
    for (int ranks : {1, 3, 4})
        for (int lower = 1; lower <= Partition::MaxLowerColumns; ++lower) {
            std::vector<int> seen(geometry.states() / geometry.base(), 0);
            std::uint64_t rows = 0;
            for (int rank = 0; rank < ranks; ++rank) {
                const Partition partition(geometry, ranks, rank, lower);
                const std::vector<std::uint64_t> per_round = partition.owned_rows_per_round();
                for (int sum = 0; sum < partition.rounds(); ++sum) {
                    std::uint64_t counted = 0;
                    for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); ++chunk) {
                        const std::uint64_t before = counted;
                        Heights heights = geometry.decode(partition.chunk_first(chunk));
                        partition.for_each_row_of_slice(
                            heights, sum - partition.upper_sum(chunk),
                            [&](std::uint64_t row, const Heights& row_heights) {
                                const BoardId id = geometry.encode(row_heights);
                                EXPECT_EQ(partition.owner(id), rank);
                                EXPECT_EQ(row, partition.row_in_slice(row_heights, sum - partition.upper_sum(chunk)));
                                ++seen[id / geometry.base()];
                                ++counted;
                            });
                        EXPECT_EQ(counted - before, partition.slice_rows(chunk, sum));
                    }
                    EXPECT_EQ(counted, per_round[sum]);
                    rows += counted;
                }
            }
            EXPECT_EQ(rows, seen.size());
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(seen.size()));
        }
}

TEST(Partition, RefusesMoreLowerColumnsThanItsSliceWalkHandles) {
    const Geometry geometry(6, 4);
    EXPECT_NO_THROW(Partition(geometry, 2, 0, Partition::MaxLowerColumns));
    EXPECT_THROW(Partition(geometry, 2, 0, Partition::MaxLowerColumns + 1), std::invalid_argument);
    EXPECT_THROW(Partition(geometry, 2, 0, -1), std::invalid_argument);
}

// A counting partition (stackgen --plan's) lists no upper sums, yet counts
// every rank's chunks and rows exactly as the real partition does, by its
// table of digit sums or by listing the chunks, whichever it picks.
TEST(Partition, CountingPartitionCountsAsTheRealOne) {
    const struct {
        int width, height, ranks;
    } cases[] = {{1, 5, 1}, {2, 3, 2}, {4, 6, 1}, {5, 4, 3}, {6, 5, 7}, {7, 4, 64}, {6, 6, 5000}, {8, 8, 100000}};
    for (const auto& c : cases) {
        const Geometry geometry(c.width, c.height);
        for (const int rank : {0, 1, c.ranks / 2, c.ranks - 1}) {
            if (rank >= c.ranks)
                continue;
            const Partition real(geometry, c.ranks, rank);
            const Partition counting = Partition::counting(geometry, c.ranks, rank);
            ASSERT_TRUE(counting.counts_only());
            EXPECT_TRUE(counting.rows_counted_exactly());
            EXPECT_EQ(counting.lower_columns(), real.lower_columns());
            EXPECT_EQ(counting.owned_chunks(), real.owned_chunks());
            EXPECT_EQ(counting.owned_chunks_by_upper_sum(), real.owned_chunks_by_upper_sum())
                << c.width << "x" << c.height << " rank " << rank << " of " << c.ranks;
            EXPECT_EQ(counting.owned_rows_per_round(), real.owned_rows_per_round());
        }
    }
}

}  // namespace stack
