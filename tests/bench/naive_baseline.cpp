// naive_baseline --width W --height H [--compare TABLE]
// Times the naive exact single-thread solver (tests/naive_solver.h) and,
// with --compare, checks that a stackgen table holds exactly its bits.
// Prints one line of key=value pairs for scripts/bench.
#include "bench_options.h"
#include "cli.h"
#include "naive_solver.h"
#include "stack_table.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
    const auto options = stack::testing::option_pairs(argc, argv);
    const int width = options ? stack::testing::positive_option(*options, "--width") : 0;
    const int height = options ? stack::testing::positive_option(*options, "--height") : 0;
    const std::string compare = options && options->count("--compare") ? options->at("--compare") : "";
    if (width < 1 || height < 1) {
        std::fprintf(stderr, "usage: naive_baseline --width W --height H [--compare TABLE]\n");
        return 2;
    }
    try {
        const auto start = std::chrono::steady_clock::now();
        const stack::testing::NaiveSolution solution = stack::testing::naive_solve(width, height);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::uint64_t connections = 0;
        for (std::uint64_t count : solution.connections)
            connections += count;
        std::printf("shape=%dx%d seconds=%.3f states=%zu states_per_second=%.0f connections=%llu peak_rss_bytes=%llu "
                    "empty_value=%.15f",
                    width, height, seconds, solution.values.size(), solution.values.size() / seconds,
                    static_cast<unsigned long long>(connections),
                    static_cast<unsigned long long>(stack::peak_rss_bytes()), solution.values[0]);
        int status = 0;
        if (!compare.empty()) {
            const stack::StackTable table = stack::StackTable::open(compare, {stack::Residency::Resident, 0});
            bool same = table.geometry().states() == solution.values.size();
            for (stack::BoardId id = 0; same && id < solution.values.size(); ++id) {
                const double value = table.value(id);
                same = std::memcmp(&value, &solution.values[id], sizeof(double)) == 0;
            }
            std::printf(" bit_identical_to_table=%s", same ? "yes" : "no");
            status = same ? 0 : 1;
        }
        std::printf("\n");
        return status;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "naive_baseline: error: %s\n", error.what());
        return 2;
    }
}
