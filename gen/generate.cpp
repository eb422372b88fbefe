#include "generate.h"

#include "cli.h"
#include "errors.h"
#include "report.h"
#include "table_writer.h"

#include <algorithm>
#include <cstdio>

namespace stack {

std::string default_output_name(int width, int height) {
    return "stack_" + std::to_string(width) + "x" + std::to_string(height) + ".h5";
}

namespace {

// The values, plus room for the exchange (at most the values of four row
// sums, received, and one sent, in practice far less) and the process.
std::uint64_t estimated_bytes_per_rank(const Partition& partition) {
    const std::uint64_t values = partition.max_owned_states() * sizeof(double);
    return values + values / 2 + (64ull << 20);
}

// Every rank decides from the same reduced numbers, so all agree.
void check_memory(const Communicator& comm, const Partition& partition) {
    const double need = double(estimated_bytes_per_rank(partition)) * comm.ranks_on_node();
    const double available = double(available_memory_bytes());
    double worst_need = 0, least_available = 0;
    check_mpi(MPI_Allreduce(&need, &worst_need, 1, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
    check_mpi(MPI_Allreduce(&available, &least_available, 1, MPI_DOUBLE, MPI_MIN, comm.get()), "MPI_Allreduce");
    if (least_available > 0 && worst_need > least_available) {
        const Geometry& geometry = partition.geometry();
        throw InputError("the " + std::to_string(geometry.width()) + "x" + std::to_string(geometry.height())
                         + " table (" + with_commas(geometry.states()) + " states) needs about "
                         + human_bytes(worst_need) + " on one node with " + std::to_string(comm.size())
                         + " rank(s), but only " + human_bytes(least_available)
                         + " is available: use more nodes");
    }
}

// Rank 0 owns id 0 (chunk 0, local index 0).
double empty_board_value(const Communicator& comm, const Solution& solution) {
    double value = comm.is_root() && !solution.values.empty() ? solution.values[0] : 0.0;
    check_mpi(MPI_Bcast(&value, 1, MPI_DOUBLE, 0, comm.get()), "MPI_Bcast");
    return value;
}

}  // namespace

void generate(const Communicator& comm, const GenerateOptions& options) {
    const double start = MPI_Wtime();
    const Geometry geometry(options.width, options.height);
    const Partition partition(geometry, comm.size(), comm.rank());
    check_memory(comm, partition);
    const std::string output = options.output.empty() ? default_output_name(geometry.width(), geometry.height())
                                                      : options.output;

    ProgressPrinter progress(options.progress && comm.is_root(), global_states_per_round(comm, partition));
    PhaseTimes times;
    times.setup_seconds = MPI_Wtime() - start;

    const double rounds_start = MPI_Wtime();
    const Solution solution = solve(comm, partition, std::ref(progress));
    times.rounds_seconds = MPI_Wtime() - rounds_start;

    TableInfo info;
    info.width = geometry.width();
    info.height = geometry.height();
    info.schedule = "rows";
    info.states = geometry.states();
    PieceCounts connections{};
    check_mpi(MPI_Allreduce(solution.connections.data(), connections.data(), PieceCount, MPI_UINT64_T, MPI_SUM,
                            comm.get()),
              "MPI_Allreduce");
    for (std::uint64_t count : connections)
        info.connections += count;
    info.pieces = orientation_table_text();
    info.generator = std::string("stackgen ") + project_version();

    const double write_start = MPI_Wtime();
    try {
        write_table(comm, output, info, solution.values, partition.slice());
    } catch (const std::exception& error) {
        throw CollectiveError(error.what());
    }
    times.write_seconds = MPI_Wtime() - write_start;
    times.total_seconds = MPI_Wtime() - start;

    if (!options.quiet) {
        SummaryInputs summary;
        summary.partition = &partition;
        summary.solution = &solution;
        summary.connections = connections;
        summary.empty_board_value = empty_board_value(comm, solution);
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
