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
// `source` (owned) or the exchange's ghosts, writing into `target`. Returns
// the number of states computed.
std::uint64_t compute_round(const Partition& partition, const PlacementTable& placements, const Routes& routes,
                   const Exchange& exchange, SumRange range, const std::vector<double>& source,
                   std::vector<double>& target, PieceCounts* connections) {
    const int me = partition.rank();
    std::uint64_t computed = 0;
    partition.for_each_run(range.low_sum, range.high_sum,
                           [&](BoardId first, std::uint64_t first_local, std::uint64_t count, Heights heights) {
        computed += count;
        for (std::uint64_t i = 0; i < count; ++i, ++heights[0]) {
            const BoardId id = first + i;
            const std::uint64_t local = first_local + i;
            target[local] = state_value(placements, heights, [&](int o, int x, BoardId offset) {
                const Route& route = routes(o, x);
                return route.successor_owner == me ? source[local + route.local_shift] : exchange.ghost(id + offset);
            }, connections);
        }
    });
    return computed;
}

}  // namespace

RoundRunner::RoundRunner(const Communicator& comm, const Partition& partition, Schedule schedule)
    : partition_(partition), schedule_(schedule), placements_(partition.geometry()), routes_(partition),
      exchange_(comm, partition, placements_, routes_), rounds_(make_rounds(partition.geometry(), schedule)) {
    solution_.values.assign(partition.owned_states(), 0.0);
    if (schedule == Schedule::Jacobi)
        previous_.assign(partition.owned_states(), 0.0);
}

RoundRecord RoundRunner::run(std::size_t round) {
    RoundRecord record;
    record.range = rounds_[round];
    const ExchangeTimes before = exchange_.times();
    exchange_.plan(record.range.low_sum, record.range.high_sum);
    if (schedule_ == Schedule::Jacobi)
        std::swap(previous_, solution_.values);
    const std::vector<double>& source = schedule_ == Schedule::Jacobi ? previous_ : solution_.values;
    exchange_.run(source);
    record.plan_seconds = exchange_.times().plan_seconds - before.plan_seconds;
    record.exchange_seconds = exchange_.times().exchange_seconds - before.exchange_seconds;
    record.values_received = exchange_.values_received();

    const double start = MPI_Wtime();
    // Jacobi visits every state every round; count its placements once.
    const bool count_connections = schedule_ == Schedule::Layered || round == 0;
    record.states = compute_round(partition_, placements_, routes_, exchange_, record.range, source,
                                  solution_.values, count_connections ? &solution_.connections : nullptr);
    record.compute_seconds = MPI_Wtime() - start;
    solution_.rounds.push_back(record);
    return record;
}

Solution RoundRunner::finish() && {
    solution_.exchange_peak_bytes = exchange_.peak_buffer_bytes();
    return std::move(solution_);
}

Solution solve(const Communicator& comm, const Partition& partition, Schedule schedule,
               const RoundObserver& observer) {
    RoundRunner runner(comm, partition, schedule);
    for (std::size_t round = 0; round < runner.round_count(); ++round) {
        const RoundRecord record = runner.run(round);
        if (observer)
            observer(round, runner.round_count(), record);
    }
    return std::move(runner).finish();
}

}  // namespace stack
