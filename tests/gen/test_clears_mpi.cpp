// The well game's tables (gen/clears.h) through stackgen's whole path, at
// whatever rank count ctest starts this with: with plain sweeps every
// board holds the naive sweeps' bits (tests/naive_solver.h: the same
// scheme written the plain way), mirrored or full, on 1 or 2 threads, by
// the CPU kernel and (one rank) by the GPU's slice work on the CPU, which
// reads its tetrises itself; with the extrapolation, fewer sweeps and every
// value inside its proven bracket around the fixed point found by a
// different iteration; a run cut short by --max-sweeps resumes to the same
// bits; sets without the I and runs that cannot sweep are refused.
#include "clears.h"
#include "generate.h"
#include "mpi_support.h"
#include "naive_solver.h"
#include "support/communicator.h"
#include "support/errors.h"
#include "table/stack_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

namespace stack {
namespace {

GenerateOptions clears_options(int width, int height) {
    GenerateOptions options;
    options.width = width;
    options.height = height;
    options.clears = Clears::Tetris;
    options.quiet = true;
    return options;
}

// Boards of `table` whose value is not `expected`'s bits, over the boards
// of its classes.
std::uint64_t differing_boards(const StackTable& table, const Geometry& geometry, const std::vector<double>& expected) {
    std::uint64_t wrong = 0;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        if (!table.holds(id))
            continue;
        const double value = table.value(id);
        wrong += std::memcmp(&value, &expected[id], sizeof(double)) != 0;
    }
    return wrong;
}

}  // namespace

TEST(Clears, SweepsGiveTheNaiveSweepsBitsAtEveryBoard) {
    Communicator world(MPI_COMM_WORLD);
    struct Case {
        int width, height;
        std::vector<int> classes;
        bool mirror;
        int threads;
        bool portable = false;  // the GPU's slice work on the CPU (one rank)
    };
    for (const Case& run :
         {Case{4, 8, {0, 1, 2, 3}, true, 1}, Case{4, 8, {0, 1, 2, 3}, false, 2}, Case{5, 6, {0}, true, 2},
          Case{5, 6, {0, 3}, false, 1}, Case{4, 8, {0, 1, 2, 3}, true, 2, true}, Case{5, 6, {0, 3}, false, 1, true},
          Case{6, 6, {2}, true, 2, true}}) {
        if (run.portable && world.size() > 1)
            continue;
        const Geometry geometry(run.width, run.height);
        const testing::NaiveSweeps naive = testing::naive_sweeps(run.width, run.height, 1e-10, run.classes);
        GenerateOptions options = clears_options(run.width, run.height);
        options.mirror = run.mirror;
        options.threads = run.threads;
        options.portable_kernel = run.portable;
        options.extrapolate = false;
        options.residues = ResidueSet::of(4, std::vector<std::int64_t>(run.classes.begin(), run.classes.end()));
        const std::string output = testing::shared_temporary_path(world, "stack_clears_test");
        options.output = output;
        generate(world, options);
        if (!world.is_root())
            continue;
        const StackTable table = StackTable::open(output, {Residency::Resident, 0});
        const std::string what = std::to_string(run.width) + "x" + std::to_string(run.height)
                                 + (run.mirror ? " mirrored" : " full") + " threads " + std::to_string(run.threads)
                                 + " classes " + options.residues->text() + (run.portable ? " portable" : "");
        EXPECT_EQ(table.info().format_version, ClearsFormatVersion) << what;
        EXPECT_EQ(table.info().clears, Clears::Tetris) << what;
        EXPECT_EQ(table.info().mirrored, run.mirror) << what;
        EXPECT_EQ(table.info().sweeps.sweep, naive.sweeps) << what;
        EXPECT_LE(table.info().sweeps.bound, 1e-10) << what;
        EXPECT_TRUE(table.info().sweeps.proven) << what;
        EXPECT_EQ(table.info().sweeps.tolerance, 1e-10) << what;
        EXPECT_EQ(differing_boards(table, geometry, naive.values), 0u) << what;
        EXPECT_FALSE(std::filesystem::exists(sweep_name(output))) << what;
        std::filesystem::remove(output);
    }
}

// The fixed point by another road: Jacobi iteration (every board from the
// last iterate alone, from all zeros) run to a change of 1e-14, against
// which every value of the table is within the bound the table states, and
// V(empty) inside its stated bracket, with the extrapolation and without
// (which takes more sweeps); the tetris makes the game no shorter than the
// no-clear one anywhere, and longer from the empty board.
TEST(Clears, ValuesAreTheFixedPoint) {
    Communicator world(MPI_COMM_WORLD);
    const int width = 4, height = 8;
    const Geometry geometry(width, height);
    std::int64_t sweeps[2] = {0, 0};
    for (const bool extrapolate : {false, true}) {
        GenerateOptions options = clears_options(width, height);
        const std::string output = testing::shared_temporary_path(world, "stack_clears_fixed");
        options.output = output;
        options.extrapolate = extrapolate;
        generate(world, options);
        if (!world.is_root())
            continue;
        const std::vector<std::uint64_t> power = testing::naive_powers(width, height);
        const std::uint64_t tetris = testing::naive_tetris_id(power, width);
        std::vector<double> last(geometry.states(), 0.0), next(geometry.states(), 0.0);
        std::vector<int> heights(width);
        for (double change = 1; change > 1e-14;) {
            change = 0;
            for (BoardId id = 0; id < geometry.states(); ++id) {
                int lowest = height;
                for (int column = 0; column < width; ++column) {
                    heights[column] = static_cast<int>(id / power[column] % (height + 1));
                    lowest = std::min(lowest, heights[column]);
                }
                std::array<double, PieceCount> best = testing::naive_best(width, height, power, heights, id, last);
                if (lowest >= 4)
                    best[PieceI] = std::max(best[PieceI], last[id - tetris]);
                double sum = 0;
                for (const double b : best)
                    sum += 1 + b;
                next[id] = sum / double(PieceCount);
                change = std::max(change, std::fabs(next[id] - last[id]));
            }
            last.swap(next);
        }
        const StackTable table = StackTable::open(output, {Residency::Resident, 0});
        const std::vector<double> no_clears = testing::naive_solve(width, height).values;
        double farthest = 0;
        std::uint64_t below = 0;
        for (BoardId id = 0; id < geometry.states(); ++id)
            if (table.holds(id)) {
                farthest = std::max(farthest, std::fabs(table.value(id) - last[id]));
                below += table.value(id) < no_clears[id];
            }
        const SweepState& state = table.info().sweeps;
        EXPECT_TRUE(state.proven);
        EXPECT_LE(state.bound, 1e-10);
        EXPECT_LE(farthest, state.bound + 1e-14) << "extrapolate " << extrapolate;
        EXPECT_LE(state.empty_low, last[0] + 1e-14);
        EXPECT_GE(state.empty_high, last[0] - 1e-14);
        EXPECT_EQ(below, 0u);                            // a tetris is one more move: never worse
        EXPECT_GT(table.value(0), no_clears[0] + 0.05);  // 2.369 against 2.309
        sweeps[extrapolate ? 1 : 0] = state.sweep;
        std::filesystem::remove(output);
    }
    if (world.is_root()) {
        EXPECT_LT(sweeps[1], sweeps[0]);
    }
}

// --max-sweeps stops a run with the last sweep on disk; --resume goes on
// from it to the bits of a run made at once.
TEST(Clears, AStoppedRunResumesToTheSameBits) {
    Communicator world(MPI_COMM_WORLD);
    const int width = 4, height = 8;
    const Geometry geometry(width, height);
    GenerateOptions options = clears_options(width, height);
    const std::string output = testing::shared_temporary_path(world, "stack_clears_resume");
    options.output = output;
    options.max_sweeps = 3;
    options.extrapolate = false;  // a resumed run's targets are the sweep on disk, not a jump from it
    EXPECT_THROW(generate(world, options), CollectiveError);
    if (world.is_root()) {
        EXPECT_FALSE(std::filesystem::exists(output));
        EXPECT_TRUE(std::filesystem::exists(sweep_name(output)));
        const StackTable sweep = StackTable::open(sweep_name(output), {Residency::Resident, 0});
        EXPECT_EQ(sweep.info().sweeps.sweep, 3);
    }
    EXPECT_THROW(generate(world, options), InputError);  // a sweep in the way, no --resume
    options.max_sweeps = 1000;
    options.resume = true;
    generate(world, options);
    if (!world.is_root())
        return;
    const StackTable table = StackTable::open(output, {Residency::Resident, 0});
    const testing::NaiveSweeps naive = testing::naive_sweeps(width, height, 1e-10, {0, 1, 2, 3});
    EXPECT_EQ(table.info().sweeps.sweep, naive.sweeps);
    EXPECT_EQ(differing_boards(table, geometry, naive.values), 0u);
    EXPECT_FALSE(std::filesystem::exists(sweep_name(output)));
    std::filesystem::remove(output);
}

// The extrapolated sweeps are one computation whatever does them: the CPU
// kernel at 1 and 2 threads (and at every rank count ctest starts this
// with) and, on one rank, the GPU's slice work on the CPU give the same
// bits, in fewer sweeps than plain sweeps.
TEST(Clears, ExtrapolatedSweepsAreTheSameEverywhere) {
    Communicator world(MPI_COMM_WORLD);
    const int width = 5, height = 8;
    const Geometry geometry(width, height);
    const testing::NaiveSweeps naive = testing::naive_sweeps(width, height, 1e-10, {0, 1, 2, 3});
    std::vector<double> first;
    for (const int threads : {1, 2, 0}) {  // 0: the portable slice work, one thread
        const bool portable = threads == 0;
        if (portable && world.size() > 1)
            continue;
        GenerateOptions options = clears_options(width, height);
        options.threads = portable ? 1 : threads;
        options.portable_kernel = portable;
        const std::string output = testing::shared_temporary_path(world, "stack_clears_jumps");
        options.output = output;
        generate(world, options);
        if (!world.is_root())
            continue;
        const StackTable table = StackTable::open(output, {Residency::Resident, 0});
        EXPECT_LT(table.info().sweeps.sweep, naive.sweeps) << "threads " << threads;
        EXPECT_LE(table.info().sweeps.bound, 1e-10);
        std::vector<double> values(geometry.states(), 0.0);
        for (BoardId id = 0; id < geometry.states(); ++id)
            values[id] = table.value(id);
        if (first.empty()) {
            first = values;
        } else {
            EXPECT_EQ(differing_boards(table, geometry, first), 0u) << "threads " << threads;
        }
        std::filesystem::remove(output);
    }
}

TEST(Clears, RefusesWhatCannotSweep) {
    Communicator world(MPI_COMM_WORLD);
    GenerateOptions options = clears_options(5, 6);
    options.output = testing::shared_temporary_path(world, "stack_clears_refused");
    options.pieces = PieceSet::builtin("pentominoes");  // no 1 x 4 I
    EXPECT_THROW(generate(world, options), InputError);
    options.pieces = PieceSet::builtin("tetrominoes");
    options.precision = Precision::Float32;
    options.band_precision = Precision::Float32;
    EXPECT_THROW(generate(world, options), InputError);
    options.precision = Precision::Float64;
    options.band_precision = Precision::Float64;
    if (world.size() > 1) {  // the slice work sweeps on one rank
        options.portable_kernel = true;
        EXPECT_THROW(generate(world, options), InputError);
    }
    if (world.is_root()) {
        EXPECT_FALSE(std::filesystem::exists(*options.output));
    }
}

}  // namespace stack
