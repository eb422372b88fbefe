// The MPI communicator (support/communicator.h) at whatever rank count ctest
// starts this with: how ranks agree on a failure.
#include "support/communicator.h"
#include "support/errors.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace stack {

// The one way ranks agree on a failure: every rank raises the lowest failing
// rank's error, bad input as bad input, anything else as a CollectiveError.
TEST(Communicator, AgreeRaisesTheLowestFailureOnEveryRank) {
    Communicator world(MPI_COMM_WORLD);
    EXPECT_NO_THROW(world.on_every_rank([] {}));
    const int last = world.size() - 1;
    try {
        world.on_every_rank([&] {
            if (world.rank() == last)
                throw InputError("bad input on rank " + std::to_string(world.rank()));
        });
        ADD_FAILURE() << "no rank raised";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()), "bad input on rank " + std::to_string(last));
    }
    try {
        world.on_every_rank([&] { throw std::runtime_error("failed on rank " + std::to_string(world.rank())); });
        ADD_FAILURE() << "no rank raised";
    } catch (const CollectiveError& error) {
        EXPECT_EQ(std::string(error.what()), "failed on rank 0");
    }
    try {
        world.on_root([] { throw InputError("refused on the root"); });
        ADD_FAILURE() << "no rank raised";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()), "refused on the root");
    }
    // Collectives still line up afterwards.
    EXPECT_EQ(world.all_reduce(1, Reduction::Sum), world.size());
}

}  // namespace stack
