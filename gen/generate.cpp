#include "generate.h"

#include "band.h"
#include "fault.h"
#include "support/cli.h"
#include "support/errors.h"
#include "report.h"
#include "round_writer.h"
#include "solver.h"
#include "table/table_writer.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace stack {

std::string default_output_name(int width, int height) {
    return "stack_" + std::to_string(width) + "x" + std::to_string(height) + ".h5";
}

namespace {

// Ghost rows held, as a share of the band, allowed for in the memory check
// when there are several ranks (measured: results/scale.md).
constexpr double GhostShare = 0.5;

// The most memory one rank needs: the largest band of five consecutive
// rounds of its own rows, their slice tables, the ghosts, the writer's
// buffers and the process itself.
double estimated_bytes_per_rank(const Partition& partition, const RoundLayout& layout) {
    // Band arrays are each sized for the largest round (band.h).
    const Band band_plan(partition, layout);
    const double band = double(Band::MostRounds)
                        * (double(band_plan.largest_round_values()) * sizeof(double)
                           + double(partition.owned_chunks() + 1) * sizeof(std::uint64_t));
    const double ghosts = partition.ranks() > 1 ? band * GhostShare : 0.0;
    return band + ghosts + 6.0 * RoundWriter::SegmentBytes + (64 << 20);
}

// Every rank decides from the same reduced numbers, so all agree.
void check_memory(const Communicator& comm, const Partition& partition, const RoundLayout& layout) {
    const double need = estimated_bytes_per_rank(partition, layout) * comm.ranks_on_node();
    const double available = double(available_memory_bytes());
    double worst_need = 0, least_available = 0;
    check_mpi(MPI_Allreduce(&need, &worst_need, 1, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
    check_mpi(MPI_Allreduce(&available, &least_available, 1, MPI_DOUBLE, MPI_MIN, comm.get()), "MPI_Allreduce");
    if (least_available > 0 && worst_need > least_available) {
        const Geometry& geometry = partition.geometry();
        throw InputError("the " + std::to_string(geometry.width()) + "x" + std::to_string(geometry.height())
                         + " band (" + with_commas(layout.stored_states()) + " stored states) needs about "
                         + human_bytes(worst_need) + " on one node with " + std::to_string(comm.size())
                         + " rank(s), but only " + human_bytes(least_available)
                         + " is available: use more nodes, or fewer residue classes");
    }
}

void check_disk(const Communicator& comm, const std::string& output, std::uint64_t file_bytes) {
    double free_bytes = -1;
    if (comm.is_root()) {
        const std::filesystem::path directory = std::filesystem::absolute(output).parent_path();
        struct statvfs status {};
        if (::statvfs(directory.c_str(), &status) == 0)
            free_bytes = double(status.f_bavail) * double(status.f_frsize);
    }
    check_mpi(MPI_Bcast(&free_bytes, 1, MPI_DOUBLE, 0, comm.get()), "MPI_Bcast");
    if (free_bytes >= 0 && double(file_bytes) > free_bytes)
        throw InputError("the table needs " + human_bytes(double(file_bytes)) + " of disk but "
                         + std::filesystem::absolute(output).parent_path().string() + " has only "
                         + human_bytes(free_bytes) + " free");
}

// Rank 0 does `step`; every rank learns whether it failed, and all throw
// the same CollectiveError if it did.
template <class Step>
void on_root(const Communicator& comm, Step&& step) {
    std::string error;
    if (comm.is_root()) {
        try {
            step();
        } catch (const std::exception& failure) {
            error = failure.what();
            if (error.empty())
                error = "unknown failure";
        }
    }
    comm.broadcast(error);
    if (!error.empty())
        throw CollectiveError(error);
}

}  // namespace

namespace {

// Where a run stands when it resumes: the rounds on disk and what they
// counted, read by rank 0 and shared.
struct Resumed {
    std::int64_t rounds_done = 0;
    std::uint64_t data_offset = 0;
    PieceCounts connections{};
    std::vector<std::uint32_t> checksums;  // rank 0
};

// Rank 0 checks that the partial table is the one asked for.
Resumed resume_point(const Communicator& comm, const std::string& partial, const TableInfo& asked) {
    Resumed resumed;
    on_root(comm, [&] {
        if (!std::filesystem::exists(partial))
            throw InputError("nothing to resume: " + partial + " does not exist");
        PartialTable table = open_partial_table(partial);
        const TableInfo& found = table.info;
        if (found.width != asked.width || found.height != asked.height || !(found.residues == asked.residues)
            || found.precision != asked.precision || found.stored_states != asked.stored_states)
            throw InputError(partial + " holds a " + std::to_string(found.width) + "x" + std::to_string(found.height)
                             + " table of classes {" + found.residues.text() + "} in " + precision_name(found.precision)
                             + ", not the one asked for");
        resumed.rounds_done = found.rounds_done;
        resumed.data_offset = table.data_offset;
        std::copy(found.connections_done.begin(), found.connections_done.end(), resumed.connections.begin());
        resumed.checksums = std::move(table.checksums);
    });
    check_mpi(MPI_Bcast(&resumed.rounds_done, 1, MPI_INT64_T, 0, comm.get()), "MPI_Bcast");
    check_mpi(MPI_Bcast(&resumed.data_offset, 1, MPI_UINT64_T, 0, comm.get()), "MPI_Bcast");
    check_mpi(MPI_Bcast(resumed.connections.data(), PieceCount, MPI_UINT64_T, 0, comm.get()), "MPI_Bcast");
    return resumed;
}

PieceCounts total(const Communicator& comm, const PieceCounts& local, const PieceCounts& before) {
    PieceCounts sum{};
    check_mpi(MPI_Allreduce(local.data(), sum.data(), PieceCount, MPI_UINT64_T, MPI_SUM, comm.get()), "MPI_Allreduce");
    for (int piece = 0; piece < PieceCount; ++piece)
        sum[piece] += before[piece];
    return sum;
}

}  // namespace

// The table is written as <output>.partial and renamed when finished. As
// rounds reach the disk on every rank, rank 0 records how many (with their
// checksums and connections) and flushes the file: the partial table is the
// checkpoint, and --resume continues from its last recorded round, reading
// back the rounds the next one needs.
void generate(const Communicator& comm, const GenerateOptions& options) {
    const double start = MPI_Wtime();
    const Geometry geometry(options.width, options.height);
    const Partition partition(geometry, comm.size(), comm.rank());
    const RoundLayout layout(geometry, options.residues);
    const std::string output = options.output.empty() ? default_output_name(geometry.width(), geometry.height())
                                                      : options.output;
    const std::string partial = output + PartialSuffix;
    if (options.resume && options.precision != Precision::Float64)
        throw InputError("--resume needs a float64 table: a float32 one keeps only rounded values, from which the "
                         "rounds still needed cannot be rebuilt bit for bit");
    const std::uint64_t file_bytes = layout.stored_states() * value_bytes(options.precision)
                                     + layout.offsets().size() * sizeof(std::uint64_t)
                                     + layout.checksum_blocks() * sizeof(std::uint32_t) + (1 << 16);
    check_memory(comm, partition, layout);
    if (!options.resume)
        check_disk(comm, output, file_bytes);

    TableInfo info;
    info.width = geometry.width();
    info.height = geometry.height();
    info.schedule = "rounds";
    info.states = geometry.states();
    info.stored_states = layout.stored_states();
    info.pieces = orientation_table_text();
    info.generator = std::string("stackgen ") + project_version();
    info.residues = options.residues;
    info.precision = options.precision;

    Resumed resumed;
    if (options.resume) {
        resumed = resume_point(comm, partial, info);
    } else {
        on_root(comm, [&] { resumed.data_offset = create_round_table(partial, info, layout); });
        check_mpi(MPI_Bcast(&resumed.data_offset, 1, MPI_UINT64_T, 0, comm.get()), "MPI_Bcast");
    }

    PhaseTimes times;
    std::vector<RoundReport> reports;
    PieceCounts connections{};
    bool empty_board_computed = false;
    double empty_board_value = 0, writer_busy = 0;
    try {
        RoundRunner runner(comm, partition, layout);
        RoundWriter writer(comm, partition, layout, options.precision, partial, resumed.data_offset);
        const std::size_t first_round = std::size_t(resumed.rounds_done);
        if (comm.is_root())
            for (int sum = layout.rounds() - int(first_round); sum < layout.rounds(); ++sum)
                for (std::uint64_t block = layout.first_block(sum); block < layout.first_block(sum + 1); ++block)
                    writer.checksums().set(block, resumed.checksums[block]);
        // The rounds the next one reads, back from the file.
        if (first_round > 0 && first_round < runner.round_count()) {
            const int descriptor = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
            if (!comm.all_agree(descriptor >= 0))
                throw CollectiveError("cannot open " + partial + " to resume");
            for (std::size_t round = first_round > std::size_t(CellsPerPiece) ? first_round - CellsPerPiece : 0;
                 round < first_round; ++round) {
                runner.reload(round, descriptor, resumed.data_offset);
                runner.exchange(round);
            }
            ::close(descriptor);
        }
        ProgressPrinter progress(options.progress && comm.is_root(), states_per_round(layout));
        times.setup_seconds = MPI_Wtime() - start;
        const double rounds_start = MPI_Wtime();
        std::vector<PieceCounts> counted(runner.round_count());  // [round] -> this rank's connections through it
        long recorded = long(first_round) - 1;                   // the last round recorded in the file
        double last_record = MPI_Wtime();
        for (std::size_t round = first_round; round < runner.round_count(); ++round) {
            RoundReport report;
            inject_fault(comm.rank(), round, Phase::Compute);
            report.compute = runner.compute(round);
            inject_fault(comm.rank(), round, Phase::Exchange);
            report.compute.exchange = runner.exchange(round);
            report.write = writer.write(runner.store(runner.round_sum(round)), round);
            report.compute.rounds_bytes = runner.rounds_bytes();
            report.compute.ghost_bytes = runner.ghost_bytes();
            report.compute.writer_bytes = writer.buffer_bytes();
            counted[round] = runner.connections();
            runner.release(round);
            progress(round, runner.round_count(), report);
            reports.push_back(report);
            // Record progress every checkpoint_seconds, when every rank's
            // writes have reached further. Rank 0's clock alone says when:
            // ranks that each asked their own clock would disagree and part
            // of them would wait forever in the collectives below. One
            // reduction carries both facts, [0] the rounds written
            // everywhere and [1] zero when rank 0 says a record is due.
            long state[2] = {writer.written_through(),
                             comm.is_root() && MPI_Wtime() - last_record >= options.checkpoint_seconds ? 0 : 1};
            check_mpi(MPI_Allreduce(MPI_IN_PLACE, state, 2, MPI_LONG, MPI_MIN, comm.get()), "MPI_Allreduce");
            const long everywhere = state[0];
            if (everywhere > recorded && state[1] == 0) {
                writer.sync();
                const PieceCounts done = total(comm, counted[everywhere], resumed.connections);
                on_root(comm, [&] {
                    TableInfo progress_info = info;
                    progress_info.rounds_done = everywhere + 1;
                    std::copy(done.begin(), done.end(), progress_info.connections_done.begin());
                    const int lowest = runner.round_sum(std::size_t(everywhere));
                    record_round_table(partial, progress_info, writer.checksums().checksums(), layout.first_block(lowest),
                                       layout.checksum_blocks());
                });
                recorded = everywhere;
                last_record = MPI_Wtime();
            }
        }
        times.rounds_seconds = MPI_Wtime() - rounds_start;
        const double wait_start = MPI_Wtime();
        writer.finish();
        writer.sync();
        times.write_wait_seconds = MPI_Wtime() - wait_start;
        writer_busy = writer.writer_busy_seconds();
        connections = total(comm, runner.connections(), resumed.connections);
        for (std::uint64_t count : connections)
            info.connections += count;
        info.rounds_done = layout.rounds();
        std::copy(connections.begin(), connections.end(), info.connections_done.begin());
        // The empty board: row sum 0, chunk 0 (rank 0's first), h0 = 0.
        empty_board_computed = options.residues.has(0);
        if (comm.is_root() && empty_board_computed)
            empty_board_value = runner.store(0).row(0)[layout.index_in_row(0, 0)];
        check_mpi(MPI_Bcast(&empty_board_value, 1, MPI_DOUBLE, 0, comm.get()), "MPI_Bcast");
        on_root(comm, [&] {
            record_round_table(partial, info, writer.checksums().checksums(), 0, layout.checksum_blocks());
            if (std::rename(partial.c_str(), output.c_str()) != 0)
                throw std::runtime_error("cannot rename " + partial + " to " + output);
        });
    } catch (const CollectiveError& error) {
        throw CollectiveError(std::string(error.what()) + " (the rounds on disk are in " + partial
                              + "; stackgen --resume continues)");
    }
    times.total_seconds = MPI_Wtime() - start;

    if (!options.quiet) {
        SummaryInputs summary;
        summary.partition = &partition;
        summary.layout = &layout;
        summary.rounds = &reports;
        summary.connections = connections;
        summary.empty_board_computed = empty_board_computed;
        summary.empty_board_value = empty_board_value;
        summary.writer_busy_seconds = writer_busy;
        summary.precision = options.precision;
        summary.file_bytes = file_bytes;
        summary.times = times;
        summary.output = output;
        summary.round_table = options.round_table;
        summary.resumed_from = std::size_t(resumed.rounds_done);
        const Json document = summary_json(comm, summary);
        if (comm.is_root()) {
            std::fputs(options.json ? json_text(document).c_str() : summary_text(document).c_str(), stdout);
            std::fflush(stdout);
        }
    }
}

}  // namespace stack
