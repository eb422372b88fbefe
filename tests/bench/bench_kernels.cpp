// Google Benchmark targets for the kernels: placement enumeration per state,
// the value of one state, a whole solve on one rank against the naive
// baseline, one round of the row kernel, one round's exchange (2 ranks) and
// one player move. MPI is initialised for the solver.
#include "naive_solver.h"
#include "distribution.h"
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

// All rounds of a solve on one rank; items = states.
void BM_Solve(benchmark::State& state) {
    const Geometry geometry(int(state.range(0)), 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(solve(self, partition).values.data());
    state.SetItemsProcessed(state.iterations() * std::int64_t(geometry.states()));
}
BENCHMARK(BM_Solve)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// The naive exact single-thread baseline (tests/naive_solver.h) on the same
// shapes; items = states.
void BM_NaiveSolve(benchmark::State& state) {
    const int width = int(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(testing::naive_solve(width, 20).values.data());
    state.SetItemsProcessed(state.iterations() * std::int64_t(Geometry(width, 20).states()));
}
BENCHMARK(BM_NaiveSolve)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// The largest round of a 6x20 solve on one rank (the row kernel), computed
// again and again after the rounds before it; items = states of that round.
void BM_OneRound(benchmark::State& state) {
    const Geometry geometry(6, 20);
    Communicator self(MPI_COMM_SELF);
    const Partition partition(geometry, 1, 0);
    RoundRunner runner(self, partition);
    std::size_t largest = 0;
    for (std::size_t round = 0; round < runner.round_count(); ++round)
        if (partition.count_rows(runner.round_sum(round)) > partition.count_rows(runner.round_sum(largest)))
            largest = round;
    for (std::size_t round = 0; round < largest; ++round)
        runner.run(round);
    std::uint64_t states = 0;
    for (auto _ : state)
        states += runner.compute(largest).states;
    state.SetItemsProcessed(std::int64_t(states));
}
BENCHMARK(BM_OneRound)->Unit(benchmark::kMillisecond);

// Pack + MPI_Alltoallv + unpack of the largest round of a 5x20 solve, on
// every rank of MPI_COMM_WORLD (run under mpirun -n 2); bytes = values
// received by rank 0. A fixed iteration count keeps the ranks in step.
void BM_ExchangeRound(benchmark::State& state) {
    Communicator world(MPI_COMM_WORLD);
    if (world.size() < 2) {
        state.SkipWithError("needs 2 or more ranks: mpirun -n 2 stack_bench --benchmark_filter=Exchange");
        return;
    }
    const Partition partition(Geometry(5, 20), world.size(), world.rank());
    RoundRunner runner(world, partition);
    std::size_t largest = 0;
    for (std::size_t round = 0; round < runner.round_count(); ++round) {
        runner.run(round);
        if (partition.count_rows(runner.round_sum(round)) > partition.count_rows(runner.round_sum(largest)))
            largest = round;
    }
    // Every rank must exchange the same round: rank 0's choice.
    unsigned long chosen = largest;
    MPI_Bcast(&chosen, 1, MPI_UNSIGNED_LONG, 0, world.get());
    std::uint64_t received = 0;
    for (auto _ : state)
        received += runner.exchange(chosen).rows_received;
    state.SetBytesProcessed(std::int64_t(received * partition.geometry().base() * sizeof(double)));
}
BENCHMARK(BM_ExchangeRound)->Iterations(200)->Unit(benchmark::kMicrosecond);

void BM_PlayerMove(benchmark::State& state) {
    const Geometry geometry(6, 20);
    const StackTable table = StackTable::in_memory(geometry, HugeVector<double>(geometry.states(), 0.5));
    const PlacementTable placements(geometry);
    const std::unique_ptr<Policy> policy = make_policy(PolicySpec{}, placements, table);
    const Heights heights = geometry.parse_heights("3,6,8,7,4,6");
    const BoardId id = geometry.encode(heights);
    GameRandom random(1, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(policy->choose(Turn{heights, id, random.next_piece(), {}, nullptr}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayerMove);

// The exact length distribution of the table policy from the empty 6x20
// board (3,628,184 reachable boards), on 1 and 2 threads; items = boards.
// The table is solved once, on one rank, whose local order is id order.
void BM_ExactDistribution(benchmark::State& state) {
    static const StackTable table = [] {
        Communicator self(MPI_COMM_SELF);
        const Partition partition(Geometry(6, 20), 1, 0);
        return StackTable::in_memory(partition.geometry(), solve(self, partition).values);
    }();
    const PlacementTable placements(table.geometry());
    const std::unique_ptr<Policy> policy = make_policy(PolicySpec{}, placements, table);
    std::uint64_t boards = 0;
    for (auto _ : state)
        boards += exact_length_distribution(*policy, table.geometry(), 0, int(state.range(0))).boards;
    state.SetItemsProcessed(std::int64_t(boards));
}
BENCHMARK(BM_ExactDistribution)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

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
