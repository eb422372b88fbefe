// An independent, deliberately naive evaluation of the value recursion:
// memoised depth-first search over height vectors with the placement rule
// written out from its definition. Shares no code with the solver beyond the
// piece table, so agreement is evidence, not tautology.
#pragma once

#include "pieces.h"

#include <algorithm>
#include <map>
#include <vector>

namespace stack::testing {

class BruteForce {
public:
    BruteForce(int width, int height) : width_(width), height_(height) {}

    double value(const std::vector<int>& heights) {
        if (auto found = memo_.find(heights); found != memo_.end())
            return found->second;
        double total = 0;
        for (int piece = 0; piece < PieceCount; ++piece) {
            double best = -1;
            for (const Orientation& orientation : Orientations) {
                if (orientation.piece != piece)
                    continue;
                for (int x = 0; x + orientation.width <= width_; ++x) {
                    bool fits = true;
                    for (int k = 0; k + 1 < orientation.width; ++k)
                        fits = fits && heights[x + k + 1] - heights[x + k] == orientation.surface[k];
                    for (int k = 0; k < orientation.width; ++k)
                        fits = fits && heights[x + k] + orientation.added[k] <= height_;
                    if (!fits)
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
