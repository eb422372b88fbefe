// The memory a rank needs (capacity.h): its band counted round by round, as
// the run's band holds it at its largest, and the lower bound from the
// shape alone under it. Every rank runs the same checks; none talks to
// another.
#include "capacity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace stack {

namespace {

// Bytes of K+1 consecutive rounds at their largest, each laid out alone in
// fresh arrays (RoundStore::bytes), for this rank.
std::uint64_t band_from_rounds(const Partition& partition, const RoundLayout& layout, int most_rounds, int value_size) {
    std::vector<std::uint64_t> alone;
    for (int sum = 0; sum < partition.rounds(); ++sum)
        alone.push_back(RoundStore(partition, layout, sum, value_size, RoundStore()).bytes());
    std::uint64_t best = 0;
    for (std::size_t first = 0; first < alone.size(); ++first) {
        std::uint64_t bytes = 0;
        for (std::size_t r = first; r < std::min(alone.size(), first + std::size_t(most_rounds)); ++r)
            bytes += alone[r];
        best = std::max(best, bytes);
    }
    return best;
}

}  // namespace

// rank_memory's band is the band's peak: exactly the largest sum of K+1
// consecutive rounds, from a listing partition (the run's check) and from
// a counting one on one rank (--plan's), for the tetrominoes' K+1 = 5
// rounds; below K+1 largest rounds, which it counted before.
TEST(Capacity, CountsTheBandRoundByRound) {
    const Rules& rules = Rules::tetrominoes();
    for (const bool mirrored : {true, false})
        for (const Precision precision : {Precision::Float64, Precision::Float32})
            for (const auto& [width, height] : std::vector<std::pair<int, int>>{{5, 9}, {6, 8}, {7, 5}}) {
                const Geometry geometry(width, height);
                const RoundLayout layout(geometry, ResidueSet::of(4, {0}), mirrored);
                const int lower = mirrored ? Partition::mirrored_lower_columns(geometry, 1)
                                           : Partition::default_lower_columns(geometry, 1);
                const Partition partition(geometry, 1, 0, lower);
                const Partition counting = Partition::counting(geometry, 1, 0, lower);
                const int value_size = int(value_bytes(precision));
                const std::uint64_t expected = band_from_rounds(partition, layout, 5, value_size);
                const std::string well = std::to_string(width) + "x" + std::to_string(height)
                                         + (mirrored ? " mirrored " : " full ") + precision_name(precision);
                const RankMemory memory = rank_memory(partition, layout, rules, precision);
                EXPECT_EQ(memory.band, double(expected)) << well;
                EXPECT_EQ(memory.band_peak.round_bytes.size(), 5u) << well;
                EXPECT_EQ(rank_memory(counting, layout, rules, precision).band, double(expected)) << well;
                const double largest_round =
                    double(Band::values_bytes(Band::largest_round_values(partition, layout), value_size))
                    + double(Band::slice_bytes(partition));
                EXPECT_LT(memory.band, 5 * largest_round) << well;
                EXPECT_EQ(memory.ghosts, 0.0);
                // Several ranks: the ghosts' allowance stays a share of K+1
                // largest rounds, as it was measured.
                const Partition two(geometry, 2, 0,
                                    mirrored ? Partition::mirrored_lower_columns(geometry, 2)
                                             : Partition::default_lower_columns(geometry, 2));
                const RankMemory of_two = rank_memory(two, layout, rules, precision);
                EXPECT_EQ(of_two.band, double(band_from_rounds(two, layout, 5, value_size))) << well;
                EXPECT_DOUBLE_EQ(of_two.ghosts,
                                 5 * 0.5
                                     * double(Band::values_bytes(Band::largest_round_values(two, layout), value_size)
                                              + Band::slice_bytes(two)))
                    << well;
            }
}

// With a GPU the host holds two rounds, each counted as the largest.
TEST(Capacity, CountsAGpuHostsTwoRoundsAsTheLargest) {
    const Geometry geometry(6, 8);
    const RoundLayout layout(geometry, ResidueSet::of(4, {0}), true);
    const Partition partition(geometry, 1, 0, Partition::mirrored_lower_columns(geometry, 1));
    const RankMemory memory = rank_memory(partition, layout, Rules::tetrominoes(), Precision::Float32, true);
    EXPECT_EQ(memory.band_peak.first_sum, -1);
    EXPECT_EQ(memory.band, 2
                               * double(Band::values_bytes(Band::largest_round_values(partition, layout), 4)
                                        + Band::slice_bytes(partition)));
}

// The lower bound from the shape alone stays under the band and chunks a
// rank of the run holds, at every rank count.
TEST(Capacity, LowerBoundIsUnderTheExactBand) {
    const Rules& rules = Rules::tetrominoes();
    for (const bool mirrored : {true, false})
        for (const auto& [width, height] : std::vector<std::pair<int, int>>{{4, 10}, {5, 9}, {6, 8}, {7, 5}})
            for (const int ranks : {1, 2, 3}) {
                const Geometry geometry(width, height);
                const ResidueSet residues = ResidueSet::of(4, {0});
                const RoundLayout layout(geometry, residues, mirrored);
                const CapacityBounds bounds = capacity_lower_bounds(geometry, rules, residues, mirrored, ranks,
                                                                    Precision::Float64, Precision::Float32, false);
                double most = 0;
                for (int rank = 0; rank < ranks; ++rank) {
                    const Partition partition(geometry, ranks, rank,
                                              mirrored ? Partition::mirrored_lower_columns(geometry, ranks)
                                                       : Partition::default_lower_columns(geometry, ranks));
                    const RankMemory memory = rank_memory(partition, layout, rules, Precision::Float32);
                    most = std::max(most, memory.band + memory.chunks);
                }
                EXPECT_LE(bounds.rank_bytes - double(CompositionCodec::table_bytes(width - 1, height)), most)
                    << width << "x" << height << " on " << ranks << " ranks";
            }
}

}  // namespace stack
