#include "solver.h"

#include "errors.h"

#include <utility>

namespace stack {

std::string_view schedule_name(Schedule schedule) { return schedule == Schedule::Jacobi ? "jacobi" : "layered"; }

Schedule parse_schedule(const std::string& text) {
    for (int s = 0; s < int(Schedule::Count); ++s)
        if (text == schedule_name(Schedule(s)))
            return Schedule(s);
    throw InputError("--schedule must be 'layered' or 'jacobi', got '" + text + "'");
}

std::vector<SumRange> make_rounds(const Geometry& geometry, Schedule schedule) {
    const int top = geometry.max_height_sum();
    const int count = top / CellsPerPiece + 1;
    std::vector<SumRange> rounds;
    for (int round = 0; round < count; ++round) {
        if (schedule == Schedule::Jacobi) {
            rounds.push_back({0, top});
        } else {
            const int high = top - CellsPerPiece * round;
            rounds.push_back({high - (CellsPerPiece - 1) > 0 ? high - (CellsPerPiece - 1) : 0, high});
        }
    }
    return rounds;
}

namespace {

// Computes the owned states of one round, reading successor values from
// `source` (owned) or the exchange's ghosts, writing into `target`.
void compute_round(const Partition& partition, const PlacementTable& placements, const Routes& routes,
                   const Exchange& exchange, SumRange range, const std::vector<double>& source,
                   std::vector<double>& target, PieceCounts* connections) {
    const int me = partition.rank();
    partition.for_each_run(range.low_sum, range.high_sum,
                           [&](BoardId first, std::uint64_t first_local, std::uint64_t count, Heights heights) {
        for (std::uint64_t i = 0; i < count; ++i, ++heights[0]) {
            const BoardId id = first + i;
            const std::uint64_t local = first_local + i;
            target[local] = state_value(placements, heights, [&](int o, int x, BoardId offset) {
                const Route& route = routes(o, x);
                return route.successor_owner == me ? source[local + route.local_shift] : exchange.ghost(id + offset);
            }, connections);
        }
    });
}

}  // namespace

Solution solve(const Communicator& comm, const Partition& partition, Schedule schedule,
               const RoundObserver& observer) {
    const PlacementTable placements(partition.geometry());
    const Routes routes(partition);
    Exchange exchange(comm, partition, placements, routes);
    const std::vector<SumRange> rounds = make_rounds(partition.geometry(), schedule);

    Solution solution;
    solution.values.assign(partition.owned_states(), 0.0);
    std::vector<double> previous;  // jacobi only: the last round's values
    if (schedule == Schedule::Jacobi)
        previous.assign(partition.owned_states(), 0.0);

    for (std::size_t round = 0; round < rounds.size(); ++round) {
        RoundRecord record;
        record.range = rounds[round];
        const ExchangeTimes before = exchange.times();
        exchange.plan(record.range.low_sum, record.range.high_sum);
        if (schedule == Schedule::Jacobi)
            std::swap(previous, solution.values);
        const std::vector<double>& source = schedule == Schedule::Jacobi ? previous : solution.values;
        exchange.run(source);
        record.plan_seconds = exchange.times().plan_seconds - before.plan_seconds;
        record.exchange_seconds = exchange.times().exchange_seconds - before.exchange_seconds;
        record.values_received = exchange.values_received();

        const double start = MPI_Wtime();
        const bool count_connections = schedule == Schedule::Layered || round == 0;
        compute_round(partition, placements, routes, exchange, record.range, source, solution.values,
                      count_connections ? &solution.connections : nullptr);
        record.compute_seconds = MPI_Wtime() - start;
        record.states = partition.count_states(record.range.low_sum, record.range.high_sum);
        solution.rounds.push_back(record);
        if (observer)
            observer(round, rounds.size(), record);
    }
    solution.exchange_peak_bytes = exchange.peak_buffer_bytes();
    return solution;
}

}  // namespace stack
