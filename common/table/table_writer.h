// Writing table files; the format itself is defined in table_format.h.
//
// Version 2 (stackgen) is written around the solve with HDF5 doing only
// the metadata: RoundTableFile::create makes the file on one rank (every
// attribute, /round_offsets, /values allocated contiguously and unfilled,
// /checksums), the ranks write the values straight into /values' extent
// round by round (gen/round_writer.h), and the open file records progress
// (the rounds on disk, their connections and checksums) as it goes and the
// connections at the end. The file stays open from creation (or reopening,
// to resume) to the end, with HDF5's own file lock off: a reader that holds
// the file open (h5py, h5ls) never stops the writer, and the one writer is
// ensured by the lock file beside the output (gen/output.h).
//
// Version 1 can still be written, collectively, for tests and tools that
// need a table in the old layout: write_table().
#pragma once

#include "support/communicator.h"
#include "table/hdf5_handle.h"
#include "table/table_format.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stack {

// A version-2 table being written, on one rank.
class RoundTableFile {
public:
    // Creates the file at `path` (replacing any). Throws Hdf5Error.
    static RoundTableFile create(const std::string& path, const TableInfo& info, const RoundLayout& layout);
    // Reopens an unfinished table to resume it: its attributes, checked
    // against the format (table_file.h), and its checksums. Throws
    // InputError when it is not a version-2 table being written.
    static RoundTableFile reopen(const std::string& path);

    const TableInfo& info() const { return info_; }
    // Of every block as found when reopened (valid for the rounds done).
    const std::vector<std::uint32_t>& checksums() const { return checksums_; }
    std::uint64_t data_offset() const { return data_offset_; }

    // Records progress: the attributes rounds_done, connections_done and
    // connections of `progress`, the checksums of blocks [first, last), then
    // flushes the file to the device. With every round done the table is
    // finished.
    void record(const TableInfo& progress, const std::vector<std::uint32_t>& checksums, std::uint64_t first_block,
                std::uint64_t last_block);
    // Sets the digest attribute (table/digest.h) of a finished table; the
    // next record() flushes it.
    void record_digest(std::uint64_t digest);
    // Closes the file, reporting a failed flush.
    void close();

private:
    RoundTableFile(std::string path, Handle file) : path_(std::move(path)), file_(std::move(file)) {}
    std::string path_;
    Handle file_;
    TableInfo info_;
    std::vector<std::uint32_t> checksums_;
    std::uint64_t data_offset_ = 0;
};

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

}  // namespace stack
