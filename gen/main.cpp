// stackgen: parse the options, call generate(), report errors.
#include "support/cli.h"
#include "support/errors.h"
#include "generate.h"
#include "fault.h"
#include "rules/board.h"
#include "table/table_format.h"

#include <vector>

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace po = boost::program_options;

int main(int argc, char** argv) {
    stack::MpiSession mpi(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    try {
        stack::Communicator comm(MPI_COMM_WORLD);
        stack::GenerateOptions options;
        po::options_description described("Usage: mpirun -n P stackgen --width W --height H [options]\nOptions");
        described.add_options()
            ("help", "print this help and exit")
            ("version", "print the version and exit")
            ("width", po::value<std::string>(), "well width W (columns, 1..16), required")
            ("height", po::value<std::string>(), "well height H (rows, >= 1), required")
            ("output", po::value<std::string>(&options.output), "table file (default stack_<W>x<H>.h5)")
            ("residue", po::value<std::vector<std::string>>(),
             "compute only boards whose height sum mod 4 is R (0..3; repeat for several; default all four)")
            ("precision", po::value<std::string>()->default_value("float64"),
             "values in the file: float64, or float32 (computed in float64, rounded once when written)")
            ("resume", "continue <output>.partial, left by a run that stopped, from its last recorded round "
                       "(any number of ranks; float64 tables)")
            ("checkpoint-seconds", po::value<std::string>()->default_value("1"),
             "record the rounds on disk in the partial table at most this often (0: after every round)")
            ("progress", "print one progress line per round on stderr (default: only on a terminal)")
            ("round-table", "add one line per round to the summary (states, balance, time)")
            ("quiet", "print no summary")
            ("json", "print the summary (and with --round-table every round) as JSON");
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables);
        if (variables.count("help") || variables.count("version")) {
            if (rank == 0 && variables.count("help"))
                std::cout << described;
            else if (rank == 0)
                std::cout << "stackgen " << stack::project_version() << "\n";
            return stack::ExitSuccess;
        }
        for (const char* required : {"width", "height"})
            if (!variables.count(required))
                throw stack::InputError(std::string("--") + required + " is required (see --help)");
        options.width = stack::parse_int_option("width", variables["width"].as<std::string>(), 1, stack::MaxWidth);
        options.height = stack::parse_int_option("height", variables["height"].as<std::string>(), 1, 1000000);
        options.progress = variables.count("progress") || isatty(STDERR_FILENO);
        options.json = variables.count("json") > 0;
        options.resume = variables.count("resume") > 0;
        options.checkpoint_seconds =
            stack::parse_real_option("checkpoint-seconds", variables["checkpoint-seconds"].as<std::string>(), -1e-300, 1e9);
        options.precision = stack::parse_precision(variables["precision"].as<std::string>());
        if (variables.count("residue")) {
            std::vector<std::int64_t> classes;
            for (const std::string& text : variables["residue"].as<std::vector<std::string>>())
                classes.push_back(stack::parse_int_option("residue", text, 0, stack::ResidueSet::Classes - 1));
            options.residues = stack::ResidueSet::of(classes);
        }
        options.quiet = variables.count("quiet") > 0;
        options.round_table = variables.count("round-table") > 0;
        stack::generate(comm, options);
        return stack::ExitSuccess;
    } catch (const stack::InputError& error) {
        if (rank == 0)
            std::fprintf(stderr, "stackgen: error: %s\n", error.what());
        return stack::ExitBadInput;
    } catch (const stack::CollectiveError& error) {
        if (rank == 0)
            std::fprintf(stderr, "stackgen: error: %s\n", error.what());
        return stack::ExitFailure;
    } catch (const stack::PhaseError& error) {
        // Raised on this rank alone, naming it: the others may be waiting in
        // a collective, so only an abort ends the job.
        std::fprintf(stderr, "stackgen: error: %s\n", error.what());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, stack::ExitFailure);
        return stack::ExitFailure;
    } catch (const std::exception& error) {
        // Raised on this rank alone: the others may be waiting in a
        // collective, so only an abort ends the job.
        std::fprintf(stderr, "stackgen: error on rank %d: %s\n", rank, error.what());
        MPI_Abort(MPI_COMM_WORLD, stack::ExitFailure);
        return stack::ExitFailure;
    }
}
