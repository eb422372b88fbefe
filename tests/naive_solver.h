// The naive exact baseline: one thread, every id decoded by division, all 19
// orientations tried at every column from the rule's definition, successors
// looked up by id. Ids are visited from the largest down, which is a valid
// order because every placement raises the id. It shares the piece table
// and the value equation (value.h) with the solver and nothing else, so it
// must give the solver's bits exactly. The benchmark suite times it against
// stackgen and the MPI tests compare bits.
#pragma once

#include "brute_force.h"
#include "rules/bracket.h"
#include "rules/rules.h"
#include "rules/pieces.h"
#include "rules/value.h"

#include <array>
#include <cmath>
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

// [column] -> (H+1)^column, for column 0..W.
inline std::vector<std::uint64_t> naive_powers(int width, int height) {
    std::vector<std::uint64_t> power(width + 1, 1);
    for (int column = 0; column < width; ++column)
        power[column + 1] = power[column] * std::uint64_t(height + 1);
    return power;
}

// The id of the board with every column 4 high: what a tetris subtracts.
inline std::uint64_t naive_tetris_id(const std::vector<std::uint64_t>& power, int width) {
    std::uint64_t tetris = 0;
    for (int column = 0; column < width; ++column)
        tetris += 4 * power[column];
    return tetris;
}

// The naive baseline's best successor value of each piece on the board
// `heights` (id `id`), from `values` by id.
inline std::array<double, PieceCount> naive_best(int width, int height, const std::vector<std::uint64_t>& power,
                                                 const std::vector<int>& heights, std::uint64_t id,
                                                 const std::vector<double>& values,
                                                 std::array<std::uint64_t, PieceCount>* connections = nullptr) {
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
                best = values[successor] > best ? values[successor] : best;
                if (connections)
                    ++(*connections)[piece];
            }
        }
        best_of_piece[piece] = best;
    }
    return best_of_piece;
}

inline NaiveSolution naive_solve(int width, int height) {
    const std::vector<std::uint64_t> power = naive_powers(width, height);
    const std::uint64_t states = power[width];
    NaiveSolution solution;
    solution.values.resize(states);
    std::vector<int> heights(width);
    for (std::uint64_t id = states; id-- > 0;) {
        for (int column = 0; column < width; ++column)
            heights[column] = static_cast<int>(id / power[column] % (height + 1));
        const std::array<double, PieceCount> best_of_piece =
            naive_best(width, height, power, heights, id, solution.values, &solution.connections);
        solution.values[id] = value_from_best(best_of_piece.data(), 1, PieceCount, UnitWeights{}, MirrorPartners);
    }
    return solution;
}

// The well game (gen/clears.h) the naive way, in stackgen's sweeps: sweep 0
// the no-clear table, then each sweep every id from the largest down, in
// place, so a placement (a larger id) reads this sweep's value and a
// tetris (every height 4 lower, a smaller id) the last sweep's; the I's
// best takes the tetris when every column is 4 or more high. The sweeps
// stop when the proven bound (rules/bracket.h) is within the tolerance:
// from the sweep's largest change up and down at the boards a tetris lands
// on and its largest value, over the boards of `classes` (classes of the
// height sum mod 4, the tetrominoes'). Same successors, same equation, same order, plain
// sweeps: stackgen's bits with --extrapolate off.
struct NaiveSweeps {
    std::vector<double> values;  // [board id] -> V
    int sweeps = 0;              // the last sweep's number
};

inline NaiveSweeps naive_sweeps(int width, int height, double tolerance, const std::vector<int>& classes) {
    const std::vector<std::uint64_t> power = naive_powers(width, height);
    const std::uint64_t tetris = naive_tetris_id(power, width);
    NaiveSweeps result;
    result.values = naive_solve(width, height).values;
    std::vector<int> heights(width);
    for (int sweep = 1;; ++sweep) {
        // The change at the boards a tetris lands on (every column at most
        // H - 4), each way, and the largest value, over the classes held.
        double up = 0, down = 0, largest = 0;
        for (std::uint64_t id = power[width]; id-- > 0;) {
            int sum = 0, lowest = height;
            for (int column = 0; column < width; ++column) {
                heights[column] = static_cast<int>(id / power[column] % (height + 1));
                sum += heights[column];
                lowest = heights[column] < lowest ? heights[column] : lowest;
            }
            std::array<double, PieceCount> best = naive_best(width, height, power, heights, id, result.values);
            if (lowest >= 4)
                best[PieceI] = result.values[id - tetris] > best[PieceI] ? result.values[id - tetris] : best[PieceI];
            const double value = value_from_best(best.data(), 1, PieceCount, UnitWeights{}, MirrorPartners);
            bool held = false;
            for (const int r : classes)
                held = held || sum % 4 == r;
            int highest = 0;
            for (int column = 0; column < width; ++column)
                highest = heights[column] > highest ? heights[column] : highest;
            if (held && highest <= height - 4) {
                up = value - result.values[id] > up ? value - result.values[id] : up;
                down = result.values[id] - value > down ? result.values[id] - value : down;
            }
            if (held)
                largest = value > largest ? value : largest;
            result.values[id] = value;
        }
        // The bracket (rules/bracket.h): the I's share, 1/7, of the change,
        // four roundings a side.
        const double rounding = 4 * step_rounding(largest, PieceCount);
        const double share = 1.0 / double(int(PieceCount));
        const Bracket bracket{share * up + rounding, share * down + rounding, largest};
        if (bracket.bound() <= tolerance) {
            result.sweeps = sweep;
            return result;
        }
    }
}

}  // namespace stack::testing
