// The codec from a board to the place of its value (table_format.h), full
// and mirrored, against the layout stated plainly: rounds by row sum, rows
// in id order, a row's stored h0 ascending (a mirrored row's only up to its
// top, h(W-1)).
#include "rules/board.h"
#include "table/table_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace stack {

namespace {

// Every stored board's place, counted out by walking the boards in the
// file's order: row sum, then the row's id (columns 1..W-1), then h0.
std::map<BoardId, std::uint64_t> places_by_walking(const Geometry& geometry, const ResidueSet& residues,
                                                   bool mirrored) {
    const int width = geometry.width();
    std::vector<std::vector<BoardId>> rows_by_sum((width - 1) * geometry.height() + 1);
    for (BoardId id = 0; id < geometry.states(); id += geometry.base()) {  // h0 = 0: one id a row
        const Heights heights = geometry.decode(id);
        rows_by_sum[geometry.height_sum(id)].push_back(id);
    }
    std::map<BoardId, std::uint64_t> places;
    std::uint64_t next = 0;
    for (const std::vector<BoardId>& rows : rows_by_sum)
        for (const BoardId row : rows) {
            const Heights heights = geometry.decode(row);
            for (int h0 = 0; h0 <= geometry.height(); ++h0)
                if (residues.holds_sum(geometry.height_sum(row) + h0) && (!mirrored || h0 <= heights[width - 1]))
                    places[row + BoardId(h0)] = next++;
        }
    return places;
}

}  // namespace

TEST(RoundLayout, PlacesEveryStoredBoardInTheFilesOrder) {
    for (auto [width, height] : {std::pair{2, 7}, {3, 5}, {4, 6}, {5, 4}, {6, 3}})
        for (const ResidueSet& residues : {ResidueSet::all(4), ResidueSet::of(4, {0}), ResidueSet::of(4, {1, 3})})
            for (const bool mirrored : {false, true}) {
                const Geometry geometry(width, height);
                const RoundLayout layout(geometry, residues, mirrored);
                ASSERT_EQ(layout.mirrored(), mirrored);
                const std::map<BoardId, std::uint64_t> places = places_by_walking(geometry, residues, mirrored);
                ASSERT_EQ(layout.stored_states(), places.size()) << width << "x" << height << " " << residues.text();
                EXPECT_GE(layout.stored_states(), RoundLayout::fewest_stored_states(geometry, residues, mirrored));
                std::uint64_t wrong = 0, values = 0;
                for (const auto& [id, place] : places) {
                    const Heights heights = geometry.decode(id);
                    wrong += !layout.holds(heights);
                    wrong += layout.position(heights) != place;
                    wrong += geometry.encode(layout.board_at(place)) != id;
                }
                for (int sum = 0; sum < layout.rounds(); ++sum)
                    values += layout.round_values(sum);
                EXPECT_EQ(wrong, 0u) << width << "x" << height << " " << residues.text() << " " << mirrored;
                EXPECT_EQ(values, layout.stored_states());
            }
}

// A mirrored layout holds a board or its mirror image, never neither; the
// canonical form is the board itself when stored. About half the boards of
// a tall well are stored: (H+2) / (2(H+1)) of them.
TEST(RoundLayout, MirroredLayoutsHoldOneOfEachPair) {
    const Geometry geometry(5, 9);
    const RoundLayout layout(geometry, ResidueSet::all(4), true);
    const RoundLayout full(geometry, ResidueSet::all(4));
    std::uint64_t wrong = 0, stored = 0;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        const Heights heights = geometry.decode(id);
        const Heights canonical = layout.canonical(heights);
        Heights image{};
        for (int column = 0; column < 5; ++column)
            image[column] = heights[4 - column];
        wrong += !layout.holds(canonical);
        wrong += canonical != heights && canonical != image;
        wrong += layout.holds(heights) && canonical != heights;
        wrong += full.canonical(heights) != heights;  // a full layout looks every board up as it is
        stored += layout.holds(heights);
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(stored, layout.stored_states());
    EXPECT_EQ(layout.stored_states() * 2 * 10, full.stored_states() * 11);
    // One column has no mirror image to save.
    EXPECT_FALSE(RoundLayout(Geometry(1, 8), ResidueSet::all(4), true).mirrored());
}

}  // namespace stack
