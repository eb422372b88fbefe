// The table file format, read and written only here.
//
// An HDF5 file with one dataset and attributes on the root group:
//   /values          float64[(H+1)^W], index = board id, value = expected
//                    pieces placed under optimal play (0 where no piece fits)
//   width, height    int64
//   format_version   int64, TableFormatVersion
//   schedule         string, how the values were computed: "rows" (stackgen
//                    0.2; "layered" or "jacobi" in 0.1, same values)
//   states           uint64, (H+1)^W
//   connections      uint64, valid placements summed over all states
//   pieces           string, orientation_table_text() of the generator
//   generator        string, "stackgen <version>"
// Writers write to a temporary name beside the target and rename it into
// place only after every rank has finished, so a failed run leaves nothing
// at the target path.
#pragma once

#include "board.h"
#include "communicator.h"
#include "huge_pages.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stack {

constexpr std::int64_t TableFormatVersion = 1;
constexpr const char* ValuesDataset = "/values";

struct TableInfo {
    int width = 0;
    int height = 0;
    std::int64_t format_version = TableFormatVersion;
    std::string schedule;
    std::uint64_t states = 0;
    std::uint64_t connections = 0;
    std::string pieces;
    std::string generator;
};

// Where one rank's values go: block_count blocks of block_size values, the
// i-th at file index (first_block + i * block_stride) * block_size.
struct BlockCyclicSlice {
    std::uint64_t first_block = 0;
    std::uint64_t block_stride = 1;
    std::uint64_t block_count = 0;
    std::uint64_t block_size = 0;
};

// Collective over `comm`: every rank passes the same info and its own slice.
// Throws on any rank when writing failed on any rank; the target is then
// untouched and no temporary file remains.
void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice);

struct Table {
    TableInfo info;
    HugeVector<double> values;  // [board id] -> value
};

// Serial readers. Throw InputError naming the problem when the file is
// missing, not HDF5, not a table, of another format version, or its
// /values length does not match its width and height.
TableInfo read_table_info(const std::string& path);
Table read_table(const std::string& path);

}  // namespace stack
