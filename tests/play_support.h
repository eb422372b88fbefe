// Tables for the player's tests, built in memory.
#pragma once

#include "naive_solver.h"
#include "reference_data.h"
#include "table_file.h"

namespace stack::testing {

inline Table solved_table(int width, int height) {
    Table table;
    table.info.width = width;
    table.info.height = height;
    table.info.states = Geometry(width, height).states();
    const std::vector<double> values = naive_solve(width, height).values;
    table.values.assign(values.begin(), values.end());
    return table;
}

inline Table reference_table() {
    Table table;
    table.info.width = 4;
    table.info.height = 20;
    table.info.states = 194481;
    const std::vector<double> reference = reference_values_4x20();
    table.values.assign(reference.begin(), reference.end());
    return table;
}

inline Table flat_table(int width, int height, double value = 0.0) {
    Table table;
    table.info.width = width;
    table.info.height = height;
    table.info.states = Geometry(width, height).states();
    table.values.assign(table.info.states, value);
    return table;
}

}  // namespace stack::testing
