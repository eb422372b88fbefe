// The table library (<stack/table.h>) against the tools' own reader on the
// same table (STACK_BENCH_TABLE): a value lookup and the table policy's
// choice for a piece, on the same 4,096 random boards, through the library's
// checked, exception-guarded interface and through StackTable and the
// table policy directly. scripts/table-library writes results/table-library.md.
#include "stack/table.h"

#include "rules/placement.h"
#include "stacking/policy.h"
#include "table/stack_table.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

std::string table_path() {
    const char* path = std::getenv("STACK_BENCH_TABLE");
    if (!path)
        throw std::runtime_error("set STACK_BENCH_TABLE to a table");
    return path;
}

// 4,096 boards of the table's well with heights drawn uniformly, and a piece each.
struct Boards {
    explicit Boards(const stack::StackTable& table) {
        std::mt19937_64 random(1);
        const stack::Geometry& geometry = table.geometry();
        while (ids.size() < 4096) {
            const stack::BoardId id = random() % geometry.states();
            if (!table.holds(id))
                continue;
            ids.push_back(id);
            const stack::Heights heights = geometry.decode(id);
            boards.emplace_back(heights.begin(), heights.begin() + geometry.width());
            pieces.push_back(int(random() % std::uint64_t(table.rules().piece_count())));
        }
    }
    std::vector<stack::BoardId> ids;
    std::vector<std::vector<int>> boards;
    std::vector<int> pieces;
};

void BM_LibraryValue(benchmark::State& state) {
    const stack::Table table = stack::Table::open(table_path());
    const Boards boards(stack::StackTable::open(table_path()));
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(table.value(boards.boards[i++ & 4095]));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LibraryValue);

void BM_ReaderValue(benchmark::State& state) {
    const stack::StackTable table = stack::StackTable::open(table_path());
    const Boards boards(table);
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(table.value(boards.ids[i++ & 4095]));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReaderValue);

void BM_LibraryBestPlacement(benchmark::State& state) {
    const stack::Table table = stack::Table::open(table_path());
    const stack::StackTable reader = stack::StackTable::open(table_path());
    const Boards boards(reader);
    std::size_t i = 0;
    for (auto _ : state) {
        const std::size_t k = i++ & 4095;
        benchmark::DoNotOptimize(table.best_placement(boards.boards[k], reader.rules().letter(boards.pieces[k])));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LibraryBestPlacement);

void BM_TablePolicyChoice(benchmark::State& state) {
    const stack::StackTable table = stack::StackTable::open(table_path());
    const stack::PlacementTable placements(table.geometry(), table.rules());
    const auto policy = stack::make_policy(stack::PolicySpec{}, placements, table);
    const Boards boards(table);
    std::size_t i = 0;
    for (auto _ : state) {
        const std::size_t k = i++ & 4095;
        const stack::Heights heights = table.geometry().decode(boards.ids[k]);
        benchmark::DoNotOptimize(policy->choose(stack::Turn{heights, boards.ids[k], boards.pieces[k], {}, nullptr}));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TablePolicyChoice);

}  // namespace

BENCHMARK_MAIN();
