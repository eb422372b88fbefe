// Google Benchmark targets for the kernels: placement enumeration per state,
// the value of one state, a whole solve on one rank against the naive
// baseline, one round of the row kernel, one round's exchange (2 ranks),
// one player move and the exact length distribution (a table in memory or
// from a file). MPI is initialised for the solver.
#include "naive_solver.h"
#include "rules/rules.h"
#include "stacking/distribution.h"
#include "stacking/player.h"
#include "solver.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <mpi.h>

namespace stack {
namespace {

// Walks consecutive ids of a 6x20 well from the middle of the id space.
void BM_PlacementEnumeration(benchmark::State& state) {
    const Geometry geometry(6, 20);
    const PlacementTable table(geometry, Rules::tetrominoes());
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
    const PlacementTable table(geometry, Rules::tetrominoes());
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

// All rounds of a solve on one rank, without a file; items = states.
void BM_Solve(benchmark::State& state) {
    const Geometry geometry(int(state.range(0)), 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    const RoundLayout layout(geometry, ResidueSet::all(stack::TetrominoCells));
    for (auto _ : state)
        benchmark::DoNotOptimize(solve(self, partition, layout, Rules::tetrominoes()));
    state.SetItemsProcessed(state.iterations() * std::int64_t(geometry.states()));
}
BENCHMARK(BM_Solve)->Arg(4)->Arg(5)->Arg(6)->Unit(benchmark::kMillisecond);

// The same for residue class 0 alone; items = states of the class.
void BM_SolveClass0(benchmark::State& state) {
    const Geometry geometry(int(state.range(0)), 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    const RoundLayout layout(geometry, ResidueSet::of(stack::TetrominoCells, {0}));
    for (auto _ : state)
        benchmark::DoNotOptimize(solve(self, partition, layout, Rules::tetrominoes()));
    state.SetItemsProcessed(state.iterations() * std::int64_t(layout.stored_states()));
}
BENCHMARK(BM_SolveClass0)->Arg(6)->Unit(benchmark::kMillisecond);

// The naive exact single-thread baseline (tests/naive_solver.h) on the same
// shapes; items = states.
void BM_NaiveSolve(benchmark::State& state) {
    const int width = int(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(testing::naive_solve(width, 20).values.data());
    state.SetItemsProcessed(state.iterations() * std::int64_t(Geometry(width, 20).states()));
}
BENCHMARK(BM_NaiveSolve)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// The largest round of a 6x20 solve on one rank (the slice kernel),
// computed again and again after the rounds before it; items = states of
// that round.
void BM_OneRound(benchmark::State& state) {
    const Geometry geometry(6, 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    const RoundLayout layout(geometry, ResidueSet::all(stack::TetrominoCells));
    RoundRunner runner(self, partition, layout, Rules::tetrominoes());
    std::size_t largest = 0;
    for (std::size_t round = 0; round < runner.round_count(); ++round)
        if (layout.round_values(runner.round_sum(round)) > layout.round_values(runner.round_sum(largest)))
            largest = round;
    for (std::size_t round = 0; round < largest; ++round)
        runner.run(round);
    runner.compute(largest);
    std::uint64_t states = 0;
    for (auto _ : state)
        states += runner.compute_again(largest).states;
    state.SetItemsProcessed(std::int64_t(states));
}
BENCHMARK(BM_OneRound)->Unit(benchmark::kMillisecond);

// Finding, packing and sending the rows others read after the largest
// round of a 5x20 solve, on every rank of MPI_COMM_WORLD (run under mpirun
// -n 2); bytes = bytes sent by rank 0. A fixed iteration count keeps the
// ranks in step.
void BM_ExchangeRound(benchmark::State& state) {
    Communicator world(MPI_COMM_WORLD);
    if (world.size() < 2) {
        state.SkipWithError("needs 2 or more ranks: mpirun -n 2 stack_bench --benchmark_filter=Exchange");
        return;
    }
    const Geometry geometry(5, 20);
    const Partition partition(geometry, world.size(), world.rank());
    const RoundLayout layout(geometry, ResidueSet::all(stack::TetrominoCells));
    RoundRunner runner(world, partition, layout, Rules::tetrominoes());
    std::size_t largest = 0;
    for (std::size_t round = 0; round < runner.round_count(); ++round)
        if (layout.round_values(runner.round_sum(round)) > layout.round_values(runner.round_sum(largest)))
            largest = round;
    for (std::size_t round = 0; round < largest; ++round)
        runner.run(round);
    runner.compute(largest);
    std::uint64_t sent = 0;
    for (auto _ : state)
        sent += runner.exchange(largest).bytes_sent;
    state.SetBytesProcessed(std::int64_t(sent));
}
BENCHMARK(BM_ExchangeRound)->Iterations(200)->Unit(benchmark::kMicrosecond);

void BM_PlayerMove(benchmark::State& state) {
    const Geometry geometry(6, 20);
    const StackTable table = StackTable::in_memory(geometry, HugeVector<double>(geometry.states(), 0.5));
    const PlacementTable placements(geometry, Rules::tetrominoes());
    const std::unique_ptr<StackingPolicy> policy = make_policy(PolicySpec{}, placements, table);
    const Heights heights = geometry.parse_heights("3,6,8,7,4,6");
    const BoardId id = geometry.encode(heights);
    GameRandom random(1, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            policy->choose(Turn{heights, id, random.next_piece(Rules::tetrominoes()), {}, nullptr}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayerMove);

// The exact length distribution of the table policy from the empty 6x20
// board (3,628,184 reachable boards), on 1 and 2 threads; items = boards.
// The table is solved once, on one rank, whose local order is id order.
void BM_ExactDistribution(benchmark::State& state) {
    static const StackTable table = [] {
        Communicator self(MPI_COMM_SELF);
        const Geometry geometry(6, 20);
        const Partition partition(geometry, 1, 0);
        const RoundLayout layout(geometry, ResidueSet::all(stack::TetrominoCells));
        HugeVector<double> values(geometry.states());
        solve(self, partition, layout, Rules::tetrominoes(), [&](const RoundStore& round) {
            for_each_row_of_round(partition, round, [&](const Heights& heights, const double* row) {
                const BoardId first = geometry.encode(heights);
                for (int h0 = 0; h0 <= geometry.height(); ++h0)
                    values[first + h0] = row[layout.index_in_row(round.sum, h0)];
            });
        });
        return StackTable::in_memory(geometry, std::move(values));
    }();
    const PlacementTable placements(table.geometry(), Rules::tetrominoes());
    const std::unique_ptr<StackingPolicy> policy = make_policy(PolicySpec{}, placements, table);
    std::uint64_t boards = 0;
    for (auto _ : state)
        boards += exact_length_distribution(*policy, table.geometry(), 0, int(state.range(0))).boards;
    state.SetItemsProcessed(std::int64_t(boards));
}
BENCHMARK(BM_ExactDistribution)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same pass as stackplay --check runs it: over a 6x20 table opened from
// the file stackgen wrote (version 2, values by rounds), named by
// STACK_BENCH_TABLE (scripts/front-door sets it); the second argument 1
// opens it as the tool does (copied into id order), 0 leaves it in the
// file's order, as a table too large for the copy is read. The table
// opening is not timed. BM_ExactDistribution, in id order in memory, is the
// floor.
void BM_ExactDistributionFile(benchmark::State& state) {
    const char* path = std::getenv("STACK_BENCH_TABLE");
    if (!path || !*path) {
        state.SkipWithError("set STACK_BENCH_TABLE to a 6x20 table written by stackgen");
        return;
    }
    TableOpenOptions options;
    options.id_order = state.range(1) == 1;
    const StackTable table = StackTable::open(path, options);
    const PlacementTable placements(table.geometry(), table.rules());
    const std::unique_ptr<StackingPolicy> policy = make_policy(PolicySpec{}, placements, table);
    std::uint64_t boards = 0;
    for (auto _ : state)
        boards += exact_length_distribution(*policy, table.geometry(), 0, int(state.range(0))).boards;
    state.SetItemsProcessed(std::int64_t(boards));
}
BENCHMARK(BM_ExactDistributionFile)
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({2, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace stack

// Under mpirun only rank 0 reports.
class SilentReporter : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
};

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    benchmark::Initialize(&argc, argv);
    SilentReporter silent;
    if (rank == 0)
        benchmark::RunSpecifiedBenchmarks();
    else
        benchmark::RunSpecifiedBenchmarks(&silent);
    benchmark::Shutdown();
    MPI_Finalize();
    return 0;
}
