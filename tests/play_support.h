// Tables for the player's tests, built in memory and read through the same
// lookup interface (StackTable) as a table opened from a file.
#pragma once

#include "naive_solver.h"
#include "reference_data.h"
#include "table/stack_table.h"

namespace stack::testing {

inline StackTable solved_table(int width, int height) {
    const std::vector<double> values = naive_solve(width, height).values;
    return StackTable::in_memory(Geometry(width, height), HugeVector<double>(values.begin(), values.end()));
}

inline StackTable reference_table() {
    const std::vector<double> reference = reference_values_4x20();
    return StackTable::in_memory(Geometry(4, 20), HugeVector<double>(reference.begin(), reference.end()));
}

inline HugeVector<double> flat_values(int width, int height, double value = 0.0) {
    return HugeVector<double>(Geometry(width, height).states(), value);
}

inline StackTable flat_table(int width, int height, double value = 0.0) {
    return StackTable::in_memory(Geometry(width, height), flat_values(width, height, value));
}

}  // namespace stack::testing
