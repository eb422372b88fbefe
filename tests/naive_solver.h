// The naive exact baseline: one thread, every id decoded by division, all 19
// orientations tried at every column from the rule's definition, successors
// looked up by id. Ids are visited from the largest down, which is a valid
// order because every placement raises the id. It shares the piece table
// and the value equation (value.h) with the solver and nothing else, so it
// must give the solver's bits exactly. The benchmark suite times it against
// stackgen and the MPI tests compare bits.
#pragma once

#include "brute_force.h"
#include "rules/rules.h"
#include "rules/pieces.h"
#include "rules/value.h"

#include <array>
#include <cstdint>
#include <vector>

namespace stack::testing {

struct NaiveSolution {
    std::vector<double> values;                           // [board id] -> V
    std::array<std::uint64_t, PieceCount> connections{};  // [piece] -> valid placements
};

// The tetrominoes' mirror pairs, stated by hand: I, T and O are their own
// mirror images, S and Z, and L and J, each other's (value.h sums each
// pair first).
constexpr int MirrorPartners[PieceCount] = {PieceI,      PieceT,     PieceSquare, PieceZLeft,
                                            PieceZRight, PieceLLeft, PieceLRight};

inline NaiveSolution naive_solve(int width, int height) {
    std::uint64_t states = 1;
    std::vector<std::uint64_t> power(width + 1, 1);  // [column] -> (H+1)^column
    for (int column = 0; column < width; ++column)
        power[column + 1] = power[column] * std::uint64_t(height + 1);
    states = power[width];
    NaiveSolution solution;
    solution.values.resize(states);
    std::vector<int> heights(width);
    for (std::uint64_t id = states; id-- > 0;) {
        for (int column = 0; column < width; ++column)
            heights[column] = static_cast<int>(id / power[column] % (height + 1));
        std::array<double, PieceCount> best_of_piece;
        for (int piece = 0; piece < PieceCount; ++piece) {
            double best = -1.0;
            for (int o = 0; o < stack::Rules::tetrominoes().orientation_count(); ++o) {
                if (stack::Rules::tetrominoes().orientation(o).piece != piece)
                    continue;
                for (int x = 0; x < width; ++x) {
                    if (!fits_by_definition(width, height, heights.data(), o, x))
                        continue;
                    std::uint64_t successor = id;
                    for (int k = 0; k < stack::Rules::tetrominoes().orientation(o).width; ++k)
                        successor += stack::Rules::tetrominoes().orientation(o).added[k] * power[x + k];
                    best = solution.values[successor] > best ? solution.values[successor] : best;
                    ++solution.connections[piece];
                }
            }
            best_of_piece[piece] = best;
        }
        solution.values[id] = value_from_best(best_of_piece.data(), 1, PieceCount, UnitWeights{}, MirrorPartners);
    }
    return solution;
}

}  // namespace stack::testing
