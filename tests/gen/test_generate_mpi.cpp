// stackgen's whole path as a library call (generate.h) at whatever rank count
// ctest starts this with: tables written through it must read back as the
// naive baseline's bits (float32: the float64 values rounded to nearest),
// byte-identical for every rank count; a write that cannot succeed leaves
// nothing behind.
#include "generate.h"
#include "mpi_support.h"
#include "naive_solver.h"
#include "support/communicator.h"
#include "support/errors.h"
#include "table/stack_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace stack {

// stackgen's whole path: tables written at every rank count are the same
// bytes, hold the naive baseline's bits (float32: rounded to nearest) for
// every board, mirrored (canonical boards stored, the others read as their
// mirror images) or full, also once copied into id order as stackplay opens
// them, and leave nothing behind.
TEST(Generate, WritesTheSameBytesAtEveryRankCountAndReadsBackTheBits) {
    Communicator world(MPI_COMM_WORLD);
    const Geometry geometry(5, 8);
    const testing::NaiveSolution naive = testing::naive_solve(5, 8);
    for (const ResidueSet residues :
         {ResidueSet::all(stack::TetrominoCells), ResidueSet::of(stack::TetrominoCells, {0}),
          ResidueSet::of(stack::TetrominoCells, {1, 2})})
        for (Precision precision : {Precision::Float64, Precision::Float32})
            for (const bool mirror : {true, false}) {
                GenerateOptions options;
                options.mirror = mirror;
                options.width = 5;
                options.height = 8;
                options.residues = residues;
                options.precision = precision;
                options.quiet = true;
                const std::string output = testing::shared_temporary_path(world, "stack_generate_test");
                options.output = output;
                generate(world, options);
                if (!world.is_root())
                    continue;
                const StackTable table = StackTable::open(output, {Residency::Resident, 0});
                EXPECT_EQ(table.info().format_version, TableFormatVersion);
                EXPECT_EQ(table.info().residues, residues);
                EXPECT_EQ(table.info().precision, precision);
                EXPECT_EQ(table.info().mirrored, mirror);
                std::uint64_t wrong = 0, held = 0, canonical = 0;
                for (BoardId id = 0; id < geometry.states(); ++id) {
                    const bool holds = residues.holds_sum(geometry.height_sum(id));
                    wrong += table.holds(id) != holds;
                    if (!holds)
                        continue;
                    ++held;
                    const Heights heights = geometry.decode(id);
                    canonical += heights[0] <= heights[geometry.width() - 1];
                    const double expected =
                        precision == Precision::Float64 ? naive.values[id] : double(float(naive.values[id]));
                    const double value = table.value(id);
                    wrong += std::memcmp(&value, &expected, sizeof(double)) != 0;
                }
                EXPECT_EQ(wrong, 0u) << residues.text() << " " << precision_name(precision);
                if (residues.all()) {  // stackplay's opening: every board copied into id order, the same bits
                    TableOpenOptions id_order{Residency::Resident, 0};
                    id_order.id_order = true;
                    id_order.threads = 2;
                    const StackTable copied = StackTable::open(output, id_order);
                    EXPECT_TRUE(copied.id_ordered());
                    std::uint64_t differ = 0;
                    for (BoardId id = 0; id < geometry.states(); ++id) {
                        const double a = table.value(id), b = copied.value(id);
                        differ += std::memcmp(&a, &b, sizeof(double)) != 0;
                    }
                    EXPECT_EQ(differ, 0u) << precision_name(precision) << (mirror ? " mirrored" : " full");
                }
                EXPECT_EQ(mirror ? canonical : held, table.info().stored_states);
                EXPECT_LT(canonical, held);
                // Byte-identical to the one-rank table (the file holds no times).
                std::ifstream file(output, std::ios::binary);
                const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
                const std::string name = "/tmp/stack_generate_np1_" + residues.text() + precision_name(precision)
                                         + (mirror ? "_mirrored" : "") + ".h5";
                if (world.size() == 1) {
                    std::ofstream(name, std::ios::binary) << bytes;
                } else if (std::filesystem::exists(name)) {
                    std::ifstream reference(name, std::ios::binary);
                    const std::string expected((std::istreambuf_iterator<char>(reference)),
                                               std::istreambuf_iterator<char>());
                    EXPECT_EQ(bytes == expected, true) << "differs from the one-rank table " << name;
                }
                std::filesystem::remove(output);
            }
}

TEST(Generate, AFailedWriteLeavesNothingBehind) {
    Communicator world(MPI_COMM_WORLD);
    GenerateOptions options;
    options.width = 3;
    options.height = 4;
    options.quiet = true;
    options.output = "/nonexistent-directory/table.h5";
    EXPECT_THROW(generate(world, options), InputError);  // refused before any compute
    EXPECT_FALSE(std::filesystem::exists("/nonexistent-directory"));
}

}  // namespace stack
