// Writing table files; the format itself is defined in table_format.h.
//
// Version 2 (stackgen) is written in three steps around the solve, with
// HDF5 doing only the metadata: create_round_table() makes the file on one
// rank (attributes, /round_offsets, and /values allocated contiguously),
// the ranks then write the values straight into /values' extent, round by
// round (gen/round_writer.h), and finish_round_table() records what is
// known only at the end (the connections).
//
// Version 1 can still be written, collectively, for tests and tools that
// need a table in the old layout: write_table().
#pragma once

#include "support/communicator.h"
#include "table/table_format.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stack {

// Creates a version-2 table at `path` (serial: call on one rank) and
// returns the byte offset of /values in it. Throws Hdf5Error.
std::uint64_t create_round_table(const std::string& path, const TableInfo& info, const RoundLayout& layout);
// Records progress (serial): the attributes rounds_done and
// connections_done of `info`, the checksums of blocks [first, last), then
// flushes the file to the device. At the end, with all rounds done, the
// connections too: the table is then finished.
void record_round_table(const std::string& path, const TableInfo& info, const std::vector<std::uint32_t>& checksums,
                        std::uint64_t first_block, std::uint64_t last_block);

// An unfinished version-2 table, to resume (serial).
struct PartialTable {
    TableInfo info;
    std::vector<std::uint32_t> checksums;  // of every block; valid for the rounds done
    std::uint64_t data_offset = 0;         // of /values in the file
};
PartialTable open_partial_table(const std::string& path);

// Where one rank's values go in a version-1 table: block_count blocks of
// block_size values, the i-th at file index (first_block + i *
// block_stride) * block_size.
struct BlockCyclicSlice {
    std::uint64_t first_block = 0;
    std::uint64_t block_stride = 1;
    std::uint64_t block_count = 0;
    std::uint64_t block_size = 0;
};

// Collective over `comm`: every rank passes the same info (format version
// 1) and its own slice. The file is written under a temporary name beside
// `path` and renamed into place only after every rank has finished. Throws
// on every rank when writing failed on any rank; the target is then
// untouched and no temporary file remains.
void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice);

// The temporary name a writer uses for `path` in process `process_id`:
// ".<name>.partial-<pid>" in the same directory.
std::string temporary_name_for(const std::string& path, long process_id);

}  // namespace stack
