// The solver (solver.h) at whatever rank count ctest starts this with (1, 2,
// 3, 4). Rank-0-only checks never ASSERT before a collective call, so a
// failure cannot leave the ranks waiting in different collectives.
// Tables must be bit-identical to the naive baseline for every chunking and
// every set of residue classes, equal the reference's published 4x20 values
// to 1e-12, and match an independent brute-force evaluation, for any piece
// set and any number of worker threads.
#include "brute_force.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "naive_solver.h"
#include "rules/piece_values.h"
#include "reference_data.h"
#include "solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stack {

namespace {

// Solves on every rank and assembles the table on rank 0 in id order, NaN
// where the residue classes leave a board out (empty elsewhere).
// A mirrored solve (canonical boards only) puts each canonical board's value
// at its mirror image too, so its table is compared with a full one.
std::vector<double> solve_table(const Communicator& comm, const Geometry& geometry,
                                ResidueSet residues = ResidueSet::all(stack::TetrominoCells), int lower_columns = 0,
                                PieceCounts* connections = nullptr, const Rules& rules = Rules::tetrominoes(),
                                int threads = 1, bool mirrored = false, KernelKind kind = KernelKind::Cpu) {
    const Partition partition(geometry, comm.size(), comm.rank(), lower_columns);
    const RoundLayout layout(geometry, residues, mirrored);
    const int width = geometry.width();
    std::vector<BoardId> ids;
    std::vector<double> values;
    const PieceCounts counted = solve(
        comm, partition, layout, rules,
        [&](const RoundStore& round) {
            for_each_row_of_round(partition, round, [&](const Heights& heights, const double* row) {
                const BoardId first = geometry.encode(heights);
                for (int h0 = 0; h0 <= geometry.height(); ++h0) {
                    if (layout.index_in_row(round.sum, h0) < 0 || (mirrored && h0 > heights[width - 1]))
                        continue;
                    const double value = row[layout.index_in_row(round.sum, h0)];
                    ids.push_back(first + h0);
                    values.push_back(value);
                    if (mirrored) {
                        Heights image{};
                        for (int column = 0; column < width; ++column)
                            image[column] = column == width - 1 ? h0 : heights[width - 1 - column];
                        ids.push_back(geometry.encode(image));
                        values.push_back(value);
                    }
                }
            });
        },
        threads, sizeof(double), kind);
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

// A mirrored solve (canonical boards, h0 <= h(W-1), their images read
// mirrored) gives every board the naive baseline's bits, for every chunking
// that keeps column W-1 an upper column, residue classes, worker threads,
// and the CPU kernel and the GPU's slice work on the CPU; its connections
// are the rules' count over the canonical boards.
TEST(Solver, MirroredTablesGiveTheNaiveBaselineBitsAtEveryBoard) {
    Communicator world(MPI_COMM_WORLD);
    for (auto [width, height] : {std::pair{2, 9}, {3, 8}, {4, 9}, {5, 6}, {6, 4}, {7, 3}}) {
        const Geometry geometry(width, height);
        const testing::NaiveSolution naive =
            world.is_root() ? testing::naive_solve(width, height) : testing::NaiveSolution{};
        const CompositionCodec columns(width - 1, height);
        for (int lower_columns = 1; lower_columns <= std::min(width - 1, 3); ++lower_columns)
            for (const ResidueSet residues : ResidueSets)
                for (const KernelKind kind : {KernelKind::Cpu, KernelKind::CpuRows, KernelKind::Portable})
                    for (const int threads : {1, 2}) {
                        PieceCounts connections;
                        const std::vector<double> table =
                            solve_table(world, geometry, residues, lower_columns, &connections, Rules::tetrominoes(),
                                        threads, true, kind);
                        PieceCounts rules_count(PieceCount, 0);
                        for (int sum = 0; sum <= (width - 1) * height; ++sum) {
                            const PieceCounts round =
                                round_connections(Rules::tetrominoes(), geometry, columns, residues, sum, true);
                            for (int piece = 0; piece < PieceCount; ++piece)
                                rules_count[piece] += round[piece];
                        }
                        if (world.is_root()) {
                            EXPECT_EQ(mismatches(table, naive.values, geometry, residues), 0u)
                                << width << "x" << height << ", " << lower_columns << " lower columns, classes "
                                << residues.text() << ", " << threads << " threads, "
                                << (kind == KernelKind::Cpu       ? "CPU"
                                    : kind == KernelKind::CpuRows ? "CPU row walk"
                                                                  : "portable")
                                << ", np " << world.size();
                            EXPECT_EQ(connections, rules_count) << width << "x" << height << " " << residues.text();
                        }
                    }
    }
}

// Another mirror-closed set (the rectangles; a weighted pair of mirror
// images), mirrored, against the plain solver; a set that is not
// mirror-closed is never mirrored, and a runner refuses to.
TEST(Solver, MirroredSetsGiveThePlainSolversBits) {
    Communicator world(MPI_COMM_WORLD);
    const Rules weighted(
        PieceSet::from_file_text("piece S weight 3\n.##\n##.\n\npiece Z weight 3\n##.\n.##\n\n"
                                 "piece L weight 2\n#.\n##\n\npiece D\n##\n"));
    const Rules rectangles(PieceSet::builtin("rectangles"));
    for (const Rules* rules : {&rectangles, &weighted}) {
        ASSERT_TRUE(rules->mirror_closed());
        for (auto [width, height] : {std::pair{3, 6}, {5, 5}}) {
            const Geometry geometry(width, height);
            const ResidueSet all = ResidueSet::all(rules->modulus());
            const std::vector<double> table =
                solve_table(world, geometry, all, std::min(2, width - 1), nullptr, *rules, 2, true);
            if (world.is_root()) {
                const std::vector<double> plain = solve_piece_set(rules->set(), geometry).values;
                EXPECT_EQ(mismatches(table, plain, geometry, all), 0u) << rules->set().name() << " " << width;
            }
        }
    }
    const Rules pentominoes(PieceSet::builtin("pentominoes"));
    EXPECT_FALSE(pentominoes.mirror_closed());
    const Geometry geometry(5, 6);
    const Partition partition(geometry, world.size(), world.rank(), 2);
    const RoundLayout layout(geometry, ResidueSet::all(5), true);
    EXPECT_THROW(RoundRunner(world, partition, layout, pentominoes), std::invalid_argument);
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

}  // namespace stack
