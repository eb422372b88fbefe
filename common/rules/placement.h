// Placement enumeration: which orientations fit a stack, and where the
// resulting stack lives in the id space.
//
// Placing orientation o at column x always adds the same amount to the board
// id, offset(o, x) = sum_k added[k] * (H+1)^(x+k), so a successor id is the
// id plus a constant: no successor list is ever stored.
//
// Finding the orientations that fit uses the local height differences: the
// surface condition of an orientation at column x depends only on
// d[x..x+2] (d[i] = h[i+1] - h[i]). Each d is clipped to [-3, 3] (no surface
// step exceeds 2 in magnitude, and columns past the right wall read as 3), so
// the three differences index a 343-entry table listing the orientations
// whose underside matches. Only the height limit is then checked per match.
// Predecessors work the same way: o at x could have produced a stack when
// d[x+k] equals the "reverse surface" surface[k] + added[k+1] - added[k]
// (the step before the piece landed, seen after it), which a second table
// indexes.
#pragma once

#include "rules/board.h"
#include "rules/compositions.h"
#include "rules/pieces.h"
#include "rules/residues.h"

#include <array>
#include <cstdint>

namespace stack {

class PlacementTable {
public:
    static constexpr int DifferenceLimit = 3;  // clip |d| to this
    static constexpr int DifferenceValues = 2 * DifferenceLimit + 1;

    // [x] -> clip(h[x+1] - h[x]) + DifferenceLimit; past the right wall
    // (x >= W-1) it reads as the largest value, which no surface matches.
    using Differences = std::array<std::uint8_t, MaxWidth + 2>;

    explicit PlacementTable(const Geometry& geometry);

    const Geometry& geometry() const { return geometry_; }
    BoardId offset(int orientation, int column) const { return offsets_[orientation][column]; }

    static std::uint8_t clipped_difference(int difference) {
        difference = difference > DifferenceLimit ? DifferenceLimit : difference < -DifferenceLimit ? -DifferenceLimit
                                                                                                     : difference;
        return static_cast<std::uint8_t>(difference + DifferenceLimit);
    }
    Differences differences(const Heights& heights) const;

    // visit(orientation, column, successor_offset) for every valid placement
    // on `heights`: columns ascending, orientations in table order within a
    // column.
    template <class Visit>
    void for_each_placement(const Heights& heights, Visit&& visit) const;
    // The same for one column, with `differences` = differences(heights)
    // (the caller may have changed entries it knows better).
    template <class Visit>
    void for_each_placement_at(const Heights& heights, const Differences& differences, int column,
                               Visit&& visit) const;

    // visit(orientation, column, predecessor_offset) for every placement that
    // turns some valid stack into `heights` (the predecessor's id is the id
    // minus the offset); the per-column form as above.
    template <class Visit>
    void for_each_predecessor(const Heights& heights, Visit&& visit) const;
    template <class Visit>
    void for_each_predecessor_at(const Heights& heights, const Differences& differences, int column,
                                 Visit&& visit) const;

    // The most orientations that can fit at one column of any stack.
    static int most_placements_at_one_column();

    // The rule itself, for one (orientation, column) that lies inside the
    // well: does it fit `heights`? (The tests hold the lookup to it.)
    bool fits(const Heights& heights, int orientation, int column) const;

private:
    static constexpr int MatchKeys = DifferenceValues * DifferenceValues * DifferenceValues;

    struct MatchList {
        std::uint8_t count = 0;
        std::array<std::uint8_t, OrientationCount> orientations{};  // [i] -> orientation index
    };
    using MatchTable = std::array<MatchList, MatchKeys>;  // [key of d[x], d[x+1], d[x+2]]
    static MatchTable build_match_table(bool reverse);
    template <bool Reverse, class Visit>
    void for_each_match(const Heights& heights, const Differences& differences, int x, Visit&& visit) const;
    static const MatchTable& forward_table();
    static const MatchTable& reverse_table();
    static int key(const Differences& differences, int column) {
        return (differences[column] * DifferenceValues + differences[column + 1]) * DifferenceValues
               + differences[column + 2];
    }

    Geometry geometry_;
    const MatchTable* forward_ = &forward_table();  // held here: the function-local statics cost a guard per call
    const MatchTable* reverse_ = &reverse_table();
    std::array<std::array<BoardId, MaxWidth>, OrientationCount> offsets_{};  // [orientation][column]
};

inline PlacementTable::Differences PlacementTable::differences(const Heights& heights) const {
    Differences result;
    const int width = geometry_.width();
    for (int x = 0; x < width + 2; ++x)
        result[x] = x + 1 < width ? clipped_difference(heights[x + 1] - heights[x]) : DifferenceValues - 1;
    return result;
}

// Forward: the orientations whose surface matches and that stay below the
// top. Reverse: those whose surface seen after landing matches and whose
// cells the stack holds (each column at least as high as the cells added).
template <bool Reverse, class Visit>
void PlacementTable::for_each_match(const Heights& heights, const Differences& differences, int x,
                                    Visit&& visit) const {
    const int limit = geometry_.height();
    const MatchList& matches = (Reverse ? *reverse_ : *forward_)[key(differences, x)];
    for (int i = 0; i < matches.count; ++i) {
        const int o = matches.orientations[i];
        const Orientation& orientation = Orientations[o];
        bool holds = true;
        for (int k = 0; k < orientation.width; ++k)
            holds &= Reverse ? heights[x + k] >= orientation.added[k] : heights[x + k] + orientation.added[k] <= limit;
        if (holds)
            visit(o, x, offsets_[o][x]);
    }
}

template <class Visit>
void PlacementTable::for_each_placement_at(const Heights& heights, const Differences& differences, int x,
                                           Visit&& visit) const {
    for_each_match<false>(heights, differences, x, visit);
}

template <class Visit>
void PlacementTable::for_each_predecessor_at(const Heights& heights, const Differences& differences, int x,
                                             Visit&& visit) const {
    for_each_match<true>(heights, differences, x, visit);
}

template <class Visit>
void PlacementTable::for_each_placement(const Heights& heights, Visit&& visit) const {
    const Differences difference = differences(heights);
    for (int x = 0; x < geometry_.width(); ++x)
        for_each_match<false>(heights, difference, x, visit);
}

template <class Visit>
void PlacementTable::for_each_predecessor(const Heights& heights, Visit&& visit) const {
    const Differences difference = differences(heights);
    for (int x = 0; x < geometry_.width(); ++x)
        for_each_match<true>(heights, difference, x, visit);
}

inline bool PlacementTable::fits(const Heights& heights, int o, int x) const {
    return Orientations[o].fits(heights.data(), x, geometry_.height());
}

// The connections of one round: over the boards whose columns 1..W-1 sum
// to `sum` and whose height sum is in `residues`, the valid placements of
// each piece, counted without visiting a board. An orientation at column x
// sets its columns to b + d[k] for a base height b (d[k] the partial sums
// of its surface), so the boards it fits are, for each b with room, the
// compositions of what its columns leave of the sum over the other columns
// 1..W-1 (`columns` counts them: CompositionCodec(W-1, H)), times the
// column-0 heights of a stored class (or, at x = 0, whether b is one).
// stackgen checks its count against this, and a resumed partial's
// connections_done attribute.
PieceCounts round_connections(const Geometry& geometry, const CompositionCodec& columns, const ResidueSet& residues,
                              int sum);

// The heights after orientation o lands at column x.
inline Heights heights_after(const Heights& heights, int orientation, int column) {
    Heights after = heights;
    Orientations[orientation].place(after.data(), column);
    return after;
}

}  // namespace stack
