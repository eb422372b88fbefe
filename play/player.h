// The reference game played with the table's policy.
//
// A game starts from a board, draws pieces uniformly at random; when the
// drawn piece has no valid placement the game ends (that piece does not
// count); otherwise the placement whose successor has the highest table
// value is taken, ties going to the first orientation in table order, then
// the leftmost column. The result of a game is the number of pieces placed.
//
// Every game g draws from its own generator seeded by (seed, g), so a run's
// results are identical for any number of threads.
#pragma once

#include "placement.h"
#include "table_file.h"

#include <cstdint>
#include <vector>

namespace stack {

// xoshiro256** seeded through splitmix64: small, fast, and reproducible
// across platforms (unlike std::uniform_int_distribution).
class GameRandom {
public:
    GameRandom(std::uint64_t seed, std::uint64_t game);
    std::uint64_t next();
    Piece next_piece();  // uniform over the 7 pieces, rejection-sampled

private:
    std::uint64_t state_[4];
};

struct Move {
    int orientation = -1;  // -1: the piece does not fit
    int column = 0;
    BoardId successor = 0;
};

class TablePlayer {
public:
    explicit TablePlayer(const Table& table);

    const Geometry& geometry() const { return placements_.geometry(); }
    double value(BoardId id) const { return values_[id]; }
    // The table policy's move for `piece` on the board (heights, id).
    Move choose(const Heights& heights, BoardId id, Piece piece) const;
    // Plays one game from `start`; returns the pieces placed.
    std::uint32_t play(BoardId start, GameRandom& random) const;

private:
    PlacementTable placements_;
    const HugeVector<double>& values_;
};

struct RunTotals {
    std::uint64_t games = 0;
    std::uint64_t pieces = 0;          // sum of game lengths
    std::uint64_t pieces_squared = 0;  // sum of squared game lengths
    std::uint32_t best = 0;
};

// Plays `games` games from `start` on `threads` threads.
RunTotals play_games(const TablePlayer& player, BoardId start, std::uint64_t games, std::uint64_t seed,
                     int threads);

// The observed mean against the predicted one.
struct Comparison {
    double expected = 0;
    double mean = 0;
    double standard_deviation = 0;
    double standard_error = 0;
    double z = 0;  // (mean - expected) / standard_error; 0 when both agree exactly with no spread
};
Comparison compare(const RunTotals& totals, double expected);

}  // namespace stack
