// An independent, deliberately naive evaluation of the value recursion:
// memoised depth-first search over height vectors with the placement rule
// written out from its definition. Shares no code with the solver beyond the
// piece table, so agreement is evidence, not tautology.
#pragma once

#include "rules/pieces.h"
#include "rules/rules.h"

#include <algorithm>
#include <map>
#include <vector>

namespace stack::testing {

// The placement rule written out from its definition, independently of
// PlacementTable: orientation o fits at column x when the stack's top
// matches its underside and it stays inside the well.
inline bool fits_by_definition(int width, int height, const int* heights, int o, int x) {
    const Orientation& orientation = stack::Rules::tetrominoes().orientation(o);
    if (x < 0 || x + orientation.width > width)
        return false;
    for (int k = 0; k + 1 < orientation.width; ++k)
        if (heights[x + k + 1] - heights[x + k] != orientation.surface[k])
            return false;
    for (int k = 0; k < orientation.width; ++k)
        if (heights[x + k] + orientation.added[k] > height)
            return false;
    return true;
}

class BruteForce {
public:
    BruteForce(int width, int height) : width_(width), height_(height) {}

    double value(const std::vector<int>& heights) {
        if (auto found = memo_.find(heights); found != memo_.end())
            return found->second;
        double total = 0;
        for (int piece = 0; piece < PieceCount; ++piece) {
            double best = -1;
            for (int o = 0; o < stack::Rules::tetrominoes().orientation_count(); ++o) {
                const Orientation& orientation = stack::Rules::tetrominoes().orientation(o);
                if (orientation.piece != piece)
                    continue;
                for (int x = 0; x + orientation.width <= width_; ++x) {
                    if (!fits_by_definition(width_, height_, heights.data(), o, x))
                        continue;
                    std::vector<int> after = heights;
                    for (int k = 0; k < orientation.width; ++k)
                        after[x + k] += orientation.added[k];
                    best = std::max(best, value(after));
                }
            }
            if (best >= 0)
                total += (1 + best) / 7.0;
        }
        return memo_[heights] = total;
    }

private:
    int width_;
    int height_;
    std::map<std::vector<int>, double> memo_;
};

}  // namespace stack::testing
