// The scores both games share, stated once: the table game's heuristic and
// seed001 policies (stacking/policy.h) read them off the column heights of a
// hole-free stack, the real game's lee, expectimax and seed001 policies
// (tetris/search.h) off the features of its board (tetris/features.h).
#pragma once

namespace stack {

// Lee's weights (Yiyuan Lee's "Tetris AI: the (near) perfect bot", as seed
// 002 prints them; seed 000 prints 0.810066 for the height), magnitudes as
// both seeds print them, the signs in lee_score:
//   -0.510066 aggregate height + 0.760666 complete lines
//   - 0.35663 holes - 0.184483 bumpiness
struct LeeWeights {
    double aggregate_height = 0.510066, complete_lines = 0.760666, holes = 0.35663, bumpiness = 0.184483;
};

// Lee's score of a board's features (higher is better), summed in this
// order by both games so that their scores are the same doubles (with
// Lee's weights, the same doubles as -0.510066 h + 0.760666 l + ...: a
// negated product and a subtraction are exact).
constexpr double lee_score(int aggregate_height, int complete_lines, int holes, int bumpiness,
                           const LeeWeights& weights = LeeWeights{}) {
    return -weights.aggregate_height * aggregate_height + weights.complete_lines * complete_lines
           - weights.holes * holes - weights.bumpiness * bumpiness;
}

// Seed 001's priorities (rectangle-blocks-cp.txt, its MiniZinc model's
// [18, 10, 3, 10]), in its order: full rows, height, longest row,
// unreachable.
struct Seed001Weights {
    double full_rows = 18, height = 10, longest_row = 3, unreachable = 10;
};

// Seed 001's objective: 18 full_rows + 3 longest_row - 10 h - 10
// unreachable, h the highest column (higher is better). With its weights
// every term is an integer, so the sum is exact.
constexpr double seed001_objective(int full_rows, int longest_row, int height, int unreachable,
                                   const Seed001Weights& weights = Seed001Weights{}) {
    return weights.full_rows * full_rows + weights.longest_row * longest_row - weights.height * height
           - weights.unreachable * unreachable;
}

}  // namespace stack
