// The value rounds.
//
// Every placement adds exactly 4 cells, so V(s) depends only on states whose
// height sum is 4 larger. The layered schedule walks groups of 4 consecutive
// height sums from the top of the well down: a group's successors all lie in
// the group before it, so one pass computes the exact fixed point, each state
// once, in floor(W*H/4)+1 rounds. The jacobi schedule re-creates the
// reference: floor(W*H/4)+1 full rounds over every state, each reading only
// the previous round's values. Both evaluate each state with state_value()
// from exact successor values in their last round, so they produce the same
// bits, for any number of ranks.
#pragma once

#include "communicator.h"
#include "exchange.h"
#include "partition.h"
#include "value.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stack {

enum class Schedule : std::uint8_t { Layered, Jacobi, Count };

std::string_view schedule_name(Schedule schedule);
Schedule parse_schedule(const std::string& text);  // throws InputError

struct SumRange {
    int low_sum;
    int high_sum;
};

// The height-sum ranges computed by each round, in order.
std::vector<SumRange> make_rounds(const Geometry& geometry, Schedule schedule);

struct RoundRecord {
    SumRange range{};
    std::uint64_t states = 0;           // computed by this rank
    std::uint64_t values_received = 0;  // ghosts received by this rank
    double compute_seconds = 0;
    double plan_seconds = 0;
    double exchange_seconds = 0;
};

struct Solution {
    std::vector<double> values;  // [local index] -> V
    PieceCounts connections{};   // valid placements over owned states, per piece
    std::vector<RoundRecord> rounds;
    std::size_t exchange_peak_bytes = 0;
};

// The rounds of one solve, run one at a time (collective over `comm`).
// Running a layered round again recomputes the same values, which is what
// the one-round benchmark does.
class RoundRunner {
public:
    RoundRunner(const Communicator& comm, const Partition& partition, Schedule schedule);

    std::size_t round_count() const { return rounds_.size(); }
    const SumRange& range(std::size_t round) const { return rounds_[round]; }
    // Plans and runs the exchange, then computes the round's owned states.
    RoundRecord run(std::size_t round);
    // The values and counts after the last round.
    Solution finish() &&;

private:
    const Partition& partition_;
    Schedule schedule_;
    PlacementTable placements_;
    Routes routes_;
    Exchange exchange_;
    std::vector<SumRange> rounds_;
    Solution solution_;
    std::vector<double> previous_;  // jacobi only: the last round's values
};

// Called on every rank after each round with that rank's record.
using RoundObserver = std::function<void(std::size_t round, std::size_t rounds, const RoundRecord& record)>;

// All rounds; collective over `comm`.
Solution solve(const Communicator& comm, const Partition& partition, Schedule schedule,
               const RoundObserver& observer = {});

}  // namespace stack
