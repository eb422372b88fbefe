// What the round writer's and the checkpoint's suites share
// (tests/gen/test_round_writer_mpi.cpp, test_checkpoint_mpi.cpp): a table's
// rounds computed and written as stackgen's loop does (generate.cpp), and
// the bytes its /values must hold, laid out from the plain solver's values.
#pragma once

#include "partition.h"
#include "round_writer.h"
#include "rules/rules.h"
#include "solver.h"
#include "support/communicator.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack::testing {

// Computes the first `rounds` rounds (from the top row sum) and hands each to
// the writer as stackgen's loop does; waits for the writes. Collective.
// Returns this rank's connections through those rounds.
inline PieceCounts write_rounds(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                                const Rules& rules, RoundWriter& writer, std::size_t rounds) {
    RoundRunner runner(comm, partition, layout, rules);
    for (std::size_t round = 0; round < rounds; ++round) {
        runner.compute(round);
        runner.begin_exchange(round);
        writer.write(runner.store(runner.round_sum(round)), round);
        runner.release(round);
    }
    runner.finish_exchange();
    writer.finish();
    return runner.connections();
}

// The bytes of /values (table_format.h): the stored boards' values in file
// order, at `precision` (float32: each rounded to nearest), from `values`
// in board-id order.
inline std::string values_bytes(const RoundLayout& layout, const std::vector<double>& values, Precision precision) {
    std::string bytes;
    for (std::uint64_t position = 0; position < layout.stored_states(); ++position) {
        const double value = values[layout.geometry().encode(layout.board_at(position))];
        const float rounded = float(value);
        if (precision == Precision::Float64)
            bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
        else
            bytes.append(reinterpret_cast<const char*>(&rounded), sizeof(rounded));
    }
    return bytes;
}

}  // namespace stack::testing
