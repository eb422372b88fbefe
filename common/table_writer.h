// Writing a table file: collective over the ranks of stackgen, each rank
// writing its own block-cyclic slice of /values with MPI-IO. The format
// itself is defined in table_format.h.
#pragma once

#include "communicator.h"
#include "table_format.h"

#include <cstdint>
#include <span>
#include <string>

namespace stack {

// Where one rank's values go: block_count blocks of block_size values, the
// i-th at file index (first_block + i * block_stride) * block_size.
struct BlockCyclicSlice {
    std::uint64_t first_block = 0;
    std::uint64_t block_stride = 1;
    std::uint64_t block_count = 0;
    std::uint64_t block_size = 0;
};

// Collective over `comm`: every rank passes the same info and its own slice.
// The file is written under a temporary name beside `path` and renamed into
// place only after every rank has finished. Throws on every rank when
// writing failed on any rank; the target is then untouched and no temporary
// file remains.
void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice);

// The temporary name a writer uses for `path` in process `process_id`:
// ".<name>.partial-<pid>" in the same directory.
std::string temporary_name_for(const std::string& path, long process_id);

}  // namespace stack
