// stackgen as a library call: check the request, solve round by round while
// writing finished rounds, report.
#pragma once

#include "support/communicator.h"
#include "table/table_format.h"

#include <string>

namespace stack {

struct GenerateOptions {
    int width = 0;
    int height = 0;
    std::string output;        // empty: stack_<W>x<H>.h5
    ResidueSet residues;       // the classes of the height sum mod 4 to compute (default all)
    Precision precision = Precision::Float64;
    bool progress = false;
    bool quiet = false;        // no summary
    bool round_table = false;  // one summary line per round
    bool json = false;         // the summary as JSON
    bool resume = false;       // continue <output>.partial from its last recorded round
    double checkpoint_seconds = 1.0;  // record progress in the partial table at most this often (0: every round)
};

std::string default_output_name(int width, int height);

// Throws InputError (raised identically on every rank) when the request
// cannot be met: a bad shape, a band larger than the memory of the ranks on
// a node, a table larger than the free disk; CollectiveError when writing
// failed.
void generate(const Communicator& comm, const GenerateOptions& options);

}  // namespace stack
