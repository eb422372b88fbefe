// The band (band.h): each round's array sized for that round, so that the
// band at its largest holds the largest sum of K+1 consecutive rounds, not
// K+1 times the largest round. The rounds' sizes are counted here row by
// row, apart from the band's own counts, and the band is driven in the
// solver's order (open round S from the top down, close S+K after it).
// Every rank runs the same checks; none talks to another.
#include "band.h"

#include "support/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <cstdint>
#include <string>
#include <vector>

namespace stack {

namespace {

struct Case {
    int width, height;
    int most_rounds;                    // K+1: 5 for the tetrominoes, 6 the pentominoes, 10 the rectangles
    int modulus;                        // the set's residue modulus
    std::vector<std::int64_t> classes;  // empty: all
    bool mirrored;
    int ranks;
};

std::string name(const Case& c, int rank, int value_size) {
    std::string classes;
    for (const std::int64_t residue : c.classes)
        classes += std::to_string(residue);
    return std::to_string(c.width) + "x" + std::to_string(c.height) + " K+1=" + std::to_string(c.most_rounds) + " mod "
           + std::to_string(c.modulus) + " {" + classes + "}" + (c.mirrored ? " mirrored" : " full") + " rank "
           + std::to_string(rank) + " of " + std::to_string(c.ranks) + ", " + std::to_string(value_size)
           + "-byte values";
}

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {4, 8, 5, 4, {}, false, 1},  {4, 8, 5, 4, {}, true, 1},     {5, 9, 5, 4, {0}, true, 1},
        {5, 9, 5, 4, {0}, false, 2}, {5, 9, 5, 4, {1, 3}, true, 3}, {6, 7, 5, 4, {0}, true, 2},
        {6, 6, 6, 5, {0}, true, 1},  {6, 6, 6, 5, {2}, false, 3},   {4, 10, 10, 1, {}, true, 2},
        {3, 12, 5, 4, {2}, true, 1}, {7, 4, 5, 4, {0}, true, 4},    {2, 3, 5, 4, {}, false, 1},
    };
    return all;
}

Partition partition_of(const Case& c, int rank) {
    const Geometry geometry(c.width, c.height);
    return Partition(geometry, c.ranks, rank,
                     c.mirrored ? Partition::mirrored_lower_columns(geometry, c.ranks)
                                : Partition::default_lower_columns(geometry, c.ranks));
}

RoundLayout layout_of(const Case& c) {
    const ResidueSet residues = c.classes.empty() ? ResidueSet::all(c.modulus) : ResidueSet::of(c.modulus, c.classes);
    return RoundLayout(Geometry(c.width, c.height), residues, c.mirrored);
}

// Values in each round on this rank, counted row by row: a row of top t
// (column W-1) holds row_length(S, t) values in a mirrored layout.
std::vector<std::uint64_t> walked_values(const Partition& partition, const RoundLayout& layout) {
    const Geometry& geometry = partition.geometry();
    std::vector<std::uint64_t> values(std::size_t(partition.rounds()), 0);
    for (int sum = 0; sum < partition.rounds(); ++sum)
        for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); ++chunk) {
            Heights heights = geometry.decode(partition.chunk_first(chunk));
            partition.for_each_row_of_slice(
                heights, sum - partition.upper_sum(chunk), [&](std::uint64_t, const Heights& row) {
                    values[std::size_t(sum)] += std::uint64_t(
                        layout.mirrored() ? layout.row_length(sum, row[geometry.width() - 1]) : layout.row_length(sum));
                });
        }
    return values;
}

// What each round takes laid out alone in fresh arrays (RoundStore::bytes).
std::vector<std::uint64_t> fresh_bytes(const Partition& partition, const RoundLayout& layout, int value_size) {
    std::vector<std::uint64_t> bytes;
    for (int sum = 0; sum < partition.rounds(); ++sum)
        bytes.push_back(RoundStore(partition, layout, sum, value_size, RoundStore()).bytes());
    return bytes;
}

// The largest sum of `most_rounds` consecutive entries (fewer at the end).
std::uint64_t largest_window(const std::vector<std::uint64_t>& rounds, int most_rounds, int* first = nullptr) {
    std::uint64_t best = 0;
    for (std::size_t start = 0; start < rounds.size(); ++start) {
        std::uint64_t sum = 0;
        for (std::size_t r = start; r < std::min(rounds.size(), start + std::size_t(most_rounds)); ++r)
            sum += rounds[r];
        if (sum > best || start == 0) {
            best = sum;
            if (first)
                *first = int(start);
        }
    }
    return best;
}

}  // namespace

// The band's own counts of its rounds are the rows' lengths summed, and its
// peak is the largest sum over S of rounds S..S+K as each takes alone.
TEST(Band, PeakIsTheLargestSumOfKPlusOneConsecutiveRounds) {
    int smaller_than_before = 0;
    for (const Case& c : cases())
        for (int rank = 0; rank < c.ranks; ++rank)
            for (const int value_size : {8, 4}) {
                const Partition partition = partition_of(c, rank);
                const RoundLayout layout = layout_of(c);
                const std::vector<std::uint64_t> values = walked_values(partition, layout);
                EXPECT_EQ(Band::round_values(partition, layout), values) << name(c, rank, value_size);
                const std::vector<std::uint64_t> alone = fresh_bytes(partition, layout, value_size);
                int first = 0;
                const std::uint64_t expected = largest_window(alone, c.most_rounds, &first);
                const BandPeak peak = Band::peak(partition, values, c.most_rounds, value_size);
                EXPECT_EQ(peak.bytes(), expected) << name(c, rank, value_size);
                EXPECT_EQ(peak.first_sum, first) << name(c, rank, value_size);
                std::uint64_t listed = 0;
                for (std::size_t r = 0; r < peak.round_bytes.size(); ++r) {
                    EXPECT_EQ(peak.round_bytes[r], Band::values_bytes(values[std::size_t(first) + r], value_size));
                    listed += peak.round_bytes[r];
                }
                EXPECT_EQ(listed, peak.values_bytes);
                EXPECT_EQ(Band(partition, layout, c.most_rounds, value_size).peak().bytes(), expected);
                const std::uint64_t largest = *std::max_element(alone.begin(), alone.end());
                smaller_than_before += expected < std::uint64_t(c.most_rounds) * largest;
            }
    // The rounds' sizes differ, so most bands are well under K+1 largest
    // rounds (the test would not tell the two apart otherwise).
    EXPECT_GT(smaller_than_before, 30);
}

// Opened from the top down and each closed K rounds later, as the solver
// runs them, the band never holds more than its peak, and holds exactly
// that at the peak's rounds: a reused array's spare room never pushes a
// later band past it, and an array too small is freed before its
// replacement is allocated.
TEST(Band, HoldsItsPeakAndNeverMoreInTheSolversOrder) {
    for (const Case& c : cases())
        for (int rank = 0; rank < c.ranks; ++rank)
            for (const int value_size : {8, 4}) {
                const Partition partition = partition_of(c, rank);
                const RoundLayout layout = layout_of(c);
                const std::vector<std::uint64_t> alone = fresh_bytes(partition, layout, value_size);
                int first = 0;
                const std::uint64_t peak = largest_window(alone, c.most_rounds, &first);
                Band band(partition, layout, c.most_rounds, value_size);
                std::uint64_t most = 0, at_peak = 0;
                const int k = c.most_rounds - 1;
                for (int sum = partition.rounds() - 1; sum >= 0; --sum) {
                    const RoundStore& round = band.open(sum);
                    EXPECT_EQ(round.value_count(),
                              RoundStore(partition, layout, sum, value_size, RoundStore()).value_count());
                    for (int held = sum; held <= std::min(sum + k, partition.rounds() - 1); ++held)
                        EXPECT_TRUE(band.holds(held)) << held;
                    EXPECT_LE(band.bytes(), peak) << name(c, rank, value_size) << ", round " << sum;
                    most = std::max(most, band.bytes());
                    if (sum == first)
                        at_peak = band.bytes();
                    band.close(sum + k);
                }
                EXPECT_EQ(most, peak) << name(c, rank, value_size);
                EXPECT_EQ(at_peak, peak) << name(c, rank, value_size);
            }
}

// Past the band's peak the rounds shrink, and each is laid out in a closed
// round's array: the memory is reused, not freed and touched again.
TEST(Band, ReusesClosedArraysOnceTheRoundsShrink) {
    const Case c{6, 8, 5, 4, {0}, true, 1};
    const Partition partition = partition_of(c, 0);
    const RoundLayout layout = layout_of(c);
    Band band(partition, layout, c.most_rounds, sizeof(float));
    const int first = band.peak().first_sum;
    int reused = 0, below = 0;
    const double* closed = nullptr;
    for (int sum = partition.rounds() - 1; sum >= 0; --sum) {
        const RoundStore& round = band.open(sum);
        if (sum < first && round.value_count() > 0) {
            ++below;
            reused += round.values.data() == closed;
        }
        closed = band.holds(sum + 4) ? band[sum + 4].values.data() : nullptr;
        band.close(sum + 4);
    }
    EXPECT_GT(below, 10);
    EXPECT_GE(reused, below * 3 / 4) << reused << " of " << below;
}

// A spilled band (--spill) keeps its values in files it unlinks at once:
// driven as the solver drives it, every value written reads back, the
// peak is the same, the arrays are mapped (not the anonymous ones) and
// the directory is empty while they live and after.
TEST(Band, SpillsIntoFilesItLeavesNothingOf) {
    const Case c{6, 8, 5, 4, {0}, true, 1};
    const Partition partition = partition_of(c, 0);
    const RoundLayout layout = layout_of(c);
    char pattern[] = "/tmp/band-spill-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    const std::string directory = pattern;
    const auto empty = [&] { return std::filesystem::is_empty(directory); };
    {
        Band memory(partition, layout, c.most_rounds, sizeof(double));
        Band band(partition, layout, c.most_rounds, sizeof(double), 1, directory);
        EXPECT_EQ(band.peak().bytes(), memory.peak().bytes());
        std::uint64_t most = 0;
        for (int sum = partition.rounds() - 1; sum >= 0; --sum) {
            RoundStore& round = band.open(sum);
            if (round.value_count() > 0) {
                EXPECT_TRUE(round.values.spilled());
            }
            for (std::uint64_t v = 0; v < round.value_count(); ++v)
                round.at_as<double>(v)[0] = double(sum) * 1e6 + double(v);
            if (band.holds(sum + 4)) {
                const RoundStore& above = band[sum + 4];
                for (std::uint64_t v = 0; v < above.value_count(); ++v)
                    ASSERT_EQ(above.at_as<double>(v)[0], double(sum + 4) * 1e6 + double(v)) << sum + 4 << " " << v;
            }
            most = std::max(most, band.bytes());
            EXPECT_TRUE(empty()) << "a spilled round's file is visible in " << directory;
            band.close(sum + 4);
        }
        EXPECT_EQ(most, band.peak().bytes());
    }
    EXPECT_TRUE(empty());
    std::filesystem::remove(directory);
    RoundArray nowhere("/nonexistent/band-spill");
    EXPECT_THROW(nowhere.resize(1000), InputError);
}

}  // namespace stack
