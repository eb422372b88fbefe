#include "generate.h"

#include "capacity.h"
#include "checkpoint.h"
#include "clears.h"
#include "fault.h"
#include "output.h"
#include "report.h"
#include "round_writer.h"
#include "solver.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/interrupt.h"
#include "support/parallel.h"
#include "table/digest.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

namespace stack {

namespace {

// Seconds between progress lines by default: a few a second.
constexpr double ProgressInterval = 0.25;

}  // namespace

std::string output_path(const GenerateOptions& options) {
    return options.output ? *options.output : default_table_name(options.width, options.height, options.pieces);
}

void check_options(const GenerateOptions& options) {
    if (options.resume_if_partial && (options.resume || options.force || options.no_output))
        throw InputError(
            "--resume-if-partial decides whether to resume: give it without --resume, --force "
            "and --no-output");
    if (options.resume && options.force)
        throw InputError("give --resume or --force, not both");
    if (options.resume && options.precision != Precision::Float64)
        throw InputError(
            "--resume needs a float64 table: a float32 one keeps only rounded values, from which the "
            "rounds still needed cannot be rebuilt bit for bit");
    if (options.band_precision == Precision::Float32 && options.precision == Precision::Float64 && !options.no_output)
        throw InputError(
            "--band-precision float32 rounds every value to float32: give --precision float32 (or "
            "--no-output)");
    if (options.no_output && (options.output || options.resume || options.force))
        throw InputError("--no-output writes no table: give it without --output, --resume and --force");
    if (options.gpu && options.portable_kernel)
        throw InputError("give --gpu or --portable-kernel, not both");
    if (!options.spill.empty()) {
        if (options.gpu)
            throw InputError("--spill holds a CPU band in files: give it without --gpu (a GPU holds its own band)");
        std::error_code error;
        if (!std::filesystem::is_directory(options.spill, error))
            throw InputError("--spill " + options.spill + ": not a directory");
        if (::access(options.spill.c_str(), W_OK | X_OK) != 0)
            throw InputError("--spill " + options.spill + ": cannot write there");
    }
    if (options.clears != Clears::None) {
        if (options.precision != Precision::Float64 || options.band_precision != Precision::Float64)
            throw InputError(
                "--clears tetris sweeps to within --clears-tolerance of the fixed point: it needs "
                "float64 values and band (--precision and --band-precision float64)");
        if (options.no_output)
            throw InputError(
                "--clears tetris writes its sweeps (the checkpoints a stopped run resumes from) and its "
                "table: give it without --no-output");
    }
}

void check_sweep_ranks(const GenerateOptions& options, int ranks) {
    if (options.clears == Clears::None || !(options.gpu || options.portable_kernel) || ranks == 1)
        return;
    const std::string kernel = options.gpu ? "--gpu" : "--portable-kernel";
    throw InputError("--clears tetris with " + kernel
                     + " runs on one rank (the tetris successors are read where they are held): run it without "
                       "mpirun, or without "
                     + kernel);
}

namespace {

// The code that computes the rounds: --gpu, --portable-kernel, or the CPU
// kernel.
KernelKind kernel_kind(const GenerateOptions& options) {
    return options.gpu               ? KernelKind::Gpu
           : options.portable_kernel ? KernelKind::Portable
           : options.row_kernel      ? KernelKind::CpuRows
                                     : KernelKind::Cpu;
}

}  // namespace

void check_output_state(const GenerateOptions& options, const std::string& output, bool resume) {
    check_output_path(output);
    const std::string partial = partial_name(output);
    const bool exists = ::access(partial.c_str(), F_OK) == 0;
    if (resume && !exists && options.clears == Clears::None)
        throw InputError("nothing to resume: '" + partial + "' does not exist");
    if (!resume && exists && !options.force)
        throw InputError("'" + partial + "': a resumable partial exists: use --resume, or --force to discard it");
    if (options.clears != Clears::None) {
        const std::string sweep = sweep_name(output);
        const bool swept = ::access(sweep.c_str(), F_OK) == 0;
        if (resume && !swept && !exists)
            throw InputError("nothing to resume: neither '" + partial + "' nor '" + sweep + "' exists");
        if (!resume && swept && !options.force)
            throw InputError("'" + sweep + "': a finished sweep exists: use --resume to go on from it, or --force "
                             "to discard it");
    }
}

namespace {

// Rank 0, before anything is computed: the output's path, the lock, and a
// partial in the way (output.h). The path is checked before the lock is
// taken, and the partial again once it is held.
void guard_output(const GenerateOptions& options, const std::string& output, std::optional<OutputLock>& lock) {
    check_output_path(output);
    lock.emplace(output);
    check_output_state(options, output, options.resume);
}

}  // namespace

bool mirrored_table(const GenerateOptions& options, const Rules& rules) {
    return options.mirror && rules.mirror_closed() && options.width >= 2;
}

int run_lower_columns(const Geometry& geometry, int ranks, bool mirrored) {
    return mirrored ? Partition::mirrored_lower_columns(geometry, ranks)
                    : Partition::default_lower_columns(geometry, ranks);
}

TableInfo table_info(const Geometry& geometry, const RoundLayout& layout, const Rules& rules,
                     const GenerateOptions& options) {
    TableInfo info;
    info.width = geometry.width();
    info.height = geometry.height();
    info.schedule = "rounds";
    info.states = geometry.states();
    info.stored_states = layout.stored_states();
    info.pieces = rules.set();
    info.generator = std::string("stackgen ") + project_version();
    info.residues = layout.residues();
    info.precision = options.precision;
    info.mirrored = layout.mirrored();
    info.connections_done.assign(std::size_t(rules.piece_count()), 0);
    if (options.clears != Clears::None) {
        info.format_version = ClearsFormatVersion;
        info.clears = options.clears;
        info.sweeps.tolerance = options.clears_tolerance;
    }
    return info;
}

namespace {

PieceCounts sum_over_ranks(const Communicator& comm, PieceCounts local, const PieceCounts& before) {
    comm.all_reduce(local.data(), int(local.size()), Reduction::Sum);
    for (std::size_t piece = 0; piece < local.size(); ++piece)
        local[piece] += before[piece];
    return local;
}

// The rounds a resumed run needs from the file: the K before the first one
// it computes (K the set's most cells a piece: 4 for the tetrominoes, 5 for
// the pentominoes), with their ghosts exchanged again.
void reload_rounds(const Communicator& comm, RoundRunner& runner, const std::string& partial,
                   const Checkpoint& checkpoint, const Rules& rules) {
    const std::size_t band = std::size_t(rules.most_cells());
    const std::size_t first = checkpoint.first_round();
    if (first == 0)
        return;
    int descriptor = -1;
    comm.on_every_rank([&] {
        descriptor = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0)
            throw std::runtime_error("cannot open " + partial + " to resume: " + std::strerror(errno));
    });
    for (std::size_t round = first > band ? first - band : 0; round < first; ++round) {
        runner.reload(round, descriptor, checkpoint.data_offset());
        runner.exchange(round);
    }
    ::close(descriptor);
}

// Threads that will wait for a core, and advice that works where it is
// given. Rank 0's node decides, and rank 0 says it once, on stderr:
//   - the ranks on the node ask for more threads than it has cores: no
//     binding helps, so the advice is the threads a rank can have there
//     (ranks that share the cores, mpirun -n 4 --threads 2 on 2 cores,
//     included; one thread a rank on more ranks than cores is the user's
//     own --oversubscribe, and is not warned about);
//   - else rank 0 is bound to fewer cores than its threads (Open MPI binds
//     a rank to one core at 2 ranks or fewer): the binding that gives each
//     rank its threads' cores, which fits the node, as docs/scale.md
//     launches.
void warn_if_oversubscribed(const Communicator& comm, const GenerateOptions& options, int threads) {
    const int on_node = comm.ranks_on_node();
    if (!comm.is_root() || options.quiet)
        return;
    const int cores = node_cores(), bound = bound_cores();
    const char* const plural = on_node == 1 ? "" : "s";
    if (threads > 1 && std::int64_t(threads) * on_node > cores) {
        const int fits = std::max(1, cores / on_node);
        std::fprintf(stderr,
                     "stackgen: warning: %d rank%s x %d threads on rank 0's node, but it has %d core%s: threads "
                     "will wait for a core; use --threads %d%s\n",
                     on_node, plural, threads, cores, cores == 1 ? "" : "s", fits,
                     on_node > 1 ? " or fewer ranks a node" : "");
    } else if (threads > bound) {
        std::fprintf(stderr,
                     "stackgen: warning: %d threads per rank, but rank 0 may run on %d core%s: bind each rank to "
                     "its cores (mpirun --map-by slot:PE=%d --bind-to core)\n",
                     threads, bound, bound == 1 ? "" : "s", threads);
    }
}

// What a sweep of the well game (clears.h) adds to the round loop: the
// tetris floor set before each round computes, the change measured after,
// and the sweep's attributes set before the table's last record.
struct SweepHooks {
    std::function<void(RoundRunner&, std::size_t round)> before_compute;
    std::function<void(RoundRunner&, std::size_t round)> after_compute;
    std::function<void(TableInfo&, double empty_board_value)> before_finish;
};

// What the round loop hands to the summary.
struct RoundsRun {
    std::vector<RoundReport> reports;
    PieceCounts connections;  // over all ranks and every round
    PhaseTimes times;
    double writer_busy = 0;
    double empty_board_value = 0;
    std::uint64_t digest = 0;  // table/digest.h
    KernelKind kernel = KernelKind::Cpu;
    bool exchange_overlapped = false;  // RoundRunner::begin_exchange
    std::optional<GpuReport> gpu;      // this rank's GPU
};

// Resuming: the digest's CRCs of the rounds already on disk, read back from
// the partial table (rank 0).
void read_back_digest(const std::string& partial, const Checkpoint& checkpoint, const RoundRunner& runner,
                      ValueDigest& digest) {
    const int descriptor = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        throw std::runtime_error("cannot open " + partial + " to resume: " + std::strerror(errno));
    std::vector<char> buffer(std::size_t(16) << 20);
    for (std::size_t round = 0; round < checkpoint.first_round(); ++round) {
        const int sum = runner.round_sum(round);
        std::uint64_t crc = 0;
        const std::uint64_t offset = checkpoint.data_offset() + digest.round_offset(sum),
                            bytes = digest.round_bytes(sum);
        for (std::uint64_t done = 0; done < bytes;) {
            const std::uint64_t piece = std::min<std::uint64_t>(buffer.size(), bytes - done);
            try {
                read_exactly(descriptor, buffer.data(), piece, offset + done,
                             "cannot read round " + std::to_string(round) + " back for the digest");
            } catch (...) {
                ::close(descriptor);
                throw;
            }
            crc = crc64(buffer.data(), piece, crc);
            done += piece;
        }
        digest.set_round(sum, crc);
    }
    ::close(descriptor);
}

// Records the rounds on disk everywhere about every checkpoint_seconds.
// Rank 0's clock alone says when a record is due: ranks that each asked
// their own clock would disagree and part of them would wait forever in the
// collectives below. One reduction carries both facts, [0] the rounds
// written everywhere and [1] zero when rank 0 says a record is due.
class Recorder {
public:
    Recorder(const Communicator& comm, const RoundLayout& layout, Checkpoint& checkpoint, const TableInfo& info,
             double seconds)
        : comm_(comm), layout_(layout), checkpoint_(checkpoint), info_(info), seconds_(seconds),
          recorded_(long(checkpoint.first_round()) - 1), last_(MPI_Wtime()) {}

    // After each round; counted[r] is this rank's connections through round r.
    // `now`: record whatever is on disk everywhere, due or not (a stop).
    void after_round(RoundRunner& runner, RoundWriter& writer, const std::vector<PieceCounts>& counted,
                     bool now = false) {
        long state[2] = {writer.written_through(), now || (comm_.is_root() && MPI_Wtime() - last_ >= seconds_) ? 0 : 1};
        comm_.all_reduce(state, 2, Reduction::Min);
        const long everywhere = state[0];
        if (everywhere <= recorded_ || state[1] != 0)
            return;
        writer.sync();
        const PieceCounts done = sum_over_ranks(comm_, counted[everywhere], checkpoint_.connections_before());
        comm_.on_root([&] {
            TableInfo progress = info_;
            progress.rounds_done = everywhere + 1;
            progress.connections_done.assign(done.begin(), done.end());
            const int lowest = runner.round_sum(std::size_t(everywhere));
            checkpoint_.record(progress, writer.checksums().checksums(), layout_.first_block(lowest),
                               layout_.checksum_blocks());
        });
        recorded_ = everywhere;
        last_ = MPI_Wtime();
    }
    long recorded() const { return recorded_; }

private:
    const Communicator& comm_;
    const RoundLayout& layout_;
    Checkpoint& checkpoint_;
    const TableInfo& info_;
    double seconds_;
    long recorded_;  // the last round recorded in the file
    double last_;
};

// After the last round: the connections against the rules' own count, and
// the finished table's last record.
void finish_table(const Communicator& comm, const RoundLayout& layout, const Rules& rules, Checkpoint* checkpoint,
                  RoundWriter& writer, const PieceCounts& connections, std::uint64_t digest, TableInfo& info) {
    if (connections != connections_of_rounds(rules, layout, std::size_t(layout.rounds())))
        throw CollectiveError(
            "the solve made another number of connections than the rules count (a bug: please "
            "report it)");
    for (const std::uint64_t count : connections)
        info.connections += count;
    info.rounds_done = layout.rounds();
    info.connections_done.assign(connections.begin(), connections.end());
    info.digest = digest;
    if (checkpoint)
        comm.on_root([&] {
            checkpoint->record_digest(digest);
            checkpoint->record(info, writer.checksums().checksums(), 0, layout.checksum_blocks());
        });
}

// A SIGINT or SIGTERM reached some rank during `round`: every rank agreed
// on it after the round, so all stop here together. The rounds written so
// far are recorded in the partial table (when there is one), and the
// Interrupted error says how far the run got and how to go on; unwinding
// releases the output's lock.
[[noreturn]] void stop_interrupted(RoundRunner& runner, RoundWriter& writer, Recorder* recorder,
                                   const std::vector<PieceCounts>& counted, std::size_t round,
                                   const std::string& partial) {
    runner.finish_exchange();
    writer.finish();
    const std::string where =
        "interrupted after round " + std::to_string(round + 1) + " of " + std::to_string(runner.round_count());
    if (!recorder)
        throw Interrupted(where + "; nothing was kept (--no-output)");
    recorder->after_round(runner, writer, counted, true);
    throw Interrupted(where + "; " + std::to_string(recorder->recorded() + 1) + " rounds are on disk in " + partial
                      + ": stackgen --resume continues");
}

// The rounds, from the checkpoint's first on: compute, exchange, write,
// record now and then. Without a checkpoint (--no-output) nothing is
// written: the writer only digests.
RoundsRun run_rounds(const Communicator& comm, RoundRunner& runner, const Partition& partition,
                     const RoundLayout& layout, const Rules& rules, const GenerateOptions& options,
                     const std::string& partial, Checkpoint* checkpoint, TableInfo& info, double start,
                     const SweepHooks* sweep = nullptr) {
    RoundsRun run;
    const int threads = resolve_threads(options.threads);
    warn_if_oversubscribed(comm, options, threads);
    RoundWriter writer(comm, partition, layout, options.precision, checkpoint ? partial : std::string(),
                       checkpoint ? checkpoint->data_offset() : 0, threads);
    const std::size_t first_round = checkpoint ? checkpoint->first_round() : 0;
    const PieceCounts before = checkpoint ? checkpoint->connections_before() : PieceCounts(rules.piece_count(), 0);
    if (checkpoint && comm.is_root()) {
        for (std::uint64_t block = layout.first_block(layout.rounds() - int(first_round));
             block < layout.checksum_blocks(); ++block)
            writer.checksums().set(block, checkpoint->checksums()[block]);
        read_back_digest(partial, *checkpoint, runner, writer.digest());
    }
    if (checkpoint)
        reload_rounds(comm, runner, partial, *checkpoint, rules);
    const bool progress = comm.is_root() && !options.quiet && options.progress != ProgressMode::Never;
    ProgressPrinter print_progress(progress, options.progress == ProgressMode::Always ? 0.0 : ProgressInterval,
                                   states_per_round(layout), first_round);
    std::optional<Recorder> recorder;
    if (checkpoint)
        recorder.emplace(comm, layout, *checkpoint, info, options.checkpoint_seconds);
    run.times.setup_seconds = MPI_Wtime() - start;
    const double rounds_start = MPI_Wtime();
    std::vector<PieceCounts> counted(runner.round_count());  // [round] -> this rank's connections through it
    const InterruptScope interrupt_scope;                    // Ctrl-C or SIGTERM: stop after the round, keeping it
    // One GPU and no file: the digest is the device's, and only the empty
    // board's round comes back (nothing else on the host reads the rounds).
    if (runner.kind() == KernelKind::Gpu && !checkpoint && comm.size() == 1)
        runner.digest_on_device(int(value_bytes(options.precision)));
    for (std::size_t round = first_round; round < runner.round_count(); ++round) {
        RoundReport report;
        inject_fault(comm.rank(), round, Phase::Compute);
        if (sweep)
            sweep->before_compute(runner, round);
        report.compute = runner.compute(round);
        if (sweep)
            sweep->after_compute(runner, round);
        inject_fault(comm.rank(), round, Phase::Exchange);
        report.compute.exchange = runner.begin_exchange(round);
        report.write = report.compute.gpu.digested
                           ? writer.digested(runner.round_sum(round), round, report.compute.gpu.round_crc)
                           : writer.write(runner.store(runner.round_sum(round)), round);
        report.compute.rounds_bytes = runner.rounds_bytes();
        report.compute.ghost_bytes = runner.ghost_bytes();
        report.compute.writer_bytes = writer.buffer_bytes();
        counted[round] = runner.connections();
        runner.release(round);
        print_progress(round, runner.round_count(), report);
        run.reports.push_back(report);
        if (recorder)
            recorder->after_round(runner, writer, counted);
        if (comm.all_reduce(long(interrupted()), Reduction::Max) != 0)
            stop_interrupted(runner, writer, recorder ? &*recorder : nullptr, counted, round, partial);
    }
    const double last_wait = runner.finish_exchange();  // round 0's rows, which nothing reads
    if (!run.reports.empty())
        run.reports.back().compute.exchange.seconds += last_wait;
    run.times.rounds_seconds = MPI_Wtime() - rounds_start;
    const double wait_start = MPI_Wtime();
    writer.finish();
    writer.sync();
    run.times.write_wait_seconds = MPI_Wtime() - wait_start;
    run.writer_busy = writer.writer_busy_seconds();
    run.connections = sum_over_ranks(comm, runner.connections(), before);
    // The empty board: row sum 0, chunk 0 (rank 0's first), h0 = 0.
    if (comm.is_root() && layout.residues().has(0))
        run.empty_board_value = runner.store(0).value_at(std::uint64_t(layout.index_in_row(0, 0)));
    comm.broadcast(run.empty_board_value);
    if (runner.gpu_report())
        run.gpu = *runner.gpu_report();
    run.kernel = runner.kind();
    run.exchange_overlapped = runner.overlaps_exchange();
    if (comm.is_root())
        run.digest = writer.digest().digest();
    comm.broadcast(run.digest);
    if (sweep)
        sweep->before_finish(info, run.empty_board_value);
    finish_table(comm, layout, rules, checkpoint, writer, run.connections, run.digest, info);
    return run;
}

void print_summary(const Communicator& comm, const GenerateOptions& options, const Partition& partition,
                   const RoundLayout& layout, const Rules& rules, const RoundsRun& run, const std::string& output,
                   std::size_t resumed_from, const std::vector<SweepRecord>* sweeps = nullptr) {
    SummaryInputs summary;
    summary.partition = &partition;
    summary.rules = &rules;
    summary.layout = &layout;
    summary.rounds = &run.reports;
    summary.connections = run.connections;
    summary.empty_board_computed = layout.residues().has(0);
    summary.empty_board_value = run.empty_board_value;
    summary.writer_busy_seconds = run.writer_busy;
    summary.digest = run.digest;
    summary.threads = resolve_threads(options.threads);
    summary.band_precision = options.band_precision;
    summary.precision = options.precision;
    summary.file_bytes = table_file_bytes(layout, options.precision);
    summary.times = run.times;
    summary.output = options.no_output ? std::string() : output;
    summary.round_table = options.round_table;
    summary.resumed_from = resumed_from;
    summary.kernel = run.kernel;
    summary.exchange_overlapped = run.exchange_overlapped;
    summary.gpu = run.gpu ? &*run.gpu : nullptr;
    summary.sweeps = sweeps;
    summary.clears_tolerance = options.clears_tolerance;
    const Json document = summary_json(comm, summary);
    if (comm.is_root()) {
        std::fputs(options.json ? json_text(document).c_str() : summary_text(document).c_str(), stdout);
        std::fflush(stdout);
    }
}

// "1e-10", "3.02": printf's %.3g.
std::string short_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// A line-clear table of sweeps' consistent with the run asked for.
void check_sweep_table(const StackTable& table, const TableInfo& asked) {
    const TableInfo& found = table.info();
    if (found.clears != asked.clears || found.width != asked.width || found.height != asked.height
        || found.pieces.attribute_text() != asked.pieces.attribute_text() || found.residues != asked.residues
        || found.mirrored != asked.mirrored || found.precision != Precision::Float64)
        throw InputError("'" + table.path() + "' is not a sweep of the table asked for (shape, pieces, classes, "
                         "mirror or clears differ): --force discards it");
}

// A sweep kept on the GPU (GpuSweeps), written: the rounds of the sweep
// just computed (`last`: of the sweep before, which the device holds until
// the next sweep is done) come back from the device one at a time and go
// through the writer into <partial>, whose digest must be the one the device
// computed in that sweep (`run`'s); then the table's last record.
// Collective (one rank).
void write_device_sweep(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                        const Rules& rules, const GpuSweeps& sweeps, const RoundsRun& run, const std::string& partial,
                        Checkpoint& checkpoint, TableInfo& info, int threads, bool last) {
    RoundWriter writer(comm, partition, layout, Precision::Float64, partial, checkpoint.data_offset(), threads);
    RoundStore store;
    for (int round = 0; round < partition.rounds(); ++round) {
        const int sum = partition.max_row_sum() - round;
        store = RoundStore(partition, layout, sum, int(sizeof(double)), std::move(store), threads);
        sweeps.download(store, last);
        writer.write(store, std::size_t(round));
    }
    writer.finish();
    writer.sync();
    std::uint64_t digest = 0;
    if (comm.is_root())
        digest = writer.digest().digest();
    comm.broadcast(digest);
    if (digest != run.digest)
        throw std::logic_error("the sweep written differs from the sweep the GPU digested (a bug: please report it)");
    finish_table(comm, layout, rules, &checkpoint, writer, run.connections, digest, info);
}

// The well game (clears.h): sweeps of the rounds until the bound is within
// the tolerance. Each sweep is a fresh runner (its connection counts are a
// sweep's) writing <output>.partial, published as <output>.sweep, and the
// last one as <output>. --resume goes on after the sweep on disk; a sweep
// cut off midway is computed again.
//
// What a sweep reads of the last one, by kernel:
//   - the CPU kernel: the targets' values (TetrisTargets, on every rank),
//     each round's tetris successors gathered into a floor (tetris_floor);
//     the targets measure the change and may jump (--extrapolate);
//   - the portable kernels (one rank): the same, each round's tetris round
//     laid out from the targets into a store the slice work reads;
//   - a GPU (one rank): the last sweep's whole table on the device
//     (GpuSweeps), which also measures the change at the targets; plain
//     sweeps; a sweep is written only every --sweep-seconds, when it is the
//     last, or when the run stops, so the sweeps between cost no disk and
//     no bus.
// <output>.sweep is read only to resume. Each sweep's table carries its
// proven bracket (clears.h, rules/bracket.h), and the run stops when the
// bracket's bound is within --clears-tolerance.
void run_sweeps(const Communicator& comm, const GenerateOptions& options, const Partition& partition,
                const RoundLayout& layout, const Rules& rules, const std::string& output, const std::string& partial,
                double start) {
    const Geometry& geometry = partition.geometry();
    const int threads = resolve_threads(options.threads);
    const KernelKind kind = kernel_kind(options);
    check_sweep_ranks(options, comm.size());
    const std::string sweep_file = sweep_name(output);
    const bool progress = comm.is_root() && !options.quiet && options.progress != ProgressMode::Never;
    std::optional<GpuSweeps> device;  // the last sweep and this one, on the GPU
    if (kind == KernelKind::Gpu)
        comm.on_every_rank([&] { device.emplace(partition, layout, comm.rank_on_node()); });
    std::optional<TetrisTargets> targets;  // the CPU and portable kernels': what the next sweep's tetrises read
    if (!device)
        comm.on_every_rank([&] { targets.emplace(layout); });
    bool targets_held = false;  // whether they hold a sweep (its values, or jumped from them)
    const bool jumps = options.extrapolate && !device;
    SweepState state;
    std::int64_t first = 0;
    std::int64_t written = -1;  // the sweep in sweep_file, -1: none
    std::vector<SweepRecord> records;
    if (options.resume) {
        int swept = 0;
        comm.on_root([&] { swept = ::access(sweep_file.c_str(), F_OK) == 0; });
        comm.broadcast(swept);
        if (swept != 0) {
            std::optional<StackTable> previous;
            comm.on_every_rank([&] {
                previous.emplace(StackTable::open(sweep_file, {Residency::Lazy, 0, false, threads}));
                check_sweep_table(*previous, table_info(geometry, layout, rules, options));
            });
            state = previous->info().sweeps;
            first = state.sweep + 1;
            written = state.sweep;
            if (device) {  // onto the device, round by round
                RoundStore store;
                for (int sum = 0; sum <= partition.max_row_sum(); ++sum) {
                    store = RoundStore(partition, layout, sum, int(sizeof(double)), std::move(store), threads);
                    read_round(partition, layout, store, *previous, threads);
                    device->upload_last(store);
                }
            } else {
                targets->read_table(layout, *previous, threads);
                targets_held = true;
            }
            if (progress)
                std::fprintf(stderr, "stackgen: resuming after sweep %lld (largest change %.3g) from %s\n",
                             static_cast<long long>(state.sweep), state.change, sweep_file.c_str());
        }
    } else if (options.force) {
        comm.on_root([&] { std::remove(sweep_file.c_str()); });
    }
    RoundStore floor;  // the CPU kernel's tetris floor, or the portable kernels' tetris round
    double last_written = MPI_Wtime();
    std::optional<RoundsRun> last_run;  // a GPU's: the sweep before this one, still on the device
    // Ctrl-C or SIGTERM: the rounds stop after a round (run_rounds' scope,
    // nested in this one); between sweeps, and while one is written, the
    // run stops after the sweep, which is then on disk.
    const InterruptScope interrupt_scope;
    for (std::int64_t sweep = first;; ++sweep) {
        const double sweep_start = MPI_Wtime();
        const bool has_last = device ? device->has_last() : targets_held;
        const double jump = jumps ? next_jump(records) : 0;
        std::optional<RoundRunner> runner;
        comm.on_every_rank([&] {
            runner.emplace(comm, partition, layout, rules, threads, int(sizeof(double)), kind,
                           kind == KernelKind::Gpu ? comm.rank_on_node() : 0);
            if (options.blocking_exchange)
                runner->block_exchange();
            if (device)
                runner->use_gpu_sweeps(*device);
        });
        TableInfo info = table_info(geometry, layout, rules, options);
        info.sweeps = state;
        info.sweeps.sweep = sweep;
        std::optional<Checkpoint> checkpoint;  // a GPU's sweep is written after it, when it is
        if (!device)
            checkpoint.emplace(Checkpoint::create(comm, partial, info, layout, rules));
        TargetChange local_change;
        double local_largest = 0;
        SweepHooks hooks;
        hooks.before_compute = [&](RoundRunner& run, std::size_t round) {
            if (device || !has_last)
                return;
            const int sum = run.round_sum(round);
            if (cpu_kernel(kind)) {
                floor = RoundStore(partition, layout, sum, int(sizeof(double)), std::move(floor), threads);
                const bool any = tetris_floor(partition, layout, floor, *targets, threads);
                run.set_tetris_floor(any ? floor.at_as<double>(0) : nullptr);
                return;
            }
            const int below = tetris_round_sum(sum, geometry.width());
            if (below < 0) {
                run.set_tetris_round(nullptr);
                return;
            }
            floor = RoundStore(partition, layout, below, int(sizeof(double)), std::move(floor), threads);
            targets->fill_round(partition, layout, floor, threads);
            run.set_tetris_round(&floor);
        };
        hooks.after_compute = [&](RoundRunner& run, std::size_t round) {
            if (device)
                return;
            const RoundStore& store = run.store(run.round_sum(round));
            const TargetChange change = targets->take_round(comm, partition, layout, store, threads, has_last, jump);
            local_change.up = std::max(local_change.up, change.up);
            local_change.down = std::max(local_change.down, change.down);
            local_largest = std::max(local_largest, round_largest(partition, layout, store, threads));
        };
        hooks.before_finish = [&](TableInfo& finished, double empty_board_value) {
            TargetChange change = device ? device->change() : local_change;
            change.up = comm.all_reduce(change.up, Reduction::Max);
            change.down = comm.all_reduce(change.down, Reduction::Max);
            const double largest = comm.all_reduce(device ? device->largest() : local_largest, Reduction::Max);
            const Bracket bracket = sweep_bracket(rules, change, largest);
            SweepState next;
            next.sweep = sweep;
            next.change = has_last ? std::max(change.up, change.down) : 0;
            next.previous_change = sweep >= 2 ? state.change : 0;
            next.bound = has_last ? bracket.bound() : HUGE_VAL;
            next.tolerance = options.clears_tolerance;
            next.proven = has_last;
            next.largest = largest;
            // Sweep 0 is the no-clear table, below the fixed point everywhere.
            const bool empty_held = layout.residues().has(0);
            next.empty_low = !empty_held ? std::nan("") : has_last ? bracket.low(empty_board_value) : empty_board_value;
            next.empty_high = !empty_held ? std::nan("") : has_last ? bracket.high(empty_board_value) : HUGE_VAL;
            finished.sweeps = next;
            state = next;
        };
        const auto stopped_in = [&](const std::string& what) {
            return what + " in sweep " + std::to_string(sweep)
                   + (written >= 0 ? "; sweep " + std::to_string(written) + " is in " + sweep_file
                                         + ": stackgen --resume goes on from it"
                                   : "; no sweep was written");
        };
        // A GPU's sweep (`last`: the one before, which the device still
        // holds) written from the device and published as the sweep table.
        const auto write_from_device = [&](const RoundsRun& of, const SweepState& swept, bool last) {
            TableInfo written_info = table_info(geometry, layout, rules, options);
            written_info.sweeps = swept;
            checkpoint.emplace(Checkpoint::create(comm, partial, written_info, layout, rules));
            write_device_sweep(comm, partition, layout, rules, *device, of, partial, *checkpoint, written_info, threads,
                               last);
        };
        const auto publish = [&](bool answer, std::int64_t number) {
            comm.on_root([&] {
                checkpoint->publish(answer ? output : sweep_file);
                if (answer)
                    std::remove(sweep_file.c_str());
            });
            written = number;
            last_written = MPI_Wtime();
        };
        RoundsRun run;
        try {
            run = run_rounds(comm, *runner, partition, layout, rules, options, partial,
                             checkpoint ? &*checkpoint : nullptr, info, sweep_start, &hooks);
        } catch (const Interrupted&) {
            // On a GPU the sweep before this one is still on the device:
            // written now unless it is on disk already.
            runner.reset();
            if (device && device->has_last() && last_run && written < sweep - 1) {
                write_from_device(*last_run, state, true);
                publish(false, sweep - 1);
            }
            throw Interrupted(stopped_in("interrupted"));
        } catch (const CollectiveError& error) {
            throw CollectiveError(std::string(error.what()) + " (in sweep " + std::to_string(sweep) + ")");
        }
        runner.reset();
        const bool done = sweep >= 1 && state.bound <= options.clears_tolerance;
        const bool last_allowed = sweep + 1 > options.max_sweeps;
        // A signal held off while the sweep finished stops the run after it.
        const auto stop_requested = [&] { return comm.all_reduce(long(interrupted()), Reduction::Max) != 0; };
        if (device) {
            // Written when it is the answer, the run's last, due, or the
            // run stops after it.
            int due = done || last_allowed || MPI_Wtime() - last_written >= options.sweep_seconds;
            comm.broadcast(due);
            if (due != 0 || stop_requested())
                write_from_device(run, state, false);
        }
        if (checkpoint)
            publish(done, sweep);
        int published = 1;  // the others wait for rank 0's rename before they read the sweep
        comm.broadcast(published);
        SweepRecord record;
        record.sweep = sweep;
        record.change = state.change;
        record.ratio = state.previous_change > 0 ? state.change / state.previous_change : 0;
        record.bound = state.bound;
        record.jump = jump;
        record.largest = state.largest;
        record.empty_board_value = run.empty_board_value;
        record.empty_low = state.empty_low;
        record.empty_high = state.empty_high;
        record.seconds = MPI_Wtime() - sweep_start;
        records.push_back(record);
        if (progress) {
            std::string eta;
            if (!done && std::isfinite(record.bound) && record.ratio > 0 && record.ratio < 1) {
                const double more =
                    std::ceil(std::log(options.clears_tolerance / record.bound) / std::log(record.ratio));
                eta = ", about " + std::to_string(std::max(1, int(more))) + " sweeps ("
                      + fixed(std::max(1.0, more) * record.seconds, 0) + " s) to go";
            }
            const std::string jumped = jump != 0 ? ", jumped " + fixed(jump, 2) + " changes on" : "";
            std::fprintf(stderr,
                         "stackgen: sweep %lld: largest change %.3g, ratio %.3g, proven bound %.3g (tolerance %.3g), "
                         "V(empty) %.12f, %.1f s%s%s%s\n",
                         static_cast<long long>(sweep), record.change, record.ratio, record.bound,
                         options.clears_tolerance, record.empty_board_value, record.seconds, jumped.c_str(),
                         device && checkpoint ? ", written" : "", eta.c_str());
        }
        if (done) {
            run.times.total_seconds = MPI_Wtime() - start;
            if (!options.quiet || options.json)
                print_summary(comm, options, partition, layout, rules, run, output, 0, &records);
            return;
        }
        if (last_allowed)
            throw CollectiveError("the sweeps did not reach the tolerance " + short_number(options.clears_tolerance)
                                  + " in --max-sweeps " + std::to_string(options.max_sweeps) + " (bound "
                                  + short_number(state.bound) + "); the last sweep is in " + sweep_file
                                  + ": stackgen --resume with more --max-sweeps goes on");
        if (stop_requested()) {
            if (device && written < sweep) {  // the signal came while the sweep was written
                write_from_device(run, state, false);
                publish(false, sweep);
            }
            throw Interrupted("interrupted after sweep " + std::to_string(sweep) + "; it is in " + sweep_file
                              + ": stackgen --resume goes on from it");
        }
        if (device) {
            last_run = run;
            device->next_sweep();
            continue;
        }
        targets_held = true;
    }
}

}  // namespace

// The order matters: nothing is computed, and nothing large allocated,
// before the output is guarded and the sizes are known to fit.
void generate(const Communicator& comm, const GenerateOptions& options) {
    const double start = MPI_Wtime();
    const std::string output = output_path(options);
    const std::string partial = partial_name(output);
    check_options(options);
    if (options.resume_if_partial) {
        // Rank 0 looks, as guard_output does, and every rank follows it.
        GenerateOptions decided = options;
        decided.resume_if_partial = false;
        int exists = 0;
        comm.on_root([&] { exists = ::access(partial.c_str(), F_OK) == 0; });
        comm.broadcast(exists);
        decided.resume = exists != 0;
        generate(comm, decided);
        return;
    }
    const Geometry geometry(options.width, options.height);
    const Rules rules(options.pieces);
    rules.check_fits(geometry);
    const ResidueSet residues = options.residues ? *options.residues : ResidueSet::all(rules.modulus());
    if (residues.modulus() != rules.modulus())
        throw InputError("the residue classes are taken mod " + std::to_string(rules.modulus()) + " for "
                         + rules.set().name());
    std::optional<OutputLock> lock;  // rank 0, until the end
    if (!options.no_output)
        comm.on_root([&] { guard_output(options, output, lock); });
    const std::string disk_for = options.no_output ? std::string() : output;  // none: no disk needed
    const bool mirrored = mirrored_table(options, rules);
    check_capacity_up_front(comm, geometry, rules, residues, mirrored, options.precision, options.band_precision,
                            disk_for, options.resume, options.gpu, options.spill);
    const Partition partition(geometry, comm.size(), comm.rank(), run_lower_columns(geometry, comm.size(), mirrored));
    const RoundLayout layout(geometry, residues, mirrored);
    check_capacity(comm, partition, layout, rules, options.precision, options.band_precision, disk_for, options.resume,
                   options.gpu, options.clears, options.spill);
    if (lock)
        lock->say_taken_over();  // the checks passed: the run goes on under the lock it took
    if (options.clears != Clears::None) {
        if (rules.tetris_piece() < 0)
            throw InputError("--clears tetris needs the 1 x 4 I piece, which " + rules.set().name() + " does not hold");
        run_sweeps(comm, options, partition, layout, rules, output, partial, start);
        return;
    }

    // Every rank takes its GPU (or fails to) before a file is touched: a
    // rank without one, or whose GPU cannot hold the band, stops them all
    // with one line.
    const KernelKind kind = kernel_kind(options);
    const int threads = resolve_threads(options.threads);
    std::optional<RoundRunner> runner;
    comm.on_every_rank([&] {
        runner.emplace(comm, partition, layout, rules, threads, int(value_bytes(options.band_precision)), kind,
                       kind == KernelKind::Gpu ? comm.rank_on_node() : 0, options.spill);
        if (options.blocking_exchange)
            runner->block_exchange();
    });

    TableInfo info = table_info(geometry, layout, rules, options);
    std::optional<Checkpoint> checkpoint;
    if (!options.no_output)
        checkpoint.emplace(options.resume ? Checkpoint::resume(comm, partial, info, layout, rules)
                                          : Checkpoint::create(comm, partial, info, layout, rules));
    RoundsRun run;
    try {
        run = run_rounds(comm, *runner, partition, layout, rules, options, partial, checkpoint ? &*checkpoint : nullptr,
                         info, start);
        if (checkpoint)
            comm.on_root([&] { checkpoint->publish(output); });
    } catch (const CollectiveError& error) {
        if (!checkpoint)
            throw;
        throw CollectiveError(std::string(error.what()) + " (the rounds on disk are in " + partial
                              + "; stackgen --resume continues)");
    }
    run.times.total_seconds = MPI_Wtime() - start;
    // --quiet means what it means in stackplay: no progress, and the results
    // still print. stackgen's result is its table; with --no-output it is
    // the summary (V and the digest), which then prints, as --json does.
    if (!options.quiet || options.json || options.no_output)
        print_summary(comm, options, partition, layout, rules, run, output, checkpoint ? checkpoint->first_round() : 0);
}

}  // namespace stack
