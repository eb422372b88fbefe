#include "rules/piece_values.h"

#include "support/errors.h"
#include "rules/value.h"

#include <algorithm>

namespace stack {

PieceSetSolution solve_piece_set(const PieceSet& set, const Geometry& geometry, std::uint64_t max_states) {
    const int width = geometry.width(), height = geometry.height();
    if (geometry.states() > max_states)
        throw InputError("the " + std::to_string(width) + "x" + std::to_string(height) + " well has "
                         + std::to_string(geometry.states()) + " boards, more than the plain solver's "
                         + std::to_string(max_states));
    std::vector<std::uint64_t> power(std::size_t(width) + 1, 1);  // [column] -> (H+1)^column
    for (int column = 0; column < width; ++column)
        power[column + 1] = power[column] * std::uint64_t(height + 1);
    const std::vector<PieceShape>& pieces = set.pieces();
    std::vector<std::uint32_t> weights;
    for (const PieceShape& piece : pieces)
        weights.push_back(piece.weight);
    PieceSetSolution solution;
    solution.values.resize(geometry.states());
    solution.connections.assign(pieces.size(), 0);
    std::vector<int> heights(static_cast<std::size_t>(width));
    std::vector<double> best(pieces.size());
    for (std::uint64_t id = geometry.states(); id-- > 0;) {
        for (int column = 0; column < width; ++column)
            heights[column] = int(id / power[column] % std::uint64_t(height + 1));
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            best[p] = -1.0;
            for (const ShapeOrientation& orientation : pieces[p].orientations) {
                for (int x = 0; x + orientation.width() <= width; ++x) {
                    if (!orientation.fits(heights.data(), x, height))
                        continue;
                    std::uint64_t successor = id;
                    for (int k = 0; k < orientation.width(); ++k)
                        successor += std::uint64_t(orientation.added[k]) * power[x + k];
                    best[p] = std::max(best[p], solution.values[successor]);
                    ++solution.connections[p];
                }
            }
        }
        solution.values[id] = weighted_value_from_best(best.data(), weights.data(), int(pieces.size()));
    }
    return solution;
}

}  // namespace stack
