// Google Benchmark targets for the kernels: placement enumeration per state,
// the value of one state, a whole solve (all rounds) on one rank, and one
// player move. MPI is initialised for the solver; run with one rank.
#include "player.h"
#include "solver.h"

#include <benchmark/benchmark.h>
#include <mpi.h>

namespace stack {
namespace {

// Walks consecutive ids of a 6x20 well from the middle of the id space.
void BM_PlacementEnumeration(benchmark::State& state) {
    const Geometry geometry(6, 20);
    const PlacementTable table(geometry);
    BoardId id = geometry.states() / 2;
    std::uint64_t placements = 0;
    for (auto _ : state) {
        table.for_each_placement(geometry.decode(id), [&](int, int, BoardId offset) { placements += offset != 0; });
        id = id + 1 < geometry.states() ? id + 1 : 0;
    }
    benchmark::DoNotOptimize(placements);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlacementEnumeration);

void BM_StateValue(benchmark::State& state) {
    const Geometry geometry(5, 20);
    const PlacementTable table(geometry);
    std::vector<double> values(geometry.states(), 1.0);
    BoardId id = geometry.states() / 3;
    double sum = 0;
    for (auto _ : state) {
        sum += state_value(table, geometry.decode(id), [&](int, int, BoardId offset) { return values[id + offset]; });
        id = id + 1 < geometry.states() ? id + 1 : 0;
    }
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StateValue);

// All rounds of a layered solve on one rank; items = states.
void BM_SolveLayered(benchmark::State& state) {
    const Geometry geometry(int(state.range(0)), 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(solve(self, partition, Schedule::Layered).values.data());
    state.SetItemsProcessed(state.iterations() * std::int64_t(geometry.states()));
}
BENCHMARK(BM_SolveLayered)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// The largest round of a 5x20 layered solve on one rank, run again and
// again after the rounds before it; items = states of that round.
void BM_OneRound(benchmark::State& state) {
    const Geometry geometry(5, 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    RoundRunner runner(self, partition, Schedule::Layered);
    std::size_t largest = 0;
    for (std::size_t round = 0; round < runner.round_count(); ++round) {
        const SumRange range = runner.range(round);
        const SumRange best = runner.range(largest);
        if (partition.count_states(range.low_sum, range.high_sum) > partition.count_states(best.low_sum, best.high_sum))
            largest = round;
    }
    for (std::size_t round = 0; round < largest; ++round)
        runner.run(round);
    std::uint64_t states = 0;
    for (auto _ : state)
        states += runner.run(largest).states;
    state.SetItemsProcessed(std::int64_t(states));
}
BENCHMARK(BM_OneRound)->Unit(benchmark::kMillisecond);

void BM_PlayerMove(benchmark::State& state) {
    Table table;
    table.info.width = 6;
    table.info.height = 20;
    table.values.assign(Geometry(6, 20).states(), 0.5);
    const TablePlayer player(table);
    const Heights heights = player.geometry().parse_heights("3,6,8,7,4,6");
    const BoardId id = player.geometry().encode(heights);
    GameRandom random(1, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(player.choose(heights, id, random.next_piece()));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayerMove);

}  // namespace
}  // namespace stack

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    MPI_Finalize();
    return 0;
}
