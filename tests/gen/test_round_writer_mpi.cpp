// The round writer (round_writer.h) at whatever rank count ctest starts this
// with (1, 2, 3, 4): the bytes it writes into a table's /values are the plain
// solver's values in the file's order, bit for bit, for any classes,
// precision and threads; its checksums and digest are those of the bytes
// the file must hold, with a file and without one; and its segments cover a
// round in as few groups of one segment a rank as keep each near
// SegmentBytes. Rank-0-only checks never ASSERT before a collective call.
#include "generate.h"
#include "mpi_support.h"
#include "partition.h"
#include "round_support.h"
#include "round_writer.h"
#include "rules/piece_values.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "table/digest.h"
#include "table/table_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stack {

namespace {

std::string read_bytes(const std::string& path, std::uint64_t offset, std::uint64_t count) {
    std::ifstream file(path, std::ios::binary);
    file.seekg(std::streamoff(offset));
    std::string bytes(count, '\0');
    file.read(bytes.data(), std::streamsize(count));
    bytes.resize(std::size_t(file.gcount()));
    return bytes;
}

// The blocks whose checksum is not the CRC-32 of their bytes in `bytes`.
std::uint64_t wrong_checksums(const RoundLayout& layout, const std::vector<std::uint32_t>& checksums,
                              const std::string& bytes, std::size_t value_size) {
    std::uint64_t wrong = checksums.size() != layout.checksum_blocks();
    for (std::uint64_t index = 0; index < layout.checksum_blocks() && index < checksums.size(); ++index) {
        const RoundLayout::Block block = layout.block(index);
        wrong += checksums[index] != crc32_of(bytes.data() + block.first * value_size, block.count * value_size);
    }
    return wrong;
}

}  // namespace

// A table file made as stackgen makes it, its rounds written through the
// writer: /values holds the plain solver's values in file order.
TEST(RoundWriter, WritesEveryRoundBitIdenticalInFileOrder) {
    const Communicator world(MPI_COMM_WORLD);
    const Geometry geometry(5, 8);
    const Rules& rules = Rules::tetrominoes();
    const Partition partition(geometry, world.size(), world.rank());
    const std::vector<double> plain =
        world.is_root() ? solve_piece_set(rules.set(), geometry).values : std::vector<double>{};
    for (const ResidueSet residues : {ResidueSet::all(rules.modulus()), ResidueSet::of(rules.modulus(), {1, 2})})
        for (const Precision precision : {Precision::Float64, Precision::Float32})
            for (const int threads : {1, 3}) {
                const RoundLayout layout(geometry, residues);
                const std::string path = testing::shared_temporary_path(world, "stack_round_writer_test");
                std::optional<RoundTableFile> file;
                std::uint64_t data_offset = 0;
                GenerateOptions options;
                options.precision = precision;
                world.on_root([&] {
                    file.emplace(RoundTableFile::create(path, table_info(geometry, layout, rules, options), layout));
                    data_offset = file->data_offset();
                });
                world.broadcast(data_offset);
                RoundWriter writer(world, partition, layout, precision, path, data_offset, threads);
                testing::write_rounds(world, partition, layout, rules, writer, std::size_t(layout.rounds()));
                EXPECT_EQ(writer.written_through(), long(layout.rounds()) - 1);
                if (!world.is_root())
                    continue;
                const std::string what = residues.text() + " " + precision_name(precision) + ", "
                                         + std::to_string(threads) + " threads, np " + std::to_string(world.size());
                const std::string expected = testing::values_bytes(layout, plain, precision);
                // finish() returned on every rank: every rank's writes are done.
                const std::string written = read_bytes(path, data_offset, expected.size());
                EXPECT_EQ(written.size(), expected.size()) << what;
                EXPECT_TRUE(written == expected) << what;
                EXPECT_EQ(writer.digest().digest(), crc64(expected.data(), expected.size())) << what;
                EXPECT_EQ(wrong_checksums(layout, writer.checksums().checksums(), expected, value_bytes(precision)), 0u)
                    << what;
                file->close();
                std::filesystem::remove(path);
            }
}

// With no file (stackgen --no-output) the writer still gives the digest of
// the bytes the file would hold, for other sets too; a single rank takes
// another path to it than several.
TEST(RoundWriter, WithoutAFileGivesTheDigestOfTheValues) {
    const Communicator world(MPI_COMM_WORLD);
    for (const char* name : {"tetrominoes", "pentominoes"})
        for (auto [width, height] : {std::pair{3, 9}, std::pair{5, 6}}) {
            const Rules rules{PieceSet::builtin(name)};
            const Geometry geometry(width, height);
            const Partition partition(geometry, world.size(), world.rank());
            const std::vector<double> plain =
                world.is_root() ? solve_piece_set(rules.set(), geometry).values : std::vector<double>{};
            for (const ResidueSet residues : {ResidueSet::all(rules.modulus()), ResidueSet::of(rules.modulus(), {0})})
                for (const Precision precision : {Precision::Float64, Precision::Float32})
                    for (const int threads : {1, 2}) {
                        const RoundLayout layout(geometry, residues);
                        RoundWriter writer(world, partition, layout, precision, std::string(), 0, threads);
                        testing::write_rounds(world, partition, layout, rules, writer, std::size_t(layout.rounds()));
                        if (!world.is_root())
                            continue;
                        const std::string expected = testing::values_bytes(layout, plain, precision);
                        EXPECT_EQ(writer.digest().digest(), crc64(expected.data(), expected.size()))
                            << name << " " << width << "x" << height << ", classes " << residues.text() << " "
                            << precision_name(precision) << ", " << threads << " threads, np " << world.size();
                    }
        }
}

// A round's segments: a whole number of groups of one segment a rank, as
// few groups as keep each segment within SegmentBytes and a row, the rows
// cut in order with none left out.
TEST(RoundWriter, SegmentsCoverARoundInFewestRankSizedGroups) {
    const std::uint64_t segment = RoundWriter::SegmentBytes;
    const struct {
        std::uint64_t rows, row_bytes, ranks;
    } cases[] = {{1, 8, 1},
                 {1, 8, 4},
                 {7, 168, 3},
                 {segment / 8, 8, 1},
                 {segment / 8 + 1, 8, 1},
                 {3 * segment / 40, 40, 2},
                 {1000003, 96, 5},
                 {123456789, 168, 64}};
    for (const auto& c : cases) {
        const RoundWriter::Segments segments = RoundWriter::Segments::of(c.rows, c.row_bytes, c.ranks);
        const std::uint64_t groups = segments.count / c.ranks;
        EXPECT_EQ(segments.values, c.rows);
        EXPECT_EQ(segments.count % c.ranks, 0u) << c.rows << " rows of " << c.row_bytes << " bytes, " << c.ranks;
        EXPECT_GE(groups, 1u);
        // One group fewer would not do.
        EXPECT_GT(c.rows * c.row_bytes, (groups - 1) * c.ranks * segment) << c.rows << " rows, " << c.ranks;
        EXPECT_EQ(segments.first_value(0), 0u);
        EXPECT_EQ(segments.first_value(segments.count), c.rows);
        std::uint64_t too_large = 0, backwards = 0;
        for (std::uint64_t s = 0; s < segments.count; ++s) {
            const std::uint64_t rows = segments.first_value(s + 1) - segments.first_value(s);
            backwards += segments.first_value(s + 1) < segments.first_value(s);
            too_large += rows * c.row_bytes > segment + c.row_bytes;
        }
        EXPECT_EQ(backwards, 0u);
        EXPECT_EQ(too_large, 0u) << c.rows << " rows of " << c.row_bytes << " bytes, " << c.ranks << " ranks";
    }
}

}  // namespace stack
