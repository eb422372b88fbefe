// stackverify as a library call: an independent check of a table.
//
// Every stored state's value is derived again from the stored values of
// its successors with the value equation (value.h), and compared with what
// the table stores. The check shares the piece table, the value equation
// and the table reader with the generator, and nothing of its solver: the
// placements are tried the plain way, every orientation at every column,
// fitted from the piece table's definition (a surface that matches the
// stack's top, room below the ceiling), so that a bug in the solver's
// lookup tables, slices or exchange cannot hide itself.
//
// Ranks split the stored values into equal ranges in file order; each maps
// the file (StackTable) and walks its range row by row: the placements at
// columns >= 1 fit a whole row or none of it and are tried once per row,
// those at column 0 once per state. A float64 table must match to the bit;
// a float32 one, derived again from its own rounded values, to within a
// relative 2^-21 (twice the rounding of one value).
#pragma once

#include "support/communicator.h"

#include <cstdint>
#include <string>

namespace stack {

struct VerifyOptions {
    std::string table;
    bool json = false;
};

// Returns ExitSuccess when every stored value checks, ExitCheckFailed (1)
// naming the first wrong board otherwise. Throws InputError when the table
// cannot be read. Collective over `comm`.
int verify_table(const Communicator& comm, const VerifyOptions& options);

}  // namespace stack
