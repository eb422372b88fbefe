// stackverify: parse the options, call verify_table(), report errors.
#include "support/cli.h"
#include "support/errors.h"
#include "verify.h"

#include <cstdio>
#include <iostream>

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
    const int rank = stack::MpiSession::world_rank();
    try {
        stack::Communicator comm(MPI_COMM_WORLD);
        stack::VerifyOptions options;
        po::options_description described = stack::tool_options("Usage: mpirun -n P stackverify TABLE [options]");
        described.add_options()("table", po::value<std::string>(&options.table),
                                "the table to verify (or the first argument)")("json", "print the report as JSON");
        po::positional_options_description positional;
        positional.add("table", 1);
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables, &positional);
        if (stack::print_help_or_version("stackverify", described, variables, rank == 0))
            return stack::ExitSuccess;
        if (options.table.empty())
            throw stack::InputError("give the table to verify (see --help)");
        options.json = variables.count("json") > 0;
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
