// The move benchmarks' boards (bench_moves, bench_web): 64 seeded 10x20
// boards with holes and overhangs, so every run sees the same ones.
#pragma once

#include "srs/moves.h"

#include <random>
#include <vector>

namespace stack::bench {

inline const std::vector<moves::SrsBoard>& move_boards() {
    static const std::vector<moves::SrsBoard> boards = [] {
        std::mt19937_64 random(404);
        std::vector<moves::SrsBoard> made;
        for (int b = 0; b < 64; ++b) {
            moves::SrsBoard board(10, 20);
            std::uniform_int_distribution<int> column_height(0, 12);
            std::bernoulli_distribution hole(b % 2 ? 0.25 : 0.0);
            for (int x = 0; x < 10; ++x) {
                const int top = column_height(random);
                for (int y = 0; y < top; ++y)
                    if (!hole(random))
                        board.fill(x, y);
            }
            made.push_back(board);
        }
        return made;
    }();
    return boards;
}

}  // namespace stack::bench
