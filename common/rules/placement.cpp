#include "rules/placement.h"

#include <algorithm>

namespace stack {

PlacementTable::PlacementTable(const Geometry& geometry) : geometry_(geometry) {
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        for (int x = 0; x + orientation.width <= geometry.width(); ++x)
            offsets_[o][x] = orientation.id_offset(geometry, x);
    }
}

namespace {

// The step d[x+k] an orientation needs: its surface for placements, or the
// surface seen after the piece landed for predecessors.
constexpr int step(const Orientation& orientation, int k, bool reverse) {
    return orientation.surface[k] + (reverse ? orientation.added[k + 1] - orientation.added[k] : 0);
}

constexpr bool steps_fit_the_clip() {
    for (const Orientation& orientation : Orientations)
        for (int k = 0; k + 1 < orientation.width; ++k)
            for (bool reverse : {false, true})
                if (step(orientation, k, reverse) < -2 || step(orientation, k, reverse) > 2)
                    return false;
    return true;
}
// A step of +-3 would collide with the clipped (and the right wall's) value.
static_assert(steps_fit_the_clip(), "surface steps must lie in [-2, 2] for the clipped lookup");

}  // namespace

// For every clipped triple (d0, d1, d2), the orientations whose steps equal
// its first width-1 entries, in table order.
PlacementTable::MatchTable PlacementTable::build_match_table(bool reverse) {
    MatchTable built{};
    for (int key = 0; key < MatchKeys; ++key) {
        const std::array<int, 3> difference = {key / (DifferenceValues * DifferenceValues) - DifferenceLimit,
                                               key / DifferenceValues % DifferenceValues - DifferenceLimit,
                                               key % DifferenceValues - DifferenceLimit};
        for (int o = 0; o < OrientationCount; ++o) {
            bool matches = true;
            for (int k = 0; k + 1 < Orientations[o].width; ++k)
                matches &= difference[k] == step(Orientations[o], k, reverse);
            if (matches)
                built[key].orientations[built[key].count++] = static_cast<std::uint8_t>(o);
        }
    }
    return built;
}

const PlacementTable::MatchTable& PlacementTable::forward_table() {
    static const MatchTable table = build_match_table(false);
    return table;
}

const PlacementTable::MatchTable& PlacementTable::reverse_table() {
    static const MatchTable table = build_match_table(true);
    return table;
}

PieceCounts round_connections(const Geometry& geometry, const CompositionCodec& columns, const ResidueSet& residues,
                              int sum) {
    const int width = geometry.width(), height = geometry.height();
    std::uint64_t stored_h0 = 0;  // column-0 heights of a stored class, for this sum
    for (int h0 = 0; h0 <= height; ++h0)
        stored_h0 += residues.holds_sum(sum + h0);
    PieceCounts counts{};
    for (const Orientation& orientation : Orientations) {
        const int w = orientation.width;
        std::array<int, 4> d{};  // column x+k stands at b + d[k]
        int low = 0, high = height;
        for (int k = 0; k < w; ++k) {
            if (k > 0)
                d[k] = d[k - 1] + orientation.surface[k - 1];
            low = std::max(low, -d[k]);
            high = std::min(high, height - d[k] - orientation.added[k]);
        }
        for (int x = 0; x + w <= width; ++x) {
            const int free = (width - 1) - (w - (x == 0 ? 1 : 0));  // columns 1..W-1 the piece leaves free
            for (int b = low; b <= high; ++b) {
                int fixed = 0;  // the piece's columns' share of the row sum
                for (int k = x == 0 ? 1 : 0; k < w; ++k)
                    fixed += b + d[k];
                const std::uint64_t boards = columns.count(free, sum - fixed);
                if (x > 0)
                    counts[orientation.piece] += boards * stored_h0;
                else if (residues.holds_sum(sum + b))
                    counts[orientation.piece] += boards;
            }
        }
    }
    return counts;
}

int PlacementTable::most_placements_at_one_column() {
    int most = 0;
    for (const MatchList& matches : forward_table())
        most = matches.count > most ? matches.count : most;
    return most;
}

}  // namespace stack
