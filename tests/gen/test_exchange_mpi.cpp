// The exchange of ghost rows (exchange.h) at whatever rank count ctest starts
// this with: where it may overlap the next round.
#include "exchange.h"
#include "rules/placement.h"
#include "rules/rules.h"
#include "solver.h"
#include "support/communicator.h"

#include <gtest/gtest.h>

namespace stack {

// The exchange of round S overlaps round S-1 only where round S-1 reads no
// ghost row of round S. Worked out by hand for the tetrominoes: a placement
// that changes chunk puts a cell in an upper column (>= L); the only
// placements that add a single cell to columns 1..W-1 are the upright L, J
// and T with three cells in column 0 and one in column 1, which change
// chunk only when column 1 is upper (L = 1).
TEST(Exchange, OverlapsTheNextRoundOnlyWhereItReadsNoneOfTheRows) {
    const Communicator comm(MPI_COMM_WORLD);
    const Geometry geometry(6, 10);
    const Rules& rules = Rules::tetrominoes();
    const PlacementTable placements(geometry, rules);
    const RoundLayout layout(geometry, ResidueSet::all(rules.modulus()));
    for (int lower = 1; lower <= Partition::MaxLowerColumns; ++lower) {
        const Partition partition(geometry, comm.size(), comm.rank(), lower);
        const PlacementRules placement_rules(partition, rules);
        const Exchange exchange(comm, partition, placements, placement_rules);
        EXPECT_EQ(exchange.next_round_reads_none(), lower >= 2) << lower << " lower columns";
        const RoundRunner runner(comm, partition, layout, rules, 1);
        EXPECT_EQ(runner.overlaps_exchange(), lower >= 2 && comm.size() > 1) << lower << " lower columns";
    }
}

}  // namespace stack
