// The table file format, defined here and nowhere else: the names, types
// and meaning of everything in a table file. The collective writer
// (table_writer.h, stackgen) and the serial reader (stack_table.h, every
// other tool) both go through this module.
//
// Version 1: an HDF5 file with one dataset and attributes on the root group.
//   /values          float64[(H+1)^W], index = board id, value = expected
//                    pieces placed under optimal play (0 where no piece fits)
//   width, height    int64
//   format_version   int64, 1
//   schedule         string, how the values were computed: "rows" (stackgen
//                    0.2 on; "layered" or "jacobi" in 0.1, same values)
//   states           uint64, (H+1)^W
//   connections      uint64, valid placements summed over all states
//   pieces           string, orientation_table_text() of the generator
//   generator        string, "stackgen <version>"
// Integers are little-endian, strings variable-length UTF-8, values
// IEEE-754 binary64 little-endian.
#pragma once

#include "board.h"
#include "hdf5_handle.h"

#include <cstdint>
#include <limits>
#include <string>

namespace stack {

constexpr std::int64_t TableFormatVersion = 1;  // the newest version this build reads and writes
constexpr const char* ValuesDataset = "values";

static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559, "values are IEEE-754 binary64");
static_assert(sizeof(BoardId) == 8, "board ids index /values with 64-bit offsets");

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

// Writes every attribute of `info` onto `file`.
void write_table_info(hid_t file, const TableInfo& info);

// Reads and checks the attributes: throws InputError naming `path` and the
// problem when one is missing or of the wrong type or shape, when the
// format version is not one this build reads, or when the shape is invalid
// or disagrees with the states count.
TableInfo read_table_info(hid_t file, const std::string& path);

// The largest value any board can have: every piece placed fills 4 of the
// W*H cells, so no game places more than W*H/4 pieces.
double largest_possible_value(const Geometry& geometry);

}  // namespace stack
