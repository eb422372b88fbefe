// stackgen: parse the options, call generate(), report errors.
#include "phase.h"
#include "generate.h"
#include "plan.h"
#include "rules/board.h"
#include "rules/pieces.h"
#include "support/cli.h"
#include "support/options.h"
#include "support/errors.h"
#include "support/interrupt.h"
#include "support/limits.h"

#include <cstdio>
#include <iostream>
#include <vector>

namespace {

// stackgen's modes: the plan options are for --plan alone.
constexpr stack::OptionTable::Modes Run = 1, Plan = 2;

// Every option of stackgen, declared once: its bounds, default and help.
stack::OptionTable declared_options() {
    stack::OptionTable table(
        "Usage: mpirun -n P stackgen --width W --height H [options]",
        "stackgen computes, for every hole-free stack of a W x H well (one per vector of column heights), the "
        "expected number of random pieces that optimal play places before a hole is forced, and writes them to "
        "one HDF5 table; MPI ranks, threads and GPUs share the work. With --clears tetris it solves the well "
        "game instead, where an upright I clears four rows.");
    table.section("Well and pieces");
    table.integer("width", 1, stack::MaxWidth, "well width W (columns), required");
    table.integer("height", 1, stack::MaxHeight, "well height H (rows), required");
    table.text("pieces", "the piece set: tetrominoes, rectangles, pentominoes, or a piece file (docs/pieces.md)")
        .defaults_to("tetrominoes");
    table
        .integer("residue", 0, stack::MostResidueClasses - 1,
                 "compute only boards whose height sum mod g is R, g the gcd of the set's piece sizes (4 for the "
                 "tetrominoes: R in 0..3; default all)")
        .many();
    table
        .choice("mirror",
                {{"auto",
                  "when the set is mirror-closed (each piece's mirror image in the set at its weight, as the "
                  "tetrominoes are), compute and store only the boards with h0 <= h(W-1): about half the memory and "
                  "file, but not half the time (every row is still computed); readers look the others up mirrored"},
                 {"off", "every board, as a set that is not mirror-closed is always computed"}},
                "which boards the table stores")
        .defaults_to("auto");

    table.section("Output");
    table.text("output",
               "table file (default stack_<W>x<H>.h5); written as <output>.partial "
               "and renamed when done, guarded by the lock <output>.lock");
    table
        .choice("precision", {{"float64", ""}, {"float32", "computed in float64, rounded once when written"}},
                "values in the file")
        .defaults_to("float64");
    table.flag("no-output",
               "compute every round but write no table: prints V(empty board) and the values' digest "
               "(a well larger than the disk)");
    table.flag("force", "discard an existing <output>.partial instead of refusing to start");
    table.flag("progress", "print a progress line for every round holding 1% of the states (default: a few a second)");
    table.flag("quiet",
               "no progress lines on stderr (results and --json still print: the table is the result, so no text "
               "summary, but with --no-output the summary is, and prints)");
    table.flag("round-table", "add one line per round to the summary (states, balance, time)");
    table.flag("json", "print the summary (and with --round-table every round) as JSON");

    table.section("Line clears (--clears tetris: the well game)");
    table
        .choice("clears",
                {{"none", "the stack only grows: the expected pieces placed until a hole is forced"},
                 {"tetris",
                  "the well game: the W columns beside an empty well, where an upright I clears four rows when "
                  "every column is 4 or more high; solved by sweeps to a fixed point (sets with the 1 x 4 I, "
                  "float64; --gpu and --portable-kernel on one rank)"}},
                "which rows the game clears")
        .defaults_to("none");
    table
        .real("clears-tolerance", 1e-15, 1,
              "with --clears tetris: sweep until every value is proven within this of the fixed point (the "
              "bracket of one Bellman step, docs/clears.md)",
              false)
        .defaults_to("1e-10");
    table
        .choice("extrapolate",
                {{"on",
                  "once the sweeps' change shrinks at a steady ratio r, jump the values the next tetrises read "
                  "r / (1 - r) changes further (the same fixed point, fewer sweeps; the CPU and portable "
                  "kernels)"},
                 {"off", "plain sweeps (a GPU's way: its tables are then the CPU's bits)"}},
                "with --clears tetris: extrapolate the sweeps")
        .defaults_to("on");
    table.integer("max-sweeps", 1, 1000000, "with --clears tetris: stop with an error after this many sweeps")
        .defaults_to("1000");
    table
        .real("sweep-seconds", 0, 1e9,
              "with --clears tetris --gpu: write the last sweep to <output>.sweep (the checkpoint --resume goes on "
              "from) at most this often; the sweeps between stay on the device (0: every sweep)",
              true)
        .defaults_to("600");

    table.section("Ranks and threads");
    table
        .integer("threads", 0, stack::MostThreads,
                 "worker threads per rank, sharing its rounds (0: the cores this rank is bound to); one rank per "
                 "node or socket times threads is the layout to use")
        .defaults_to("1");
    table
        .choice("kernel",
                {{"slice",
                  "the lower placements of each kind of slice (lower sum, column-3 height, top) worked out once a "
                  "round as runs of rows, which each slice of that kind applies"},
                 {"rows", "0.6.0's: the lower placements found row by row, kept for timing one against the other"}},
                "how the CPU kernel finds a row's placements; the same table either way")
        .defaults_to("slice");
    table
        .choice("band-precision",
                {{"float64", ""},
                 {"float32",
                  "half the band; each value computed in float64 from float32 successors, so it may "
                  "differ from a float64 band's in the last bits: needs --precision float32 or "
                  "--no-output"}},
                "the rounds held in memory")
        .defaults_to("float64");
    table.text("spill",
               "hold the band's rounds in files in this directory, mapped, instead of in memory: the page cache "
               "keeps what memory allows and reads the rest back from disk (for a well whose band does not fit; "
               "as slow as the disk wherever it must read back; the files are unlinked at once)");
    table.flag("blocking-exchange",
               "exchange each round's rows before the next round computes, as before they overlapped it "
               "(for measuring the overlap; the table is the same)");

    table.section("GPU");
    table.flag("gpu",
               "compute the rounds on a GPU, one per rank (the rank's index on its node picks it): the band lives in "
               "GPU memory, the host keeps two rounds; the same table, bit for bit (needs a build with CUDA)");
    table.flag("portable-kernel",
               "compute the rounds with the GPU path's slice work on the CPU threads (slower than the default; "
               "checks the GPU path's logic where there is no GPU)");

    table.section("Resume");
    table.flag("resume",
               "continue <output>.partial, left by a run that stopped, from its last recorded round "
               "(any number of ranks; float64 tables); every round on disk is checked first");
    table.flag("resume-if-partial",
               "--resume when <output>.partial exists, else start afresh: for a job that a scheduler may requeue "
               "(scripts/stackgen.sbatch gives it to a requeued job)");
    table
        .real("checkpoint-seconds", 0, 1e9,
              "record the rounds on disk in the partial table at most this often (0: after every round)", true)
        .defaults_to("1");

    table.section("Plan (--plan: what a run would need, without running it)");
    table.flag("plan",
               "print what the run would need (memory per rank and node, disk, time from the measured cost "
               "model) without computing; exit 0 when it fits, 2 with the reason when not");
    table.integer("plan-ranks", 1, 1 << 24, "with --plan: plan for this many ranks (default: the launch's)").in(Plan);
    table.integer("plan-nodes", 1, 1 << 20, "with --plan: the ranks spread over this many nodes")
        .in(Plan)
        .defaults_to("1");
    table.bytes("plan-memory", "with --plan: the memory of a node, e.g. 128G (default: what this node has available)")
        .in(Plan);
    table
        .integer("plan-cores", 1, 1 << 20,
                 "with --plan: the cores of a node, for the time and for --threads 0 (default: this node's cores)")
        .in(Plan);
    table
        .bytes("plan-disk",
               "with --plan: the free disk for the table, e.g. 64G (default: what the output's directory has)")
        .in(Plan);
    table
        .bytes("plan-gpu-memory",
               "with --plan and --gpu: the memory of each rank's GPU, e.g. 139G (default: not checked)")
        .in(Plan);
    table.rate("plan-link", "with --plan: what a node's link carries, for the network's time")
        .in(Plan)
        .defaults_to("100G");
    table
        .real("plan-latency-us", 0, 1e6,
              "with --plan: the microseconds a message between nodes takes, for the network's time", true)
        .in(Plan)
        .defaults_to("2");
    return table;
}

stack::GenerateOptions parse_options(const stack::OptionTable& table) {
    for (const char* required : {"width", "height"})
        if (!table.has(required))
            throw stack::InputError(std::string("--") + required + " is required (see --help)");
    stack::GenerateOptions options;
    options.width = table.integer("width");
    options.height = table.integer("height");
    if (table.has("output"))
        options.output = table.text("output");
    if (table.given("quiet") && table.given("progress"))
        throw stack::InputError("give --quiet or --progress, not both");
    options.quiet = table.given("quiet");
    options.progress = options.quiet             ? stack::ProgressMode::Never
                       : table.given("progress") ? stack::ProgressMode::Always
                                                 : stack::ProgressMode::Default;
    options.json = table.given("json");
    options.resume = table.given("resume");
    options.resume_if_partial = table.given("resume-if-partial");
    options.blocking_exchange = table.given("blocking-exchange");
    options.force = table.given("force");
    options.no_output = table.given("no-output");
    options.checkpoint_seconds = table.real("checkpoint-seconds");
    options.precision = stack::parse_precision(table.choice("precision"));
    options.band_precision = stack::parse_precision(table.choice("band-precision"), "band-precision");
    options.threads = table.integer("threads");
    options.pieces = stack::PieceSet::named_or_file(table.text("pieces"));
    if (table.given("residue")) {
        const int modulus = options.pieces.cell_gcd();
        std::vector<std::int64_t> classes;
        for (const int residue : table.integers("residue")) {
            classes.push_back(residue);
            if (residue >= modulus)
                throw stack::InputError(
                    "--residue " + std::to_string(residue) + ": the pieces (" + options.pieces.name() + ") have "
                    + (modulus == 1
                           ? std::string("one class of the height sum (the gcd of their sizes is 1): 0")
                           : std::to_string(modulus) + " classes of the height sum (mod " + std::to_string(modulus)
                                 + ", the gcd of their sizes): 0 to " + std::to_string(modulus - 1)));
        }
        options.residues = stack::ResidueSet::of(modulus, classes);
    }
    options.round_table = table.given("round-table");
    options.gpu = table.given("gpu");
    options.portable_kernel = table.given("portable-kernel");
    options.row_kernel = table.choice("kernel") == "rows";
    if (table.given("kernel") && (options.gpu || options.portable_kernel))
        throw stack::InputError("--kernel chooses the CPU kernel's way: give it without --gpu and --portable-kernel");
    options.mirror = table.choice("mirror") == "auto";
    if (table.has("spill")) {
        options.spill = table.text("spill");
        if (options.spill.empty())
            throw stack::InputError("--spill needs a directory");
    }
    options.clears = stack::parse_clears(table.choice("clears"));
    options.clears_tolerance = table.real("clears-tolerance");
    options.max_sweeps = table.integer("max-sweeps");
    options.extrapolate = table.choice("extrapolate") == "on" && !options.gpu;
    if (table.given("extrapolate") && table.choice("extrapolate") == "on" && options.gpu)
        throw stack::InputError("--extrapolate on: a GPU's sweeps are plain; give --extrapolate off, or nothing");
    options.sweep_seconds = table.real("sweep-seconds");
    if (options.clears == stack::Clears::None)
        for (const char* name : {"clears-tolerance", "max-sweeps", "sweep-seconds", "extrapolate"})
            if (table.given(name))
                throw stack::InputError(std::string("--") + name + " goes with --clears tetris");
    if (table.given("sweep-seconds") && !options.gpu)
        throw stack::InputError("--sweep-seconds goes with --clears tetris --gpu (other runs write every sweep)");
    if (!table.given("plan"))
        for (const stack::OptionTable::Option* planning : table.given_outside(Run))
            throw stack::InputError("--" + planning->name + " goes with --plan");
    return options;
}

stack::PlanOptions parse_plan_options(const stack::OptionTable& table, int launched_ranks) {
    stack::PlanOptions plan;
    plan.ranks = table.has("plan-ranks") ? table.integer("plan-ranks") : launched_ranks;
    plan.nodes = table.integer("plan-nodes");
    if (plan.nodes > plan.ranks)
        throw stack::InputError("--plan-nodes " + std::to_string(plan.nodes) + " is more nodes than the "
                                + std::to_string(plan.ranks) + " ranks planned: every node needs a rank");
    if (table.has("plan-memory")) {
        plan.node_memory = table.bytes("plan-memory");
        plan.node_memory_text = table.text("plan-memory");
    }
    if (table.has("plan-cores"))
        plan.cores = table.integer("plan-cores");
    if (table.has("plan-disk")) {
        plan.disk = table.bytes("plan-disk");
        plan.disk_text = table.text("plan-disk");
    }
    if (table.has("plan-gpu-memory")) {
        if (!table.given("gpu"))
            throw stack::InputError("--plan-gpu-memory plans a --gpu run: give --gpu too");
        plan.gpu_memory = table.bytes("plan-gpu-memory");
        plan.gpu_memory_text = table.text("plan-gpu-memory");
    }
    plan.link_bits_per_second = table.rate("plan-link");
    plan.latency_seconds = table.real("plan-latency-us") * 1e-6;
    return plan;
}

int run(int argc, char** argv) {
    const int rank = stack::MpiSession::world_rank();
    try {
        stack::Communicator comm(MPI_COMM_WORLD);
        stack::OptionTable table = declared_options();
        table.parse(argc, argv);
        if (table.help_or_version("stackgen", rank == 0))
            return stack::ExitSuccess;
        const stack::GenerateOptions options = parse_options(table);
        if (table.given("plan"))
            stack::print_plan(comm, options, parse_plan_options(table, comm.size()));
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
