#include "stacking/distribution.h"
#include "play_support.h"
#include "stacking/player.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

namespace stack {

namespace {

// P(L = k) from `id` by the backward recursion over the next piece, without
// layers or merging: an independent route to what distribution.h computes.
std::vector<double> lengths_by_recursion(const StackingPolicy& policy, const Geometry& geometry, BoardId id,
                                         std::map<BoardId, std::vector<double>>& memo) {
    if (auto found = memo.find(id); found != memo.end())
        return found->second;
    std::vector<double> result(1, 0.0);
    const Heights heights = geometry.decode(id);
    for (int piece = 0; piece < PieceCount; ++piece) {
        const Move move = policy.choose(Turn{heights, id, Piece(piece), {}, nullptr});
        if (move.orientation < 0) {
            result[0] += 1.0 / double(PieceCount);
            continue;
        }
        const std::vector<double> after = lengths_by_recursion(policy, geometry, move.successor, memo);
        result.resize(std::max(result.size(), after.size() + 1), 0.0);
        for (std::size_t k = 0; k < after.size(); ++k)
            result[k + 1] += after[k] / double(PieceCount);
    }
    memo[id] = result;
    return result;
}

struct Case {
    int width, height;
    const char* policy;
};

}  // namespace

TEST(ExactDistribution, MatchesTheRecursionSumsToOneAndItsMeanIsTheTableValue) {
    for (const Case shape : {Case{2, 6, "table"}, Case{3, 6, "table"}, Case{4, 8, "table"}, Case{3, 8, "heuristic"}}) {
        const StackTable table = testing::solved_table(shape.width, shape.height);
        const Geometry geometry(shape.width, shape.height);
        const PlacementTable placements(geometry, Rules::tetrominoes());
        const auto policy = make_policy(parse_policy(shape.policy), placements, table);
        std::map<BoardId, std::vector<double>> memo;
        for (BoardId start : {BoardId(0), BoardId(1), geometry.states() / 3, geometry.states() - 1}) {
            const LengthDistribution exact = exact_length_distribution(*policy, geometry, start);
            const std::vector<double> recursion = lengths_by_recursion(*policy, geometry, start, memo);
            ASSERT_EQ(exact.probability.size(), recursion.size());
            double total = 0, mean = 0, square = 0;
            for (std::size_t k = 0; k < recursion.size(); ++k) {
                EXPECT_NEAR(exact.probability[k], recursion[k], 1e-14) << k;
                total += exact.probability[k];
                mean += k * recursion[k];
                square += double(k) * k * recursion[k];
            }
            EXPECT_NEAR(total, 1.0, 1e-12);
            EXPECT_NEAR(exact.mean, mean, 1e-12);
            EXPECT_NEAR(exact.variance, square - mean * mean, 1e-10);
            if (std::string(shape.policy) == "table") {
                EXPECT_NEAR(exact.mean, table.value(start), 1e-9)
                    << shape.width << "x" << shape.height << " start " << start;
            }
        }
    }
}

TEST(ExactDistribution, MeanIsTheReferenceTableValueOnEveryStartTried) {
    const StackTable table = testing::reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    int tried = 0;
    for (BoardId start = 0; start < geometry.states(); start += 997, ++tried) {
        const LengthDistribution exact = exact_length_distribution(*policy, geometry, start);
        ASSERT_NEAR(exact.mean, table.value(start), 1e-9) << geometry.format_heights(geometry.decode(start));
    }
    EXPECT_GT(tried, 190);
}

// Every sum is taken in one fixed order, so the bits do not depend on the
// number of threads; and the batched one-pass moves of the table policy are
// the moves choose() makes.
TEST(ExactDistribution, GivesTheSameBitsOnAnyNumberOfThreads) {
    const StackTable table = testing::reference_table();
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, Rules::tetrominoes());
    for (const char* name : {"table", "heuristic"}) {
        const auto policy = make_policy(parse_policy(name), placements, table);
        for (BoardId start : {BoardId(0), BoardId(1), BoardId(3000)}) {
            const LengthDistribution one = exact_length_distribution(*policy, geometry, start, 1);
            for (int threads : {2, 3, 7}) {
                const LengthDistribution many = exact_length_distribution(*policy, geometry, start, threads);
                EXPECT_EQ(many.probability, one.probability) << name << " from " << start << ", " << threads;
                EXPECT_EQ(many.boards, one.boards);
                EXPECT_EQ(std::memcmp(&many.mean, &one.mean, sizeof(double)), 0);
            }
        }
    }
}

TEST(TablePolicy, ChoosesForEveryPieceAtOnceAsItDoesOneByOne) {
    const StackTable table = testing::reference_table();
    const Geometry& geometry = table.geometry();
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    std::vector<BoardId> ids;
    for (BoardId id = 0; id < geometry.states(); id += 101)
        ids.push_back(id);
    std::vector<PieceMoves> batched(ids.size());
    std::size_t calls = 0;
    policy->choose_for_each_piece(ids, geometry, [&](std::size_t i, const Heights& heights, const PieceMoves& moves) {
        ASSERT_EQ(i, calls++);  // in order, once each
        ASSERT_EQ(heights, geometry.decode(ids[i]));
        batched[i] = moves;
    });
    ASSERT_EQ(calls, ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i)
        for (int piece = 0; piece < PieceCount; ++piece) {
            const Move one = policy->choose(Turn{geometry.decode(ids[i]), ids[i], Piece(piece), {}, nullptr});
            ASSERT_EQ(batched[i][piece].orientation, one.orientation) << ids[i] << " piece " << piece;
            ASSERT_EQ(batched[i][piece].column, one.column);
            ASSERT_EQ(batched[i][piece].successor, one.successor);
        }
}

TEST(ExactDistribution, AFullBoardEndsAtOnce) {
    const StackTable table = testing::solved_table(2, 4);
    const Geometry geometry(2, 4);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(PolicySpec{}, placements, table);
    const LengthDistribution exact =
        exact_length_distribution(*policy, geometry, geometry.encode(geometry.parse_heights("4,4")));
    ASSERT_EQ(exact.probability.size(), 1u);
    EXPECT_DOUBLE_EQ(exact.probability[0], 1.0);  // 7 x 1/7
    EXPECT_EQ(exact.mean, 0.0);
    EXPECT_EQ(exact.variance, 0.0);
    EXPECT_EQ(exact.boards, 1u);
}

TEST(ExactDistribution, RefusesAPolicyThatIsNotAFunctionOfTheBoard) {
    const StackTable table = testing::flat_table(2, 4);
    const Geometry geometry(2, 4);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(parse_policy("random"), placements, table);
    EXPECT_THROW(exact_length_distribution(*policy, geometry, 0), std::logic_error);
}

TEST(ExactDistribution, SimulatedGamesFollowIt) {
    // The histogram of 20,000 simulated heuristic games against its exact
    // distribution (seed fixed, so the outcome is reproducible).
    const StackTable table = testing::reference_table();
    const Geometry geometry(4, 20);
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const auto policy = make_policy(parse_policy("heuristic"), placements, table);
    const LengthDistribution exact = exact_length_distribution(*policy, geometry, 1);
    const RunTotals totals = play_games(*policy, geometry, 1, 20000, 3, 2);
    double statistic = 0;
    for (std::size_t k = 0; k < exact.probability.size(); ++k) {
        const double expected = 20000 * exact.probability[k];
        const double seen = k < totals.lengths.size() ? double(totals.lengths[k]) : 0.0;
        if (expected >= 5)
            statistic += (seen - expected) * (seen - expected) / expected;
    }
    EXPECT_LT(statistic, 60.0);  // about 20 bins: p < 1e-5 beyond this
    EXPECT_LE(totals.lengths.size(), exact.probability.size());
}

}  // namespace stack
