// naive_baseline --width W --height H [--compare TABLE] [--write-v1 FILE]
// Times the naive exact single-thread solver (tests/naive_solver.h); with
// --compare, checks that a stackgen table holds exactly its bits at every
// board it holds; with --write-v1, writes its values as a version-1 table
// (the reference the end-to-end tests hold version-2 tables to).
// Prints one line of key=value pairs for scripts/bench.
#include "bench_options.h"
#include "rules/rules.h"
#include "support/cli.h"
#include "naive_solver.h"
#include "support/communicator.h"
#include "table/stack_table.h"
#include "table/table_writer.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
    const auto options = stack::testing::option_pairs(argc, argv);
    const int width = options ? stack::testing::positive_option(*options, "--width") : 0;
    const int height = options ? stack::testing::positive_option(*options, "--height") : 0;
    const std::string compare = options && options->count("--compare") ? options->at("--compare") : "";
    const std::string write = options && options->count("--write-v1") ? options->at("--write-v1") : "";
    if (width < 1 || height < 1) {
        std::fprintf(stderr, "usage: naive_baseline --width W --height H [--compare TABLE] [--write-v1 FILE]\n");
        return 2;
    }
    try {
        const auto start = std::chrono::steady_clock::now();
        const stack::testing::NaiveSolution solution = stack::testing::naive_solve(width, height);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::uint64_t connections = 0;
        for (std::uint64_t count : solution.connections)
            connections += count;
        std::printf(
            "shape=%dx%d seconds=%.3f states=%zu states_per_second=%.0f connections=%llu peak_rss_bytes=%llu "
            "empty_value=%.15f",
            width, height, seconds, solution.values.size(), solution.values.size() / seconds,
            static_cast<unsigned long long>(connections), static_cast<unsigned long long>(stack::peak_rss_bytes()),
            solution.values[0]);
        int status = 0;
        if (!compare.empty()) {
            const stack::StackTable table = stack::StackTable::open(compare, {stack::Residency::Resident, 0});
            bool same = table.geometry().states() == solution.values.size()
                        && table.info().precision == stack::Precision::Float64;
            for (stack::BoardId id = 0; same && id < solution.values.size(); ++id) {
                if (!table.holds(id))
                    continue;
                const double value = table.value(id);
                same = std::memcmp(&value, &solution.values[id], sizeof(double)) == 0;
            }
            std::printf(" bit_identical_to_table=%s", same ? "yes" : "no");
            status = same ? 0 : 1;
        }
        if (!write.empty()) {
            stack::MpiSession mpi(&argc, &argv);
            const stack::Communicator self(MPI_COMM_SELF);
            stack::TableInfo info;
            info.format_version = 1;
            info.width = width;
            info.height = height;
            info.schedule = "naive";
            info.states = info.stored_states = solution.values.size();
            info.connections = connections;
            info.pieces = stack::PieceSet::builtin("tetrominoes");
            info.generator = "naive_baseline";
            stack::write_table(self, write, info, solution.values, {0, 1, 1, solution.values.size()});
            std::printf(" wrote_v1=%s", write.c_str());
        }
        std::printf("\n");
        return status;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "naive_baseline: error: %s\n", error.what());
        return 2;
    }
}
