// stackgen as a library call: check the request, solve, write, report.
#pragma once

#include "communicator.h"
#include "solver.h"

#include <string>

namespace stack {

struct GenerateOptions {
    int width = 0;
    int height = 0;
    std::string output;  // empty: stack_<W>x<H>.h5
    bool progress = false;
    bool quiet = false;        // no summary
    bool round_table = false;  // one summary line per round
    bool json = false;         // the summary as JSON
};

std::string default_output_name(int width, int height);

// Throws CollectiveError (or InputError, raised identically on every rank)
// when the request cannot be met: a bad shape, a table larger than the
// memory of the ranks on a node, or a failed write.
void generate(const Communicator& comm, const GenerateOptions& options);

}  // namespace stack
