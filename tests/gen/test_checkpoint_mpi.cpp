// Checkpoints and resume (checkpoint.h) at whatever rank count ctest starts
// this with (1, 2, 3, 4): the connections of the first rounds counted from
// the rules; a partial table stopped after some rounds resumes after them,
// with their connections and their blocks' checksums; a finished one resumes
// at its last round and publishes the table; a damaged round, counters its
// rounds do not bear out and another table than the one asked for are
// refused. The values, checksums and connections expected come from the
// plain solver (rules/piece_values.h). Rank-0-only checks never ASSERT
// before a collective call.
#include "checkpoint.h"
#include "generate.h"
#include "mpi_support.h"
#include "output.h"
#include "partition.h"
#include "round_support.h"
#include "round_writer.h"
#include "rules/piece_values.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "support/errors.h"
#include "table/digest.h"
#include "table/stack_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace stack {

namespace {

// A 5x8 tetromino table in float64: 33 rounds, from row sum 32 down to 0.
struct Table {
    Geometry geometry{5, 8};
    const Rules& rules = Rules::tetrominoes();
    RoundLayout layout{geometry, ResidueSet::all(rules.modulus())};
    TableInfo info = table_info(geometry, layout, rules, GenerateOptions{});
};

// What a run stopped after its first `rounds` rounds leaves: `partial`
// created as stackgen creates it, those rounds written and recorded with
// their connections (plus `miscount` for the first piece) and checksums; a
// finished table's digest too. Collective; returns the connections of those
// rounds over every rank.
PieceCounts write_partial(const Communicator& comm, const std::string& partial, const Table& table, std::size_t rounds,
                          std::uint64_t miscount = 0) {
    const Partition partition(table.geometry, comm.size(), comm.rank());
    Checkpoint checkpoint = Checkpoint::create(comm, partial, table.info, table.layout, table.rules);
    RoundWriter writer(comm, partition, table.layout, Precision::Float64, partial, checkpoint.data_offset());
    PieceCounts done = testing::write_rounds(comm, partition, table.layout, table.rules, writer, rounds);
    writer.sync();
    comm.all_reduce(done.data(), int(done.size()), Reduction::Sum);
    comm.on_root([&] {
        TableInfo progress = table.info;
        progress.rounds_done = std::int64_t(rounds);
        progress.connections_done.assign(done.begin(), done.end());
        progress.connections_done[0] += miscount;
        if (rounds == std::size_t(table.layout.rounds())) {
            for (const std::uint64_t count : done)
                progress.connections += count;
            checkpoint.record_digest(writer.digest().digest());
        }
        const int lowest = table.layout.rounds() - int(rounds);  // the row sum of the last round written
        checkpoint.record(progress, writer.checksums().checksums(), table.layout.first_block(lowest),
                          table.layout.checksum_blocks());
    });
    return done;
}

// Flips one bit of the value at `position` of /values.
void damage(const std::string& path, std::uint64_t data_offset, std::uint64_t position) {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    const std::streamoff at = std::streamoff(data_offset + position * sizeof(double));
    char byte = 0;
    file.seekg(at);
    file.get(byte);
    file.seekp(at);
    file.put(char(byte ^ 0x10));
}

}  // namespace

// The connections of the first rounds are the rules' count (what a resume
// checks a partial's counters against): nothing for none, and for all of
// them the plain solver's, for each class alone adding up to all classes.
TEST(Checkpoint, ConnectionsOfTheRoundsAreThePlainSolversCount) {
    for (const char* name : {"tetrominoes", "pentominoes"})
        for (auto [width, height] : {std::pair{3, 9}, std::pair{4, 7}, std::pair{5, 6}}) {
            const Rules rules{PieceSet::builtin(name)};
            const Geometry geometry(width, height);
            const RoundLayout all(geometry, ResidueSet::all(rules.modulus()));
            const PieceCounts none(std::size_t(rules.piece_count()), 0);
            EXPECT_EQ(connections_of_rounds(rules, all, 0), none);
            const PieceCounts whole = connections_of_rounds(rules, all, std::size_t(all.rounds()));
            EXPECT_EQ(whole, solve_piece_set(rules.set(), geometry).connections)
                << name << " " << width << "x" << height;
            PieceCounts by_class = none, previous = none;
            for (int residue = 0; residue < rules.modulus(); ++residue) {
                const RoundLayout one(geometry, ResidueSet::of(rules.modulus(), {residue}));
                const PieceCounts counted = connections_of_rounds(rules, one, std::size_t(one.rounds()));
                for (std::size_t piece = 0; piece < by_class.size(); ++piece)
                    by_class[piece] += counted[piece];
            }
            EXPECT_EQ(by_class, whole) << name << " " << width << "x" << height;
            std::uint64_t shrinking = 0;
            for (std::size_t rounds = 1; rounds <= std::size_t(all.rounds()); ++rounds) {
                const PieceCounts counted = connections_of_rounds(rules, all, rounds);
                for (std::size_t piece = 0; piece < counted.size(); ++piece)
                    shrinking += counted[piece] < previous[piece];
                previous = counted;
            }
            EXPECT_EQ(shrinking, 0u);
        }
}

// A run stopped after 1, 16 or 32 of its 33 rounds resumes after them, with
// the connections the solve counted and the CRC-32s of those rounds' bytes
// as the plain solver's values give them.
TEST(Checkpoint, ResumeContinuesAfterTheRecordedRounds) {
    const Communicator world(MPI_COMM_WORLD);
    const Table table;
    const std::string expected =
        world.is_root() ? testing::values_bytes(table.layout, solve_piece_set(table.rules.set(), table.geometry).values,
                                                Precision::Float64)
                        : std::string();
    for (const std::size_t rounds : {std::size_t(1), std::size_t(16), std::size_t(32)}) {
        const std::string partial = partial_name(testing::shared_temporary_path(world, "stack_checkpoint_test"));
        const PieceCounts done = write_partial(world, partial, table, rounds);
        const Checkpoint resumed = Checkpoint::resume(world, partial, table.info, table.layout, table.rules);
        EXPECT_EQ(resumed.first_round(), rounds);
        EXPECT_EQ(resumed.connections_before(), done) << rounds << " rounds, np " << world.size();
        EXPECT_EQ(resumed.connections_before(), connections_of_rounds(table.rules, table.layout, rounds));
        if (world.is_root()) {
            const std::vector<std::uint32_t>& checksums = resumed.checksums();
            std::uint64_t wrong = checksums.size() != table.layout.checksum_blocks();
            const int lowest = table.layout.rounds() - int(rounds);
            for (std::uint64_t index = table.layout.first_block(lowest);
                 index < table.layout.checksum_blocks() && index < checksums.size(); ++index) {
                const RoundLayout::Block block = table.layout.block(index);
                wrong += checksums[index]
                         != crc32_of(expected.data() + block.first * sizeof(double), block.count * sizeof(double));
            }
            EXPECT_EQ(wrong, 0u) << rounds << " rounds, np " << world.size();
            std::filesystem::remove(partial);
        }
    }
}

// Every round done: the resume computes the last round again (the one row
// of sum 0), and publishing renames the partial to the table, which holds
// the plain solver's bits and their digest.
TEST(Checkpoint, AFinishedPartialResumesAtItsLastRoundAndPublishes) {
    const Communicator world(MPI_COMM_WORLD);
    const Table table;
    const std::string output = testing::shared_temporary_path(world, "stack_checkpoint_test");
    const std::string partial = partial_name(output);
    const std::size_t rounds = std::size_t(table.layout.rounds());
    write_partial(world, partial, table, rounds);
    Checkpoint resumed = Checkpoint::resume(world, partial, table.info, table.layout, table.rules);
    EXPECT_EQ(resumed.first_round(), rounds - 1);
    EXPECT_EQ(resumed.connections_before(), connections_of_rounds(table.rules, table.layout, rounds - 1));
    if (!world.is_root())
        return;
    resumed.publish(output);
    EXPECT_FALSE(std::filesystem::exists(partial));
    ASSERT_TRUE(std::filesystem::exists(output));
    const std::vector<double> plain = solve_piece_set(table.rules.set(), table.geometry).values;
    const std::string expected = testing::values_bytes(table.layout, plain, Precision::Float64);
    const StackTable read = StackTable::open(output, {Residency::Resident, 0});
    EXPECT_EQ(read.info().rounds_done, table.layout.rounds());
    EXPECT_EQ(read.info().digest.value_or(0), crc64(expected.data(), expected.size()));
    std::uint64_t wrong = 0;
    for (BoardId id = 0; id < table.geometry.states(); ++id) {
        const double value = read.value(id);
        wrong += std::memcmp(&value, &plain[id], sizeof(double)) != 0;
    }
    EXPECT_EQ(wrong, 0u);
    std::filesystem::remove(output);
}

// A bit flipped in a round not yet recorded does not matter; one in a
// recorded round refuses the resume, on every rank.
TEST(Checkpoint, ResumeRefusesADamagedRound) {
    const Communicator world(MPI_COMM_WORLD);
    const Table table;
    const std::string partial = partial_name(testing::shared_temporary_path(world, "stack_checkpoint_test"));
    const std::size_t rounds = 16;
    write_partial(world, partial, table, rounds);
    const int lowest = table.layout.rounds() - int(rounds);  // the last round recorded
    std::uint64_t data_offset = 0;
    {
        const Checkpoint resumed = Checkpoint::resume(world, partial, table.info, table.layout, table.rules);
        data_offset = resumed.data_offset();
    }
    if (world.is_root())
        damage(partial, data_offset, table.layout.round_offset(lowest - 1));
    world.all_reduce(0, Reduction::Sum);  // the damage is done before any rank reads
    EXPECT_NO_THROW(Checkpoint::resume(world, partial, table.info, table.layout, table.rules));
    if (world.is_root())
        damage(partial, data_offset, table.layout.round_offset(lowest) + table.layout.round_values(lowest) / 2);
    world.all_reduce(0, Reduction::Sum);
    EXPECT_THROW(Checkpoint::resume(world, partial, table.info, table.layout, table.rules), InputError);
    if (world.is_root())
        std::filesystem::remove(partial);
}

// Counters the recorded rounds do not bear out, and a partial of another
// shape, precision or piece set than the table asked for, are refused.
TEST(Checkpoint, ResumeRefusesCountersAndTablesThatDoNotMatch) {
    const Communicator world(MPI_COMM_WORLD);
    const Table table;
    const std::string partial = partial_name(testing::shared_temporary_path(world, "stack_checkpoint_test"));
    write_partial(world, partial, table, 10, 1);
    EXPECT_THROW(Checkpoint::resume(world, partial, table.info, table.layout, table.rules), InputError);
    write_partial(world, partial, table, 10);
    EXPECT_NO_THROW(Checkpoint::resume(world, partial, table.info, table.layout, table.rules));
    TableInfo taller = table.info;
    taller.height = 9;
    const Geometry taller_geometry(5, 9);
    const RoundLayout taller_layout(taller_geometry, table.layout.residues());
    taller.states = taller_geometry.states();
    taller.stored_states = taller_layout.stored_states();
    EXPECT_THROW(Checkpoint::resume(world, partial, taller, taller_layout, table.rules), InputError);
    TableInfo float32 = table.info;
    float32.precision = Precision::Float32;
    EXPECT_THROW(Checkpoint::resume(world, partial, float32, table.layout, table.rules), InputError);
    const Rules rectangles{PieceSet::builtin("rectangles")};
    TableInfo other_set = table.info;
    other_set.pieces = rectangles.set();
    EXPECT_THROW(Checkpoint::resume(world, partial, other_set, table.layout, rectangles), InputError);
    if (world.is_root())
        std::filesystem::remove(partial);
}

}  // namespace stack
