// Exact values for any piece set (piece_set.h), the plain way: one thread,
// the whole table in memory, board ids visited from the largest down (every
// placement adds cells, so it raises the id), each orientation tried at
// every column by its definition (surface and added, orientation.h). It is
// the independent reference the MPI generator is checked against, bit for
// bit, for every set (tests/gen/test_solver_mpi.cpp).
#pragma once

#include "rules/board.h"
#include "rules/piece_set.h"

#include <cstdint>
#include <vector>

namespace stack {

struct PieceSetSolution {
    std::vector<double> values;              // [board id] -> V
    std::vector<std::uint64_t> connections;  // [piece] -> valid placements over all boards
};

// Throws InputError when the well has more than `max_states` boards.
PieceSetSolution solve_piece_set(const PieceSet& set, const Geometry& geometry,
                                 std::uint64_t max_states = std::uint64_t(1) << 31);

}  // namespace stack
