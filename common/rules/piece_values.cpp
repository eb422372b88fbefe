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
    const std::vector<PieceShape>& pieces = set.pieces();
    std::vector<std::uint32_t> weights;
    for (const PieceShape& piece : pieces)
        weights.push_back(piece.weight);
    PieceSetSolution solution;
    solution.values.resize(geometry.states());
    solution.connections.assign(pieces.size(), 0);
    std::vector<double> best(pieces.size());
    const Rules rules(set);  // its mirror pairs, for the order of the sum
    for (std::uint64_t id = geometry.states(); id-- > 0;) {
        const Heights heights = geometry.decode(id);
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            best[p] = -1.0;
            for (const Orientation& orientation : pieces[p].orientations) {
                for (int x = 0; x + orientation.width <= width; ++x) {
                    if (!orientation.fits(heights.data(), x, height))
                        continue;
                    const BoardId successor = id + orientation.id_offset(geometry, x);
                    best[p] = std::max(best[p], solution.values[successor]);
                    ++solution.connections[p];
                }
            }
        }
        solution.values[id] =
            value_from_best(best.data(), 1, int(pieces.size()), weights.data(), rules.partners().data());
    }
    return solution;
}

}  // namespace stack
