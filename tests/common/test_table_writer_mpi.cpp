// The version-1 table writer (table/table_writer.h's write_table),
// collective at whatever rank count ctest starts this with: read back bit
// for bit, whole and lazily.
#include "mpi_support.h"
#include "naive_solver.h"
#include "support/communicator.h"
#include "table/stack_table.h"
#include "table/table_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace stack {

// Version 1 is still written for tests and tools: collectively, each rank
// its block-cyclic slice, read back bit for bit.
TEST(TableFile, VersionOneParallelWriteReadsBackBitIdentical) {
    Communicator world(MPI_COMM_WORLD);
    const Geometry geometry(4, 20);
    const std::vector<double> naive = testing::naive_solve(4, 20).values;
    const std::uint64_t block = geometry.base() * geometry.base();
    const std::uint64_t blocks = geometry.states() / block;
    BlockCyclicSlice slice{std::uint64_t(world.rank()), std::uint64_t(world.size()), 0, block};
    std::vector<double> local;
    for (std::uint64_t b = world.rank(); b < blocks; b += world.size(), ++slice.block_count)
        local.insert(local.end(), naive.begin() + b * block, naive.begin() + (b + 1) * block);
    const std::string path = testing::shared_temporary_path(world, "stack_test_v1");
    TableInfo info;
    info.format_version = 1;
    info.width = 4;
    info.height = 20;
    info.schedule = "rows";
    info.states = info.stored_states = geometry.states();
    info.connections = 851801;
    info.pieces = PieceSet::builtin("tetrominoes");
    info.generator = "test";
    write_table(world, path, info, local, slice);
    if (world.is_root()) {
        const StackTable table = StackTable::open(path, {Residency::Resident, 0});
        std::uint64_t wrong = 0;
        for (BoardId id = 0; id < geometry.states(); ++id) {
            const double value = table.value(id);
            wrong += std::memcmp(&value, &naive[id], sizeof(double)) != 0;
        }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(table.info().format_version, 1);
        EXPECT_EQ(table.info().connections, 851801u);
        // Opened lazily, a table reads only the blocks of the values asked for.
        const StackTable lazy = StackTable::open(path, {Residency::Lazy, 0});
        EXPECT_FALSE(lazy.resident());
        EXPECT_EQ(lazy.memory_bytes(), 0u);
        for (BoardId id : {BoardId(0), BoardId(1), BoardId(194480), BoardId(68484)})
            EXPECT_EQ(lazy.value(id), naive[id]) << id;
        EXPECT_EQ(lazy.memory_bytes(), 3 * StackTable::BlockValues * sizeof(double));  // ids 0 and 1 share a block
        std::filesystem::remove(path);
    }
}

}  // namespace stack
