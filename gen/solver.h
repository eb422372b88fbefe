// The value rounds.
//
// The solver works on rows (partition.h): the H+1 states that differ only in
// column 0. A placement that does not touch column 0 fits the whole row or
// none of it and leads to another row, the same column-0 height, so it costs
// one element-wise max over H+1 values. A wider placement at column 0 has
// its h0 fixed by its surface (h1 - h0 = surface[0]): one scalar update. The
// vertical I at column 0 stays in the row, at h0 + 4, so a row is finished
// from the top down.
//
// Placements add 4 cells, of which 0..3 to column 0, so a row of sum S (the
// height sum of columns 1..W-1) reads rows of sums S+1 .. S+4, plus itself.
// One round computes one row sum, from (W-1)*H down to 0: (W-1)*H+1 rounds,
// each state once, from exact successor values. The value of a state is
// V = (1/7) * sum over pieces in enum order of (1 + best successor), exactly
// the order of value.h, so the bits do not depend on the layout or the
// number of ranks.
#pragma once

#include "communicator.h"
#include "exchange.h"
#include "partition.h"
#include "value.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace stack {

struct RoundRecord {
    int sum = 0;                      // the row sum computed
    std::uint64_t states = 0;         // computed by this rank
    std::uint64_t rows_sent = 0;      // to other ranks, after the round
    std::uint64_t rows_received = 0;  // from other ranks, after the round
    double compute_seconds = 0;
    double exchange_seconds = 0;
};

struct Solution {
    HugeVector<double> values;  // [local index] -> V
    PieceCounts connections{};   // valid placements over owned states, per piece
    std::vector<RoundRecord> rounds;
    double plan_seconds = 0;
    std::size_t exchange_bytes = 0;  // plan and buffers, at their largest
};

// The state of one solve, run one round at a time (collective over `comm`).
class RoundRunner {
public:
    RoundRunner(const Communicator& comm, const Partition& partition);
    ~RoundRunner();

    std::size_t round_count() const;
    int round_sum(std::size_t round) const;
    // Computes the round's owned rows, then exchanges them.
    RoundRecord run(std::size_t round);
    // The compute part alone, for benchmarks: computing a round again gives
    // the same values as long as its inputs are still there (always on one
    // rank; with several, until the exchanges of the next rounds).
    RoundRecord compute(std::size_t round);
    // The exchange part alone: sends the round's rows again.
    ExchangeRecord exchange(std::size_t round);
    // The values and counts after the last round.
    Solution finish() &&;

private:
    class RowKernel;
    const Partition& partition_;
    PlacementTable placements_;
    RowRules rules_;
    Exchange exchange_;
    std::unique_ptr<RowKernel> kernel_;
    Solution solution_;
};

// Called on every rank after each round with that rank's record.
using RoundObserver = std::function<void(std::size_t round, std::size_t rounds, const RoundRecord& record)>;

// All rounds; collective over `comm`.
Solution solve(const Communicator& comm, const Partition& partition, const RoundObserver& observer = {});

}  // namespace stack
