// The scores both games share, stated once: the table game's heuristic and
// seed001 policies (stacking/policy.h) read them off the column heights of a
// hole-free stack, the real game's lee, expectimax and seed001 policies
// (tetris/search.h) off the features of its board (tetris/features.h).
#pragma once

namespace stack {

// Lee's weights (Yiyuan Lee's "Tetris AI: the (near) perfect bot", as seed
// 002 prints them; seed 000 prints 0.810066 for the height):
//   -0.510066 aggregate height + 0.760666 complete lines
//   - 0.35663 holes - 0.184483 bumpiness
struct LeeWeights {
    static constexpr double AggregateHeight = -0.510066, CompleteLines = 0.760666, Holes = -0.35663,
                            Bumpiness = -0.184483;
};

// Lee's score of a board's features (higher is better), summed in this
// order by both games so that their scores are the same doubles.
constexpr double lee_score(int aggregate_height, int complete_lines, int holes, int bumpiness) {
    return LeeWeights::AggregateHeight * aggregate_height + LeeWeights::CompleteLines * complete_lines
           + LeeWeights::Holes * holes + LeeWeights::Bumpiness * bumpiness;
}

// Seed 001's objective (rectangle-blocks-cp.txt, its MiniZinc model, weights
// [18, 10, 3, 10]): 18 full_rows + 3 longest_row - 10 h - 10 unreachable,
// h the highest column (higher is better). Every term is an integer, so the
// sum is exact.
constexpr double seed001_objective(int full_rows, int longest_row, int height, int unreachable) {
    return 18.0 * full_rows + 3.0 * longest_row - 10.0 * height - 10.0 * unreachable;
}

}  // namespace stack
