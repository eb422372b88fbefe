#include "brute_force.h"
#include "rules/rules.h"
#include "rules/placement.h"
#include "reference_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace stack {

namespace {
bool fits_by_definition(const Geometry& geometry, const Heights& heights, int o, int x) {
    return testing::fits_by_definition(geometry.width(), geometry.height(), heights.data(), o, x);
}
}  // namespace

TEST(Placement, MatchesTheReferenceConnectionTable4x20) {
    const std::vector<testing::Connection> reference = testing::reference_connections_4x20();
    ASSERT_EQ(reference.size(), 851801u);
    std::set<testing::Connection> expected(reference.begin(), reference.end());
    ASSERT_EQ(expected.size(), reference.size()) << "the reference lists no connection twice";

    const Geometry geometry(4, 20);
    const PlacementTable table(geometry, Rules::tetrominoes());
    std::vector<testing::Connection> ours;
    std::array<std::uint64_t, PieceCount> per_piece{};
    for (BoardId id = 0; id < geometry.states(); ++id)
        table.for_each_placement(geometry.decode(id), [&](int o, int, BoardId offset) {
            ours.push_back({id, id + offset, stack::Rules::tetrominoes().orientation(o).piece});
            ++per_piece[stack::Rules::tetrominoes().orientation(o).piece];
        });
    EXPECT_EQ(ours.size(), 851801u);
    EXPECT_EQ(per_piece, (std::array<std::uint64_t, PieceCount>{629768, 49224, 25137, 24612, 24612, 49224, 49224}));
    std::sort(ours.begin(), ours.end());
    EXPECT_TRUE(std::equal(ours.begin(), ours.end(), expected.begin(), expected.end()));
}

// The rules' count of a round's connections, without visiting a board,
// against the placements found board by board (by the definition), for
// every round of small wells and several residue sets; and the reference's
// 851,801 connections of the 4x20 well.
TEST(Placement, RoundConnectionsCountEveryPlacementOfTheRound) {
    for (auto [width, height] : {std::pair{1, 6}, {2, 5}, {3, 4}, {4, 5}, {5, 4}, {6, 3}}) {
        const Geometry geometry(width, height);
        const CompositionCodec columns(width - 1, height);
        for (const ResidueSet& residues :
             {ResidueSet::all(stack::TetrominoCells), ResidueSet::of(stack::TetrominoCells, {0}),
              ResidueSet::of(stack::TetrominoCells, {1, 3})}) {
            // Over every board, and over the canonical ones (h0 <= h(W-1):
            // a mirrored table's).
            for (const bool mirrored : {false, true}) {
                std::vector<PieceCounts> counted((width - 1) * height + 1, PieceCounts(PieceCount, 0));
                for (BoardId id = 0; id < geometry.states(); ++id) {
                    const Heights heights = geometry.decode(id);
                    if (!residues.holds_sum(geometry.height_sum(id))
                        || (mirrored && width >= 2 && heights[0] > heights[width - 1]))
                        continue;
                    const int row_sum = geometry.height_sum(id) - heights[0];
                    for (int o = 0; o < stack::Rules::tetrominoes().orientation_count(); ++o)
                        for (int x = 0; x + stack::Rules::tetrominoes().orientation(o).width <= width; ++x)
                            counted[row_sum][stack::Rules::tetrominoes().orientation(o).piece] +=
                                fits_by_definition(geometry, heights, o, x);
                }
                for (int sum = 0; sum < int(counted.size()); ++sum)
                    ASSERT_EQ(round_connections(Rules::tetrominoes(), geometry, columns, residues, sum, mirrored),
                              counted[sum])
                        << width << "x" << height << " classes " << residues.text() << " round " << sum
                        << (mirrored ? " mirrored" : "");
            }
        }
    }
    const Geometry geometry(4, 20);
    const CompositionCodec columns(3, 20);
    PieceCounts total(PieceCount, 0);
    for (int sum = 0; sum <= 60; ++sum) {
        const PieceCounts round =
            round_connections(Rules::tetrominoes(), geometry, columns, ResidueSet::all(stack::TetrominoCells), sum);
        for (int piece = 0; piece < PieceCount; ++piece)
            total[piece] += round[piece];
    }
    EXPECT_EQ(total, (PieceCounts{629768, 49224, 25137, 24612, 24612, 49224, 49224}));
}

TEST(Placement, LookupAgreesWithTheDefinitionOnEveryBoard) {
    for (auto [width, height] : {std::pair{1, 6}, {2, 5}, {3, 4}, {5, 4}, {6, 3}}) {
        const Geometry geometry(width, height);
        const PlacementTable table(geometry, Rules::tetrominoes());
        for (BoardId id = 0; id < geometry.states(); ++id) {
            const Heights heights = geometry.decode(id);
            std::set<std::pair<int, int>> found;
            table.for_each_placement(heights, [&](int o, int x, BoardId offset) {
                found.insert({o, x});
                Heights after = heights;
                for (int k = 0; k < stack::Rules::tetrominoes().orientation(o).width; ++k)
                    after[x + k] += stack::Rules::tetrominoes().orientation(o).added[k];
                ASSERT_EQ(geometry.encode(after), id + offset);
            });
            std::set<std::pair<int, int>> expected;
            for (int o = 0; o < stack::Rules::tetrominoes().orientation_count(); ++o)
                for (int x = 0; x < width; ++x) {
                    const bool fits = fits_by_definition(geometry, heights, o, x);
                    if (fits)
                        expected.insert({o, x});
                    if (x + stack::Rules::tetrominoes().orientation(o).width
                        <= width) {  // fits() takes pairs inside the well
                        ASSERT_EQ(table.fits(heights, o, x), fits) << "id " << id << " o " << o << " x " << x;
                    }
                }
            ASSERT_EQ(found, expected) << width << "x" << height << " id " << id;
        }
    }
}

TEST(Placement, PredecessorsAreExactlyTheReversedPlacements) {
    const Geometry geometry(4, 6);
    const PlacementTable table(geometry, Rules::tetrominoes());
    std::multiset<std::tuple<BoardId, BoardId, int, int>> forward, backward;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        table.for_each_placement(geometry.decode(id), [&](int o, int x, BoardId offset) {
            forward.insert({id, id + offset, o, x});
        });
        table.for_each_predecessor(geometry.decode(id), [&](int o, int x, BoardId offset) {
            backward.insert({id - offset, id, o, x});
        });
    }
    EXPECT_GT(forward.size(), 0u);
    EXPECT_EQ(forward, backward);
}

TEST(Placement, ColumnsAscendThenOrientationsInTableOrder) {
    const Geometry geometry(6, 20);
    const PlacementTable table(geometry, Rules::tetrominoes());
    std::vector<std::pair<int, int>> order;  // (column, orientation)
    table.for_each_placement(geometry.parse_heights("0,0,0,0,0,0"), [&](int o, int x, BoardId) {
        order.push_back({x, o});
    });
    EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
    EXPECT_EQ(order.front(), (std::pair{0, 0}));  // horizontal I at column 0 comes first
}

}  // namespace stack
