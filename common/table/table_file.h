// Opening a table file and reading its datasets, with every claim the file
// makes checked against what it really holds before anything is read into
// memory. A table's attributes say how many values it holds; a hostile or
// damaged file may claim billions in a few kilobytes, so the reader and
// the resuming writer both go through here:
//   - the path must be a readable regular file (a FIFO, a device or a
//     directory is refused before it is opened; every OS failure is named
//     with its reason);
//   - a dataset's type, rank and length must be the ones the table format
//     gives (table_format.h);
//   - /values must be stored in full: a contiguous or unfiltered dataset
//     takes exactly its bytes, within the file; a compressed one must have
//     every chunk allocated;
//   - the stored values of a version-2 table must be at least as many as
//     its shape and classes give (RoundLayout::fewest_stored_states) and
//     fit the file, which bounds every table built from the shape.
// Every problem is an InputError naming the path.
#pragma once

#include "table/hdf5_handle.h"
#include "table/table_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// How a table file is opened.
enum class FileAccess : std::uint8_t {
    Read,       // read-only, with HDF5's file lock (readers share it)
    ReadWrite,  // read-write without HDF5's lock: the one writer holds its own
                // (gen/output.h), so a reader holding the file never stops it
};

// Checks that `path` is a readable regular file and returns its size in
// bytes; throws InputError("... '<path>' ...: <reason>") otherwise.
std::uint64_t regular_file_size(const std::string& path);

// Opens an HDF5 table file after regular_file_size's checks (its size into
// `file_bytes` when given).
Handle open_table_file(const std::string& path, FileAccess access = FileAccess::Read,
                       std::uint64_t* file_bytes = nullptr);

// The one-dimensional dataset `name` of `length` elements whose type class
// and size are checked; `what` names the expected type in the message.
Handle open_vector(hid_t file, const std::string& path, const char* name, std::uint64_t length, H5T_class_t type_class,
                   std::size_t type_size, const std::string& what);

// Elements [first, first + count) of a one-dimensional dataset, as
// `memory_type`, into `out`.
void read_range(hid_t dataset, const std::string& path, hid_t memory_type, std::uint64_t first, std::uint64_t count,
                void* out);

// Refuses a table whose stored values cannot all be in the file: fewer
// than its shape gives, more bytes than the file, or a /values dataset not
// stored in full. `file_bytes` is the file's size.
void check_stored_size(const TableInfo& info, const std::string& path, std::uint64_t file_bytes);
void check_values_storage(hid_t values, const std::string& path, std::uint64_t count, std::size_t value_size,
                          std::uint64_t file_bytes);

// A version-2 table's /round_offsets, which must be the ones its shape and
// classes give, and its /checksums (one per block).
void check_round_offsets(hid_t file, const std::string& path, const RoundLayout& layout);
std::vector<std::uint32_t> read_checksums(hid_t file, const std::string& path, const RoundLayout& layout);

// The refusal of a block whose bytes do not match its checksum.
std::string damaged_block(const std::string& path, const RoundLayout& layout, std::uint64_t index);

// Converts `count` stored values to double (into `out` when given) and
// checks that each is a number of pieces a game can place; board_at(i)
// names the board of the i-th in the message.
template <class BoardAt>
void convert_and_check(const void* stored, Precision precision, std::uint64_t count, double* out, const TableInfo& info,
                       const std::string& path, BoardAt&& board_at);
[[noreturn]] void bad_value(const TableInfo& info, const std::string& path, BoardId id, double value);

template <class BoardAt>
void convert_and_check(const void* stored, Precision precision, std::uint64_t count, double* out, const TableInfo& info,
                       const std::string& path, BoardAt&& board_at) {
    const double largest = largest_possible_value(info);
    const auto value_of = [&](std::uint64_t i) {
        return precision == Precision::Float64 ? static_cast<const double*>(stored)[i]
                                               : double(static_cast<const float*>(stored)[i]);
    };
    bool all_good = true;
    for (std::uint64_t i = 0; i < count; ++i) {
        const double value = value_of(i);
        if (out)
            out[i] = value;
        all_good &= value >= 0.0 && value <= largest;  // false for NaN
    }
    if (all_good)
        return;
    for (std::uint64_t i = 0; i < count; ++i)
        if (!(value_of(i) >= 0.0 && value_of(i) <= largest))
            bad_value(info, path, board_at(i), value_of(i));
}

}  // namespace stack
