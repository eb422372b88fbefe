#include "placement.h"

namespace stack {

PlacementTable::PlacementTable(const Geometry& geometry) : geometry_(geometry) {
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        for (int x = 0; x + orientation.width <= geometry.width(); ++x)
            for (int k = 0; k < orientation.width; ++k)
                offsets_[o][x] += static_cast<BoardId>(orientation.added[k]) * geometry.place_value(x + k);
    }
}

// Built once: for every clipped triple (d0, d1, d2), the orientations whose
// surface equals its first width-1 entries, in table order.
const std::array<PlacementTable::MatchList, PlacementTable::MatchKeys>& PlacementTable::match_table() {
    static const auto table = [] {
        std::array<MatchList, MatchKeys> built{};
        for (int key = 0; key < MatchKeys; ++key) {
            const std::array<int, 3> difference = {key / (DifferenceValues * DifferenceValues) - DifferenceLimit,
                                                   key / DifferenceValues % DifferenceValues - DifferenceLimit,
                                                   key % DifferenceValues - DifferenceLimit};
            for (int o = 0; o < OrientationCount; ++o) {
                bool matches = true;
                for (int k = 0; k + 1 < Orientations[o].width; ++k)
                    matches &= difference[k] == Orientations[o].surface[k];
                if (matches)
                    built[key].orientations[built[key].count++] = static_cast<std::uint8_t>(o);
            }
        }
        return built;
    }();
    return table;
}

}  // namespace stack
