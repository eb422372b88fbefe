// The solver at whatever rank count ctest starts this with (1, 2, 3, 4).
// Rank-0-only checks never ASSERT before a collective call, so a failure
// cannot leave the ranks waiting in different collectives.
// Tables must be bit-identical to the naive baseline for every chunking and
// every set of residue classes, equal the reference's published 4x20 values
// to 1e-12, and match an independent brute-force evaluation; tables written
// through stackgen's path must read back as the same bits (float32: the
// float64 values rounded to nearest), byte-identical for every rank count.
#include "brute_force.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "support/errors.h"
#include "generate.h"
#include "naive_solver.h"
#include "rules/piece_values.h"
#include "reference_data.h"
#include "solver.h"
#include "table/stack_table.h"
#include "table/table_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>

namespace stack {

namespace {

// Solves on every rank and assembles the table on rank 0 in id order, NaN
// where the residue classes leave a board out (empty elsewhere).
std::vector<double> solve_table(const Communicator& comm, const Geometry& geometry,
                                ResidueSet residues = ResidueSet::all(stack::TetrominoCells), int lower_columns = 0,
                                PieceCounts* connections = nullptr, const Rules& rules = Rules::tetrominoes(),
                                int threads = 1) {
    const Partition partition(geometry, comm.size(), comm.rank(), lower_columns);
    const RoundLayout layout(geometry, residues);
    std::vector<BoardId> ids;
    std::vector<double> values;
    const PieceCounts counted = solve(
        comm, partition, layout, rules,
        [&](const RoundStore& round) {
            for_each_row_of_round(partition, round, [&](const Heights& heights, const double* row) {
                const BoardId first = geometry.encode(heights);
                for (int h0 = 0; h0 <= geometry.height(); ++h0)
                    if (layout.index_in_row(round.sum, h0) >= 0) {
                        ids.push_back(first + h0);
                        values.push_back(row[layout.index_in_row(round.sum, h0)]);
                    }
            });
        },
        threads);
    if (connections) {
        *connections = counted;
        comm.all_reduce(connections->data(), int(connections->size()), Reduction::Sum);
    }
    const int count = static_cast<int>(ids.size());
    std::vector<int> counts(comm.size()), offsets(comm.size());
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
    for (int r = 1; r < comm.size(); ++r)
        offsets[r] = offsets[r - 1] + counts[r - 1];
    const int total = comm.is_root() ? offsets.back() + counts.back() : 0;
    std::vector<BoardId> all_ids(total);
    std::vector<double> all_values(total);
    MPI_Gatherv(ids.data(), count, MPI_UINT64_T, all_ids.data(), counts.data(), offsets.data(), MPI_UINT64_T, 0,
                comm.get());
    MPI_Gatherv(values.data(), count, MPI_DOUBLE, all_values.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0,
                comm.get());
    if (!comm.is_root())
        return {};
    std::vector<double> table(geometry.states(), std::nan(""));
    for (int i = 0; i < total; ++i)
        table[all_ids[i]] = all_values[i];
    return table;
}

// Same bits where `expected` holds a board of `residues`, NaN elsewhere.
std::uint64_t mismatches(const std::vector<double>& table, const std::vector<double>& expected,
                         const Geometry& geometry, ResidueSet residues) {
    std::uint64_t wrong = 0;
    for (BoardId id = 0; id < geometry.states(); ++id) {
        if (residues.holds_sum(geometry.height_sum(id)))
            wrong += std::memcmp(&table[id], &expected[id], sizeof(double)) != 0;
        else
            wrong += !std::isnan(table[id]);
    }
    return wrong;
}

std::string shared_temporary_path(const Communicator& comm, const std::string& name) {
    std::string path = (std::filesystem::temp_directory_path() / name).string();
    if (comm.is_root())
        path += "." + std::to_string(::getpid()) + ".h5";
    comm.broadcast(path);
    return path;
}

const std::vector<std::pair<int, int>> Shapes = {{1, 9}, {2, 7}, {3, 8}, {4, 20}, {5, 6}, {6, 4}, {7, 3}};
const std::vector<ResidueSet> ResidueSets = {
    ResidueSet::all(stack::TetrominoCells), ResidueSet::of(stack::TetrominoCells, {0}),
    ResidueSet::of(stack::TetrominoCells, {1, 3}), ResidueSet::of(stack::TetrominoCells, {2}),
    ResidueSet::of(stack::TetrominoCells, {0, 1, 2})};

}  // namespace

// The naive baseline evaluates every state by itself in id order with the
// same summation, so the slice solver must reproduce its bits exactly, for
// every rank count, chunking and set of residue classes.
TEST(Solver, GivesTheNaiveBaselineBitsForEveryChunkingAndClass) {
    Communicator world(MPI_COMM_WORLD);
    for (auto [width, height] : Shapes) {
        const Geometry geometry(width, height);
        const testing::NaiveSolution naive =
            world.is_root() ? testing::naive_solve(width, height) : testing::NaiveSolution{};
        for (int lower_columns = 1; lower_columns <= std::min(width, 3); ++lower_columns)
            for (const ResidueSet residues : ResidueSets) {
                const std::vector<double> table = solve_table(world, geometry, residues, lower_columns);
                if (world.is_root()) {
                    EXPECT_EQ(mismatches(table, naive.values, geometry, residues), 0u)
                        << width << "x" << height << ", " << lower_columns << " lower columns, classes "
                        << residues.text() << ", np " << world.size();
                }
            }
    }
}

TEST(Solver, MatchesThePublishedReferenceTable4x20) {
    Communicator world(MPI_COMM_WORLD);
    const std::vector<double> table = solve_table(world, Geometry(4, 20));
    if (!world.is_root())
        return;
    const std::vector<double> reference = testing::reference_values_4x20();
    ASSERT_EQ(table.size(), reference.size());
    double worst = 0;
    for (std::size_t id = 0; id < table.size(); ++id)
        worst = std::max(worst, std::abs(table[id] - reference[id]));
    EXPECT_LE(worst, 1e-12);
    EXPECT_NEAR(table[0], 2.539044371731868, 1e-12);
    EXPECT_NEAR(table[1], 4.975133110004251, 1e-12);
}

TEST(Solver, MatchesBruteForceRecursion) {
    Communicator world(MPI_COMM_WORLD);
    for (auto [width, height] : {std::pair{3, 8}, {5, 4}, {2, 9}}) {
        const Geometry geometry(width, height);
        const std::vector<double> table = solve_table(world, geometry);
        if (!world.is_root())
            continue;
        // Count mismatches instead of ASSERTing: rank 0 must reach the next
        // shape's collective solve whatever it finds here.
        testing::BruteForce brute(width, height);
        std::uint64_t wrong = 0;
        for (BoardId id = 0; id < geometry.states(); ++id) {
            const Heights heights = geometry.decode(id);
            const double expected = brute.value(std::vector<int>(heights.begin(), heights.begin() + width));
            wrong += std::abs(table[id] - expected) > 1e-12;
        }
        EXPECT_EQ(wrong, 0u) << width << "x" << height;
    }
}

// Connections are counted over the stored boards: the four classes alone
// add up to all of them, which equal the naive baseline's count.
TEST(Solver, CountsEveryConnectionOnce) {
    Communicator world(MPI_COMM_WORLD);
    for (auto [width, height] : Shapes) {
        const Geometry geometry(width, height);
        PieceCounts all, by_class(PieceCount, 0);
        solve_table(world, geometry, ResidueSet::all(stack::TetrominoCells), 0, &all);
        for (int residue = 0; residue < stack::TetrominoCells; ++residue) {
            PieceCounts one;
            solve_table(world, geometry, ResidueSet::of(stack::TetrominoCells, {residue}), 0, &one);
            for (int piece = 0; piece < PieceCount; ++piece)
                by_class[std::size_t(piece)] += one[std::size_t(piece)];
        }
        const auto naive = testing::naive_solve(width, height).connections;
        EXPECT_EQ(all, PieceCounts(naive.begin(), naive.end())) << width << "x" << height;
        EXPECT_EQ(by_class, all) << width << "x" << height;
        if (width == 4 && height == 20) {  // the reference's connection file, per piece
            EXPECT_EQ(all, (PieceCounts{629768, 49224, 25137, 24612, 24612, 49224, 49224}));
        }
    }
}

// Any piece set: the built-in ones and a weighted file of pieces of three
// sizes. The generator must give the plain solver's bits (common/rules/
// piece_values.h, which tries every orientation at every column of every
// board by the placement rule and shares nothing else of the kernel) on
// every well up to 5 wide and 8 high, for all classes and each class alone,
// with the plain solver's connections per piece, whatever the rank count.
const char* const WeightedSet = "piece dot weight 5\n#\n\npiece bar weight 2\n###\n\npiece ell reflect\n#.\n##\n";

TEST(Solver, GivesThePlainSolversBitsForEveryPieceSetWellAndClass) {
    Communicator world(MPI_COMM_WORLD);
    std::vector<Rules> sets;
    for (const char* name : {"tetrominoes", "rectangles", "pentominoes"})
        sets.emplace_back(PieceSet::builtin(name));
    sets.emplace_back(PieceSet::from_file_text(WeightedSet));
    std::uint64_t wells = 0;
    for (const Rules& rules : sets)
        for (int width = 1; width <= 5; ++width)
            for (int height = 1; height <= 8; ++height) {
                const Geometry geometry(width, height);
                const PieceSetSolution plain =
                    world.is_root() ? solve_piece_set(rules.set(), geometry) : PieceSetSolution{};
                const int modulus = rules.modulus();
                std::vector<ResidueSet> classes = {ResidueSet::all(modulus)};
                for (int residue = 0; residue < modulus && modulus > 1; ++residue)
                    classes.push_back(ResidueSet::of(modulus, {residue}));
                PieceCounts by_class(std::size_t(rules.piece_count()), 0);
                for (const ResidueSet& residues : classes) {
                    PieceCounts counted;
                    const std::vector<double> table = solve_table(world, geometry, residues, 0, &counted, rules);
                    if (residues.count() == 1 || modulus == 1) {
                        for (std::size_t piece = 0; piece < counted.size(); ++piece)
                            by_class[piece] += counted[piece];
                    }
                    if (!world.is_root())
                        continue;
                    EXPECT_EQ(mismatches(table, plain.values, geometry, residues), 0u)
                        << rules.set().name() << " " << width << "x" << height << ", classes " << residues.text()
                        << ", np " << world.size();
                    if (residues.all()) {
                        EXPECT_EQ(counted, plain.connections) << rules.set().name() << " " << width << "x" << height;
                    }
                }
                if (world.is_root()) {
                    EXPECT_EQ(by_class, plain.connections) << rules.set().name() << " " << width << "x" << height;
                }
                ++wells;
            }
    EXPECT_EQ(wells, 4u * 5 * 8);
}

// Worker threads inside a rank deal a round's slices among themselves: the
// values and the connections counted are the plain solver's for any number
// of them, more threads than a round has slices included.
TEST(Solver, GivesThePlainSolversBitsForAnyNumberOfThreads) {
    Communicator world(MPI_COMM_WORLD);
    for (const char* name : {"tetrominoes", "rectangles", "pentominoes"}) {
        const Rules rules{PieceSet::builtin(name)};
        for (auto [width, height] : std::vector<std::pair<int, int>>{{2, 5}, {4, 8}, {5, 7}}) {
            const Geometry geometry(width, height);
            const PieceSetSolution plain =
                world.is_root() ? solve_piece_set(rules.set(), geometry) : PieceSetSolution{};
            const ResidueSet residues = ResidueSet::all(rules.modulus());
            for (int threads : {1, 2, 3, 7}) {
                PieceCounts counted;
                const std::vector<double> table = solve_table(world, geometry, residues, 0, &counted, rules, threads);
                if (!world.is_root())
                    continue;
                EXPECT_EQ(mismatches(table, plain.values, geometry, residues), 0u)
                    << name << " " << width << "x" << height << ", " << threads << " threads, np " << world.size();
                EXPECT_EQ(counted, plain.connections)
                    << name << " " << width << "x" << height << ", " << threads << " threads";
            }
        }
    }
}

TEST(Partition, OwnsEveryRowOnceAndCountsThemByRound) {
    const Geometry geometry(5, 6);
    for (int ranks : {1, 3, 4})
        for (int lower = 1; lower <= Partition::MaxLowerColumns; ++lower) {
            std::vector<int> seen(geometry.states() / geometry.base(), 0);
            std::uint64_t rows = 0;
            for (int rank = 0; rank < ranks; ++rank) {
                const Partition partition(geometry, ranks, rank, lower);
                const std::vector<std::uint64_t> per_round = partition.owned_rows_per_round();
                for (int sum = 0; sum < partition.rounds(); ++sum) {
                    std::uint64_t counted = 0;
                    for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); ++chunk) {
                        const std::uint64_t before = counted;
                        Heights heights = geometry.decode(partition.chunk_first(chunk));
                        partition.for_each_row_of_slice(
                            heights, sum - partition.upper_sum(chunk),
                            [&](std::uint64_t row, const Heights& row_heights) {
                                const BoardId id = geometry.encode(row_heights);
                                EXPECT_EQ(partition.owner(id), rank);
                                EXPECT_EQ(row, partition.row_in_slice(row_heights, sum - partition.upper_sum(chunk)));
                                ++seen[id / geometry.base()];
                                ++counted;
                            });
                        EXPECT_EQ(counted - before, partition.slice_rows(chunk, sum));
                    }
                    EXPECT_EQ(counted, per_round[sum]);
                    rows += counted;
                }
            }
            EXPECT_EQ(rows, seen.size());
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(seen.size()));
        }
}

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

TEST(Partition, RefusesMoreLowerColumnsThanItsSliceWalkHandles) {
    const Geometry geometry(6, 4);
    EXPECT_NO_THROW(Partition(geometry, 2, 0, Partition::MaxLowerColumns));
    EXPECT_THROW(Partition(geometry, 2, 0, Partition::MaxLowerColumns + 1), std::invalid_argument);
    EXPECT_THROW(Partition(geometry, 2, 0, -1), std::invalid_argument);
}

// A counting partition (stackgen --plan's) lists no upper sums, yet counts
// every rank's chunks and rows exactly as the real partition does, by its
// table of digit sums or by listing the chunks, whichever it picks.
TEST(Partition, CountingPartitionCountsAsTheRealOne) {
    const struct {
        int width, height, ranks;
    } cases[] = {{1, 5, 1}, {2, 3, 2}, {4, 6, 1}, {5, 4, 3}, {6, 5, 7}, {7, 4, 64}, {6, 6, 5000}, {8, 8, 100000}};
    for (const auto& c : cases) {
        const Geometry geometry(c.width, c.height);
        for (const int rank : {0, 1, c.ranks / 2, c.ranks - 1}) {
            if (rank >= c.ranks)
                continue;
            const Partition real(geometry, c.ranks, rank);
            const Partition counting = Partition::counting(geometry, c.ranks, rank);
            ASSERT_TRUE(counting.counts_only());
            EXPECT_TRUE(counting.rows_counted_exactly());
            EXPECT_EQ(counting.lower_columns(), real.lower_columns());
            EXPECT_EQ(counting.owned_chunks(), real.owned_chunks());
            EXPECT_EQ(counting.owned_chunks_by_upper_sum(), real.owned_chunks_by_upper_sum())
                << c.width << "x" << c.height << " rank " << rank << " of " << c.ranks;
            EXPECT_EQ(counting.owned_rows_per_round(), real.owned_rows_per_round());
        }
    }
}

// stackgen's whole path: tables written at every rank count are the same
// bytes, hold the naive baseline's bits (float32: rounded to nearest), and
// leave nothing behind.
TEST(Generate, WritesTheSameBytesAtEveryRankCountAndReadsBackTheBits) {
    Communicator world(MPI_COMM_WORLD);
    const Geometry geometry(5, 8);
    const testing::NaiveSolution naive = testing::naive_solve(5, 8);
    for (const ResidueSet residues :
         {ResidueSet::all(stack::TetrominoCells), ResidueSet::of(stack::TetrominoCells, {0}),
          ResidueSet::of(stack::TetrominoCells, {1, 2})})
        for (Precision precision : {Precision::Float64, Precision::Float32}) {
            GenerateOptions options;
            options.width = 5;
            options.height = 8;
            options.residues = residues;
            options.precision = precision;
            options.quiet = true;
            const std::string output = shared_temporary_path(world, "stack_generate_test");
            options.output = output;
            generate(world, options);
            if (!world.is_root())
                continue;
            const StackTable table = StackTable::open(output, {Residency::Resident, 0});
            EXPECT_EQ(table.info().format_version, 2);
            EXPECT_EQ(table.info().residues, residues);
            EXPECT_EQ(table.info().precision, precision);
            std::uint64_t wrong = 0, held = 0;
            for (BoardId id = 0; id < geometry.states(); ++id) {
                const bool holds = residues.holds_sum(geometry.height_sum(id));
                wrong += table.holds(id) != holds;
                if (!holds)
                    continue;
                ++held;
                const double expected =
                    precision == Precision::Float64 ? naive.values[id] : double(float(naive.values[id]));
                const double value = table.value(id);
                wrong += std::memcmp(&value, &expected, sizeof(double)) != 0;
            }
            EXPECT_EQ(wrong, 0u) << residues.text() << " " << precision_name(precision);
            EXPECT_EQ(held, table.info().stored_states);
            // Byte-identical to the one-rank table (the file holds no times).
            std::ifstream file(output, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
            const std::string name = "/tmp/stack_generate_np1_" + residues.text() + precision_name(precision) + ".h5";
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
    const std::string path = shared_temporary_path(world, "stack_test_v1");
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
