#include "generate.h"

#include "band.h"
#include "cli.h"
#include "errors.h"
#include "report.h"
#include "round_writer.h"
#include "solver.h"
#include "table_writer.h"

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

void generate(const Communicator& comm, const GenerateOptions& options) {
    const double start = MPI_Wtime();
    const Geometry geometry(options.width, options.height);
    const Partition partition(geometry, comm.size(), comm.rank());
    const RoundLayout layout(geometry, options.residues);
    const std::string output = options.output.empty() ? default_output_name(geometry.width(), geometry.height())
                                                      : options.output;
    const std::uint64_t file_bytes = layout.stored_states() * value_bytes(options.precision)
                                     + layout.offsets().size() * sizeof(std::uint64_t) + (1 << 16);
    check_memory(comm, partition, layout);
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

    // Rank 0 names the temporary file and makes it; every rank writes into it.
    std::string temporary = comm.is_root() ? temporary_name_for(output, getpid()) : std::string();
    comm.broadcast(temporary);
    std::uint64_t data_offset = 0;
    on_root(comm, [&] { data_offset = create_round_table(temporary, info, layout); });
    check_mpi(MPI_Bcast(&data_offset, 1, MPI_UINT64_T, 0, comm.get()), "MPI_Bcast");
    const auto remove_temporary = [&] {
        if (comm.is_root())
            std::remove(temporary.c_str());
    };

    PhaseTimes times;
    std::vector<RoundReport> reports;
    PieceCounts connections{};
    bool empty_board_computed = false;
    double empty_board_value = 0, writer_busy = 0;
    try {
        RoundRunner runner(comm, partition, layout);
        RoundWriter writer(comm, partition, layout, options.precision, temporary, data_offset);
        ProgressPrinter progress(options.progress && comm.is_root(), states_per_round(layout));
        times.setup_seconds = MPI_Wtime() - start;
        const double rounds_start = MPI_Wtime();
        for (std::size_t round = 0; round < runner.round_count(); ++round) {
            RoundReport report;
            report.compute = runner.compute(round);
            report.compute.exchange = runner.exchange(round);
            report.write = writer.write(runner.store(runner.round_sum(round)));
            report.compute.rounds_bytes = runner.rounds_bytes();
            report.compute.ghost_bytes = runner.ghost_bytes();
            report.compute.writer_bytes = writer.buffer_bytes();
            runner.release(round);
            progress(round, runner.round_count(), report);
            reports.push_back(report);
        }
        times.rounds_seconds = MPI_Wtime() - rounds_start;
        const double wait_start = MPI_Wtime();
        writer.finish();
        times.write_wait_seconds = MPI_Wtime() - wait_start;
        writer_busy = writer.writer_busy_seconds();
        check_mpi(MPI_Allreduce(runner.connections().data(), connections.data(), PieceCount, MPI_UINT64_T, MPI_SUM,
                                comm.get()),
                  "MPI_Allreduce");
        // The empty board: row sum 0, chunk 0 (rank 0's first), h0 = 0.
        empty_board_computed = options.residues.has(0);
        if (comm.is_root() && empty_board_computed)
            empty_board_value = runner.store(0).row(0)[layout.index_in_row(0, 0)];
        check_mpi(MPI_Bcast(&empty_board_value, 1, MPI_DOUBLE, 0, comm.get()), "MPI_Bcast");
    } catch (const CollectiveError&) {
        remove_temporary();
        throw;
    } catch (const std::runtime_error& error) {  // a failed write, raised on every rank alike
        remove_temporary();
        throw CollectiveError(error.what());
    }
    for (std::uint64_t count : connections)
        info.connections += count;
    try {
        on_root(comm, [&] {
            finish_round_table(temporary, info);
            if (std::rename(temporary.c_str(), output.c_str()) != 0)
                throw std::runtime_error("cannot rename " + temporary + " to " + output);
        });
    } catch (const CollectiveError&) {
        remove_temporary();
        throw;
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
        const Json document = summary_json(comm, summary);
        if (comm.is_root()) {
            std::fputs(options.json ? json_text(document).c_str() : summary_text(document).c_str(), stdout);
            std::fflush(stdout);
        }
    }
}

}  // namespace stack
