// stackverify: parse the options, call verify_table(), report errors.
#include "support/cli.h"
#include "support/options.h"
#include "support/errors.h"
#include "verify.h"

#include <cstdio>
#include <iostream>

namespace {

int run(int argc, char** argv) {
    const int rank = stack::MpiSession::world_rank();
    try {
        stack::Communicator comm(MPI_COMM_WORLD);
        stack::OptionTable table(
            "Usage: mpirun -n P stackverify TABLE [options]",
            "stackverify checks a table written by stackgen: it computes every stored value again from its "
            "successors' stored values with the value equation, compares the values' CRC-64 digest with the one "
            "the table records, and exits 1 naming the first wrong board.");
        table.text("table", "the table to verify (or the first argument)");
        table.flag("json", "print the report as JSON");
        table.parse(argc, argv, "table");
        if (table.help_or_version("stackverify", rank == 0))
            return stack::ExitSuccess;
        stack::VerifyOptions options;
        if (table.has("table"))
            options.table = table.text("table");
        if (options.table.empty())
            throw stack::InputError("give the table to verify (see --help)");
        options.json = table.given("json");
        return stack::verify_table(comm, options);
    } catch (const stack::InputError& error) {
        if (rank == 0)
            std::fprintf(stderr, "stackverify: error: %s\n", error.what());
        return stack::ExitBadInput;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "stackverify: error on rank %d: %s\n", rank, error.what());
        stack::MpiSession::abort(stack::ExitFailure);
    }
}

}  // namespace

int main(int argc, char** argv) {
    stack::ignore_broken_pipe();
    stack::MpiSession mpi(&argc, &argv);
    return stack::finish_output("stackverify", run(argc, argv));
}
