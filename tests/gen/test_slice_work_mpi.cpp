// The GPU path's logic, checked without a GPU (gen/slice_work.h): the
// portable slice work, which the GPU runs as a block of threads a slice (or
// one thread a slice), run in CPU loops (KernelKind::Portable: each phase
// of a block with every thread in turn; PortableThread) must give the CPU
// kernel's bits and its connections, on every rank count ctest starts this with (1, 2, 3), for
// the tetrominoes, pentominoes, rectangles and a weighted piece file with
// one-column pieces of two heights, every chunking, all classes and class
// 0, float64 and float32 bands, 1 and 2 threads; and in a run whose ranks
// mix the two kernels, as a run mixing GPU and CPU ranks does.
#include "rules/rules.h"
#include "slice_work.h"
#include "solver.h"
#include "support/communicator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace stack {

namespace {

// Every round's stored bytes on this rank, in the order the rounds finish.
struct Solved {
    std::vector<char> bytes;
    PieceCounts connections;
};

Solved solve_bytes(const Communicator& comm, const Geometry& geometry, const Rules& rules, const ResidueSet& residues,
                   int lower_columns, int band_value_size, KernelKind kind, int threads) {
    const Partition partition(geometry, comm.size(), comm.rank(), lower_columns);
    const RoundLayout layout(geometry, residues);
    Solved solved;
    solved.connections = solve(
        comm, partition, layout, rules,
        [&](const RoundStore& round) {
            const char* first = round.bytes_at(0);
            solved.bytes.insert(solved.bytes.end(), first, first + round.value_count() * round.value_size);
        },
        threads, band_value_size, kind);
    comm.all_reduce(solved.connections.data(), int(solved.connections.size()), Reduction::Sum);
    return solved;
}

// Pieces of 1, 3 and 2 cells (gcd 1): two one-column pieces whose in-row
// jumps differ (1 and 3), drawn with weights 3, 2 and 1.
const char* const OneColumnPieces = "piece dot weight 3\n#\n\npiece tall weight 2\n#\n#\n#\n\npiece flat\n##\n";

struct Case {
    std::string set;
    int width, height;
};

Rules rules_of(const std::string& set) {
    if (set == "one-column")
        return Rules(PieceSet::from_file_text(OneColumnPieces));
    if (set == "mixed")
        return Rules(PieceSet::named_or_file(std::string(STACK_TEST_DATA) + "/pieces/mixed.txt"));
    return Rules(PieceSet::builtin(set));
}

}  // namespace

TEST(PortableSliceWork, GivesTheCpuKernelsBitsAndConnections) {
    Communicator world(MPI_COMM_WORLD);
    const std::vector<Case> cases = {{"tetrominoes", 4, 12}, {"tetrominoes", 6, 5}, {"tetrominoes", 2, 9},
                                     {"tetrominoes", 7, 3},  {"pentominoes", 5, 7}, {"rectangles", 5, 5},
                                     {"mixed", 4, 6},        {"one-column", 1, 10}, {"one-column", 4, 5}};
    int compared = 0;
    for (const Case& test : cases) {
        const Rules rules = rules_of(test.set);
        const Geometry geometry(test.width, test.height);
        std::vector<ResidueSet> residue_sets = {ResidueSet::all(rules.modulus())};
        if (rules.modulus() > 1)
            residue_sets.push_back(ResidueSet::of(rules.modulus(), {0}));
        for (const ResidueSet& residues : residue_sets)
            for (int lower = 1; lower <= std::min(test.width, 3); ++lower)
                for (const int value_size : {int(sizeof(double)), int(sizeof(float))}) {
                    const Solved cpu =
                        solve_bytes(world, geometry, rules, residues, lower, value_size, KernelKind::Cpu, 1);
                    for (const auto& [kind, threads] :
                         std::vector<std::pair<KernelKind, int>>{{KernelKind::CpuRows, 1},
                                                                 {KernelKind::CpuRows, 2},
                                                                 {KernelKind::Portable, 1},
                                                                 {KernelKind::Portable, 2},
                                                                 {KernelKind::PortableThread, 1},
                                                                 {KernelKind::PortableThread, 2}}) {
                        const Solved portable =
                            solve_bytes(world, geometry, rules, residues, lower, value_size, kind, threads);
                        const std::string where =
                            test.set + " " + std::to_string(test.width) + "x" + std::to_string(test.height)
                            + " classes " + residues.text() + " lower " + std::to_string(lower) + " value size "
                            + std::to_string(value_size)
                            + (kind == KernelKind::Portable  ? " block"
                               : kind == KernelKind::CpuRows ? " CPU row walk"
                                                             : " thread")
                            + " work, threads " + std::to_string(threads) + " rank " + std::to_string(world.rank());
                        EXPECT_EQ(portable.bytes.size(), cpu.bytes.size()) << where;
                        EXPECT_TRUE(portable.bytes == cpu.bytes) << where;
                        EXPECT_EQ(portable.connections, cpu.connections) << where;
                        ++compared;
                    }
                }
    }
    EXPECT_GT(compared, 300);
}

// Even ranks run the portable work, odd ranks the CPU kernel: the rows one
// kind of rank sends the other are the same rows, so the bits are the same.
TEST(PortableSliceWork, MixedWithCpuRanksGivesTheSameBits) {
    Communicator world(MPI_COMM_WORLD);
    const Rules rules = Rules::tetrominoes();
    for (const auto& [width, height] : std::vector<std::pair<int, int>>{{5, 8}, {6, 6}}) {
        const Geometry geometry(width, height);
        const ResidueSet all = ResidueSet::all(rules.modulus());
        const Solved cpu = solve_bytes(world, geometry, rules, all, 0, sizeof(double), KernelKind::Cpu, 1);
        const KernelKind mine = world.rank() % 2 == 0 ? KernelKind::Portable : KernelKind::Cpu;
        const Solved mixed = solve_bytes(world, geometry, rules, all, 0, sizeof(double), mine, 2);
        EXPECT_TRUE(mixed.bytes == cpu.bytes) << width << "x" << height << " rank " << world.rank();
        EXPECT_EQ(mixed.connections, cpu.connections);
    }
}

// The ghost lookup a GPU thread makes: by first id within one source's
// ascending run, nullptr for an id that source did not send.
TEST(PortableSliceWork, FindsAGhostRowByItsFirstIdAndSource) {
    const std::vector<BoardId> ids = {3, 9, 40, 2, 7};  // source 0: 3 9 40; source 1: none; source 2: 2 7
    const std::vector<std::uint64_t> offsets = {0, 3, 3}, counts = {3, 0, 2};
    std::vector<double> values = {30, 31, 90, 91, 400, 401, 20, 21, 70, 71};
    const GhostRows ghosts{ids.data(),     reinterpret_cast<const char*>(values.data()),
                           offsets.data(), counts.data(),
                           ids.size(),     2 * sizeof(double)};
    const auto value_of = [&](int source, BoardId id) {
        const char* row = find_ghost_row(ghosts, source, id);
        return row ? reinterpret_cast<const double*>(row)[1] : -1.0;
    };
    EXPECT_EQ(value_of(0, 3), 31);
    EXPECT_EQ(value_of(0, 40), 401);
    EXPECT_EQ(value_of(2, 2), 21);
    EXPECT_EQ(value_of(2, 7), 71);
    EXPECT_EQ(value_of(0, 7), -1);  // sent by source 2, not 0
    EXPECT_EQ(value_of(1, 3), -1);  // source 1 sent nothing
    EXPECT_EQ(value_of(2, 8), -1);
    EXPECT_EQ(find_ghost_row(GhostRows{}, 0, 3), nullptr);  // no ghosts at all (one rank)
}

// A slice larger than the block's shared memory was shaped for is refused,
// not written past it (the device's kernel raises its flag for the same
// check): a hand-laid round of one chunk whose slice holds 5 rows of 2
// values, run in a shape with room for 4 values, then 10.
TEST(PortableSliceWork, RefusesASliceLargerThanTheBlockShape) {
    RoundView view;
    view.width = 1;
    view.height = 10;
    view.lower = 1;
    view.base = 11;
    view.powers[0] = 1;
    view.powers[1] = 11;
    view.chunk_size = 11;
    const std::uint32_t upper_sums[1] = {0};
    view.upper_sums = upper_sums;
    view.sum = 5;
    const std::uint64_t starts[2] = {0, 5};
    view.slice_start = SliceStartsView::plain(starts);
    const std::uint64_t top_rows[1] = {0}, top_values[1] = {0};
    const int top_length[1] = {2};
    view.tops = {top_rows, top_values, top_length};
    std::vector<double> out(10, 0.0);
    view.out = reinterpret_cast<char*>(out.data());
    const std::uint64_t chunk = 0;
    const auto add = [](int, std::uint64_t) {};
    SliceBlockShape shape;
    shape.capacity = 4;
    shape.value_size = int(sizeof(double));
    std::vector<double> shared(shape.bytes() / sizeof(double) + 1);
    EXPECT_THROW(run_block_on_host<double>(view, shape, reinterpret_cast<char*>(shared.data()), &chunk, 1, 0, 1, 4,
                                           add),
                 std::logic_error);
    // The same slice in a shape with room for it is not refused at its
    // first phase (no pieces here: it computes nothing else).
    shape.capacity = 10;
    shared.assign(shape.bytes() / sizeof(double) + 1, 0.0);
    SliceBlock<double> block(view, shape, reinterpret_cast<char*>(shared.data()));
    block.begin(0, 1);
    block.phase(0, chunk, 0, 1);
    EXPECT_FALSE(block.overflowed());
}

}  // namespace stack
