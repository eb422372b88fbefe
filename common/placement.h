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
#pragma once

#include "board.h"
#include "pieces.h"

#include <array>
#include <cstdint>

namespace stack {

class PlacementTable {
public:
    explicit PlacementTable(const Geometry& geometry);

    const Geometry& geometry() const { return geometry_; }
    BoardId offset(int orientation, int column) const { return offsets_[orientation][column]; }

    // visit(orientation, column, successor_offset) for every valid placement
    // on `heights`: columns ascending, orientations in table order within a
    // column.
    template <class Visit>
    void for_each_placement(const Heights& heights, Visit&& visit) const;

    // visit(orientation, column, predecessor_offset) for every placement that
    // turns some valid stack into `heights` (the predecessor's id is the id
    // minus the offset).
    template <class Visit>
    void for_each_predecessor(const Heights& heights, Visit&& visit) const;

    // The rule itself, for one (orientation, column) that lies inside the
    // well: does it fit `heights`? Could it have produced `heights`?
    bool fits(const Heights& heights, int orientation, int column) const;
    bool reverses(const Heights& heights, int orientation, int column) const;

private:
    static constexpr int DifferenceLimit = 3;                   // clip |d| to this
    static constexpr int DifferenceValues = 2 * DifferenceLimit + 1;
    static constexpr int MatchKeys = DifferenceValues * DifferenceValues * DifferenceValues;

    struct MatchList {
        std::uint8_t count = 0;
        std::array<std::uint8_t, OrientationCount> orientations{};  // [i] -> orientation index
    };
    static const std::array<MatchList, MatchKeys>& match_table();

    Geometry geometry_;
    std::array<std::array<BoardId, MaxWidth>, OrientationCount> offsets_{};  // [orientation][column]
};

template <class Visit>
void PlacementTable::for_each_placement(const Heights& heights, Visit&& visit) const {
    const int width = geometry_.width();
    const int limit = geometry_.height();
    std::array<int, MaxWidth + 2> difference;  // [x] -> clipped h[x+1]-h[x] + DifferenceLimit
    for (int x = 0; x < width + 2; ++x) {
        int d = x + 1 < width ? heights[x + 1] - heights[x] : DifferenceLimit;
        d = d > DifferenceLimit ? DifferenceLimit : d < -DifferenceLimit ? -DifferenceLimit : d;
        difference[x] = d + DifferenceLimit;
    }
    const auto& table = match_table();
    for (int x = 0; x < width; ++x) {
        const MatchList& matches =
            table[(difference[x] * DifferenceValues + difference[x + 1]) * DifferenceValues + difference[x + 2]];
        for (int i = 0; i < matches.count; ++i) {
            const int o = matches.orientations[i];
            const Orientation& orientation = Orientations[o];
            bool fits = true;
            for (int k = 0; k < orientation.width; ++k)
                fits &= heights[x + k] + orientation.added[k] <= limit;
            if (fits)
                visit(o, x, offsets_[o][x]);
        }
    }
}

template <class Visit>
void PlacementTable::for_each_predecessor(const Heights& heights, Visit&& visit) const {
    for (int o = 0; o < OrientationCount; ++o)
        for (int x = 0; x + Orientations[o].width <= geometry_.width(); ++x)
            if (reverses(heights, o, x))
                visit(o, x, offsets_[o][x]);
}

inline bool PlacementTable::fits(const Heights& heights, int o, int x) const {
    const Orientation& orientation = Orientations[o];
    bool fits = heights[x] + orientation.added[0] <= geometry_.height();
    for (int k = 1; k < orientation.width && fits; ++k)
        fits = heights[x + k] - heights[x + k - 1] == orientation.surface[k - 1]
               && heights[x + k] + orientation.added[k] <= geometry_.height();
    return fits;
}

inline bool PlacementTable::reverses(const Heights& heights, int o, int x) const {
    const Orientation& orientation = Orientations[o];
    bool fits = heights[x] >= orientation.added[0];
    for (int k = 1; k < orientation.width && fits; ++k) {
        const int before_right = heights[x + k] - orientation.added[k];
        const int before_left = heights[x + k - 1] - orientation.added[k - 1];
        fits = before_right >= 0 && before_right - before_left == orientation.surface[k - 1];
    }
    return fits;
}

}  // namespace stack
