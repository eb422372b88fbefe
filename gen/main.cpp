// stackgen: parse the options, call generate(), report errors.
#include "phase.h"
#include "generate.h"
#include "plan.h"
#include "rules/board.h"
#include "rules/pieces.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/interrupt.h"
#include "support/limits.h"

#include <cstdio>
#include <iostream>
#include <vector>

namespace po = boost::program_options;

namespace {

// --threads's help, its bound from support/limits.h as stackplay's says it.
const std::string ThreadsHelp =
    "worker threads per rank, sharing its rounds (0: the cores this rank is bound to), "
    "at most "
    + std::to_string(stack::MostThreads) + "; one rank per node or socket times threads is the layout to use";

po::options_description described_options() {
    po::options_description described =
        stack::tool_options("Usage: mpirun -n P stackgen --width W --height H [options]");
    described.add_options()("width", po::value<std::string>(), "well width W (columns, 1..16), required")(
        "height", po::value<std::string>(), "well height H (rows, >= 1), required")(
        "output", po::value<std::string>(),
        "table file (default stack_<W>x<H>.h5); written as <output>.partial "
        "and renamed when done, guarded by the lock <output>.lock")(
        "pieces", po::value<std::string>()->default_value("tetrominoes"),
        "the piece set: tetrominoes, rectangles, pentominoes, or a piece file (see README)")(
        "residue", po::value<std::vector<std::string>>(),
        "compute only boards whose height sum mod g is R, g the gcd of the set's piece sizes (4 for the "
        "tetrominoes: R in 0..3; repeat for several; default all)")(
        "precision", po::value<std::string>()->default_value("float64"),
        "values in the file: float64, or float32 (computed in float64, rounded once when written)")(
        "band-precision", po::value<std::string>()->default_value("float64"),
        "the rounds held in memory: float64, or float32 (half the band; each value computed in float64 from "
        "float32 successors, so it may differ from a float64 band's in the last bits: needs --precision float32 "
        "or --no-output)")("threads", po::value<std::string>()->default_value("1"), ThreadsHelp.c_str())(
        "resume",
        "continue <output>.partial, left by a run that stopped, from its last recorded round "
        "(any number of ranks; float64 tables); every round on disk is checked first")(
        "blocking-exchange",
        "exchange each round's rows before the next round computes, as before they overlapped it "
        "(for measuring the overlap; the table is the same)")(
        "resume-if-partial",
        "--resume when <output>.partial exists, else start afresh: for a job that a scheduler may requeue "
        "(scripts/stackgen.sbatch gives it to a requeued job)")(
        "no-output",
        "compute every round but write no table: prints V(empty board) and the values' digest "
        "(a well larger than the disk)")(
        "plan",
        "print what the run would need (memory per rank and node, disk, time from the measured cost "
        "model) without computing; exit 0 when it fits, 2 with the reason when not")(
        "plan-ranks", po::value<std::string>(), "with --plan: plan for this many ranks (default: the launch's)")(
        "plan-nodes", po::value<std::string>(), "with --plan: the ranks spread over this many nodes (default 1)")(
        "plan-memory", po::value<std::string>(),
        "with --plan: the memory of a node, e.g. 128G (default: what this node has available)")(
        "plan-cores", po::value<std::string>(),
        "with --plan: the cores of a node, for the time and for --threads 0 (default: this node's cores)")(
        "plan-disk", po::value<std::string>(),
        "with --plan: the free disk for the table, e.g. 64G (default: what the output's directory has)")(
        "plan-gpu-memory", po::value<std::string>(),
        "with --plan and --gpu: the memory of each rank's GPU, e.g. 139G (default: not checked)")(
        "plan-link", po::value<std::string>(),
        "with --plan: the bits a second a node's link carries, e.g. 100G, 25G, 1G (default 100G), for the "
        "network's time")(
        "plan-latency-us", po::value<std::string>(),
        "with --plan: the microseconds a message between nodes takes (default 2), for the network's time")(
        "gpu",
        "compute the rounds on a GPU, one per rank (the rank's index on its node picks it): the band lives in "
        "GPU memory, the host keeps two rounds; the same table, bit for bit (needs a build with CUDA)")(
        "portable-kernel",
        "compute the rounds with the GPU path's slice work on the CPU threads (slower than the default; "
        "checks the GPU path's logic where there is no GPU)")(
        "force", "discard an existing <output>.partial instead of refusing to start")(
        "checkpoint-seconds", po::value<std::string>()->default_value("1"),
        "record the rounds on disk in the partial table at most this often (0: after every round)")(
        "progress", "print a progress line for every round holding 1% of the states (default: a few a second)")(
        "quiet",
        "no progress lines on stderr (results and --json still print: the table is the result, so no text "
        "summary, but with --no-output the summary is, and prints)")(
        "round-table", "add one line per round to the summary (states, balance, time)")(
        "json", "print the summary (and with --round-table every round) as JSON");
    return described;
}

stack::GenerateOptions parse_options(const po::variables_map& variables) {
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    for (const char* required : {"width", "height"})
        if (!variables.count(required))
            throw stack::InputError(std::string("--") + required + " is required (see --help)");
    stack::GenerateOptions options;
    options.width = stack::parse_int_option("width", text("width"), 1, stack::MaxWidth);
    options.height = stack::parse_int_option("height", text("height"), 1, stack::MaxHeight);
    if (variables.count("output"))
        options.output = text("output");
    if (variables.count("quiet") && variables.count("progress"))
        throw stack::InputError("give --quiet or --progress, not both");
    options.quiet = variables.count("quiet") > 0;
    options.progress = options.quiet                 ? stack::ProgressMode::Never
                       : variables.count("progress") ? stack::ProgressMode::Always
                                                     : stack::ProgressMode::Default;
    options.json = variables.count("json") > 0;
    options.resume = variables.count("resume") > 0;
    options.resume_if_partial = variables.count("resume-if-partial") > 0;
    options.blocking_exchange = variables.count("blocking-exchange") > 0;
    options.force = variables.count("force") > 0;
    options.no_output = variables.count("no-output") > 0;
    options.checkpoint_seconds =
        stack::parse_real_option("checkpoint-seconds", text("checkpoint-seconds"), -1e-300, 1e9);
    options.precision = stack::parse_precision(text("precision"));
    options.band_precision = stack::parse_precision(text("band-precision"), "band-precision");
    options.threads = int(stack::parse_int_option("threads", text("threads"), 0, stack::MostThreads));
    options.pieces = stack::PieceSet::named_or_file(text("pieces"));
    if (variables.count("residue")) {
        const int modulus = options.pieces.cell_gcd();
        std::vector<std::int64_t> classes;
        for (const std::string& residue : variables["residue"].as<std::vector<std::string>>()) {
            classes.push_back(stack::parse_int_option("residue", residue, 0, stack::ResidueSet::MostClasses - 1));
            if (classes.back() >= modulus)
                throw stack::InputError(
                    "--residue " + residue + ": the pieces (" + options.pieces.name() + ") have "
                    + (modulus == 1
                           ? std::string("one class of the height sum (the gcd of their sizes is 1): 0")
                           : std::to_string(modulus) + " classes of the height sum (mod " + std::to_string(modulus)
                                 + ", the gcd of their sizes): 0 to " + std::to_string(modulus - 1)));
        }
        options.residues = stack::ResidueSet::of(modulus, classes);
    }
    options.round_table = variables.count("round-table") > 0;
    options.gpu = variables.count("gpu") > 0;
    options.portable_kernel = variables.count("portable-kernel") > 0;
    if (!variables.count("plan"))
        for (const char* planning : {"plan-ranks", "plan-nodes", "plan-memory", "plan-disk", "plan-cores",
                                     "plan-gpu-memory", "plan-link", "plan-latency-us"})
            if (variables.count(planning))
                throw stack::InputError(std::string("--") + planning + " goes with --plan");
    return options;
}

stack::PlanOptions parse_plan_options(const po::variables_map& variables, int launched_ranks) {
    const auto text = [&](const char* name) { return variables[name].as<std::string>(); };
    stack::PlanOptions plan;
    plan.ranks = variables.count("plan-ranks") ? stack::parse_int_option("plan-ranks", text("plan-ranks"), 1, 1 << 24)
                                               : launched_ranks;
    if (variables.count("plan-nodes"))
        plan.nodes = stack::parse_int_option("plan-nodes", text("plan-nodes"), 1, 1 << 20);
    if (plan.nodes > plan.ranks)
        throw stack::InputError("--plan-nodes " + std::to_string(plan.nodes) + " is more nodes than the "
                                + std::to_string(plan.ranks) + " ranks planned: every node needs a rank");
    if (variables.count("plan-memory")) {
        plan.node_memory = stack::parse_bytes_option("plan-memory", text("plan-memory"));
        plan.node_memory_text = text("plan-memory");
    }
    if (variables.count("plan-cores"))
        plan.cores = stack::parse_int_option("plan-cores", text("plan-cores"), 1, 1 << 20);
    if (variables.count("plan-disk")) {
        plan.disk = stack::parse_bytes_option("plan-disk", text("plan-disk"));
        plan.disk_text = text("plan-disk");
    }
    if (variables.count("plan-gpu-memory")) {
        if (!variables.count("gpu"))
            throw stack::InputError("--plan-gpu-memory plans a --gpu run: give --gpu too");
        plan.gpu_memory = stack::parse_bytes_option("plan-gpu-memory", text("plan-gpu-memory"));
        plan.gpu_memory_text = text("plan-gpu-memory");
    }
    if (variables.count("plan-link"))
        plan.link_bits_per_second = stack::parse_rate_option("plan-link", text("plan-link"));
    if (variables.count("plan-latency-us"))
        plan.latency_seconds =
            stack::parse_real_option("plan-latency-us", text("plan-latency-us"), -1e-300, 1e6) * 1e-6;
    return plan;
}

int run(int argc, char** argv) {
    const int rank = stack::MpiSession::world_rank();
    try {
        stack::Communicator comm(MPI_COMM_WORLD);
        const po::options_description described = described_options();
        po::variables_map variables;
        stack::parse_command_line(argc, argv, described, variables);
        if (stack::print_help_or_version("stackgen", described, variables, rank == 0))
            return stack::ExitSuccess;
        const stack::GenerateOptions options = parse_options(variables);
        if (variables.count("plan"))
            stack::print_plan(comm, options, parse_plan_options(variables, comm.size()));
        else
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
    } catch (const stack::Interrupted& error) {  // every rank, after the same round
        if (rank == 0)
            std::fprintf(stderr, "stackgen: %s\n", error.what());
        return stack::ExitInterrupted;
    } catch (const stack::PhaseError& error) {
        // Raised on this rank alone, naming it: the others may be waiting in
        // a collective, so only an abort ends the job.
        std::fprintf(stderr, "stackgen: error: %s\n", error.what());
        stack::MpiSession::abort(stack::ExitFailure);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "stackgen: error on rank %d: %s\n", rank, error.what());
        stack::MpiSession::abort(stack::ExitFailure);
    }
}

}  // namespace

int main(int argc, char** argv) {
    stack::ignore_broken_pipe();
    stack::MpiSession mpi(&argc, &argv);
    return stack::finish_output("stackgen", run(argc, argv));
}
