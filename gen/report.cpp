#include "report.h"

#include "cli.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace stack {

ProgressPrinter::ProgressPrinter(bool enabled, std::vector<std::uint64_t> states_per_round)
    : enabled_(enabled), states_per_round_(std::move(states_per_round)) {
    total_states_ = std::accumulate(states_per_round_.begin(), states_per_round_.end(), std::uint64_t(0));
    start_ = MPI_Wtime();
}

void ProgressPrinter::operator()(std::size_t round, std::size_t rounds, const RoundRecord& record) {
    if (!enabled_)
        return;
    done_states_ += states_per_round_[round];
    if (states_per_round_[round] * 100 < total_states_ && round + 1 < rounds)
        return;
    const double elapsed = MPI_Wtime() - start_;
    const double rate = elapsed > 0 ? done_states_ / elapsed : 0;
    const double eta = rate > 0 ? (total_states_ - done_states_) / rate : 0;
    std::fprintf(stderr, "round %3zu/%zu  row sum %3d  %14s states  %5.1f%% done  %8.2f M states/s  ETA %6.1f s\n",
                 round + 1, rounds, record.sum, with_commas(states_per_round_[round]).c_str(),
                 100.0 * done_states_ / total_states_, rate / 1e6, eta);
    std::fflush(stderr);
}

std::vector<std::uint64_t> global_states_per_round(const Communicator& comm, const Partition& partition) {
    const std::size_t rounds = std::size_t(partition.max_row_sum()) + 1;
    std::vector<std::uint64_t> local(rounds), global(rounds);
    for (std::size_t round = 0; round < rounds; ++round)
        local[round] = partition.count_rows(partition.max_row_sum() - int(round)) * partition.geometry().base();
    check_mpi(MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), MPI_UINT64_T, MPI_SUM,
                            comm.get()),
              "MPI_Allreduce");
    return global;
}

namespace {

// Gathers one double per rank to rank 0.
std::vector<double> gather(const Communicator& comm, double value) {
    std::vector<double> all(comm.is_root() ? comm.size() : 0);
    check_mpi(MPI_Gather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm.get()), "MPI_Gather");
    return all;
}

double mean(const std::vector<double>& values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

double balance(const std::vector<double>& values) {
    const double most = *std::max_element(values.begin(), values.end());
    return most > 0 ? mean(values) / most : 1.0;
}

}  // namespace

void print_summary(const Communicator& comm, const SummaryInputs& in) {
    const Solution& solution = *in.solution;
    // Per-round numbers gathered over ranks: states (the partition's balance)
    // and compute seconds (the balance actually achieved).
    std::vector<std::vector<double>> round_states, round_seconds;
    double received = 0, exchange = 0, compute = 0;
    for (const RoundRecord& record : solution.rounds) {
        round_states.push_back(gather(comm, double(record.states)));
        round_seconds.push_back(gather(comm, record.compute_seconds));
        received += record.rows_received;
        exchange += record.exchange_seconds;
        compute += record.compute_seconds;
    }
    const std::vector<double> plan_all = gather(comm, solution.plan_seconds), exchange_all = gather(comm, exchange),
                              compute_all = gather(comm, compute), received_all = gather(comm, received),
                              rss_all = gather(comm, double(peak_rss_bytes())),
                              buffer_all = gather(comm, double(solution.exchange_bytes));
    if (!comm.is_root())
        return;

    const Geometry& geometry = in.partition->geometry();
    const std::uint64_t connections = std::accumulate(in.connections.begin(), in.connections.end(), std::uint64_t(0));
    const double values_received =
        std::accumulate(received_all.begin(), received_all.end(), 0.0) * double(geometry.base());
    const auto most = [](const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); };
    std::printf("stackgen %s: %dx%d well, %d rank%s\n", project_version(), geometry.width(), geometry.height(),
                comm.size(), comm.size() == 1 ? "" : "s");
    std::printf("  states              %s\n", with_commas(geometry.states()).c_str());
    std::printf("  connections         %s  (", with_commas(connections).c_str());
    for (int piece = 0; piece < PieceCount; ++piece)
        std::printf("%s%s %s", piece ? ", " : "", std::string(piece_name(Piece(piece))).c_str(),
                    with_commas(in.connections[piece]).c_str());
    std::printf(")\n");
    std::printf("  rounds              %zu  (one per row sum, the height sum of columns 1..W-1)\n",
                solution.rounds.size());
    std::printf("  V(empty board)      %.15f\n", in.empty_board_value);
    std::printf("  time setup          %8.3f s\n", in.times.setup_seconds);
    std::printf("  time plan           %8.3f s  (max over ranks; listing the rows to exchange)\n", most(plan_all));
    std::printf("  time compute        %8.3f s  (max over ranks; %.1f ns per state per rank)\n", most(compute_all),
                most(compute_all) * 1e9 * comm.size() / double(geometry.states()));
    std::printf("  time exchange       %8.3f s  (max over ranks; pack + MPI_Alltoallv)\n", most(exchange_all));
    std::printf("  time rounds         %8.3f s  (wall, plan + compute + exchange)\n", in.times.rounds_seconds);
    std::printf("  time write          %8.3f s  (%s/s)\n", in.times.write_seconds,
                human_bytes(geometry.states() * sizeof(double) / std::max(in.times.write_seconds, 1e-9)).c_str());
    std::printf("  time total          %8.3f s\n", in.times.total_seconds);
    std::printf("  values exchanged    %s  (%.3f per state, %.2f bytes per state, %s)\n",
                with_commas(std::uint64_t(values_received)).c_str(), values_received / geometry.states(),
                values_received * sizeof(double) / geometry.states(),
                human_bytes(values_received * sizeof(double)).c_str());
    std::printf("  exchange memory     max %s per rank (plan and buffers)\n", human_bytes(most(buffer_all)).c_str());
    std::printf("  peak RSS per rank   max %s, mean %s, total %s\n", human_bytes(most(rss_all)).c_str(),
                human_bytes(mean(rss_all)).c_str(),
                human_bytes(std::accumulate(rss_all.begin(), rss_all.end(), 0.0)).c_str());
    // Work-weighted balance: all states over (ranks x the largest share of
    // each round), i.e. the efficiency of the rounds taken together; and the
    // worst round among those holding at least 1% of the states.
    double all_states = 0, largest_shares = 0, worst_states = 1, worst_time = 1;
    for (const std::vector<double>& states : round_states) {
        all_states += std::accumulate(states.begin(), states.end(), 0.0);
        largest_shares += most(states) * comm.size();
    }
    for (std::size_t round = 0; round < round_states.size(); ++round)
        if (std::accumulate(round_states[round].begin(), round_states[round].end(), 0.0) * 100 >= all_states) {
            worst_states = std::min(worst_states, balance(round_states[round]));
            worst_time = std::min(worst_time, balance(round_seconds[round]));
        }
    std::printf("  state balance       %.1f%% over all rounds (states / (ranks x largest share per round))\n",
                100 * all_states / largest_shares);
    std::printf("  worst round         %.1f%% states, %.1f%% compute time (rounds with >= 1%% of the states)\n",
                100 * worst_states, 100 * worst_time);
    std::printf("  output              %s\n", in.output.c_str());
    if (in.round_table) {
        std::printf("\n  round  sum      states (all ranks)  state balance  time balance  compute max\n");
        for (std::size_t round = 0; round < solution.rounds.size(); ++round) {
            const double states = std::accumulate(round_states[round].begin(), round_states[round].end(), 0.0);
            std::printf("  %5zu  %3d  %18s  %12.1f%%  %11.1f%%  %9.4f s\n", round + 1, solution.rounds[round].sum,
                        with_commas(std::uint64_t(states)).c_str(), 100 * balance(round_states[round]),
                        100 * balance(round_seconds[round]), most(round_seconds[round]));
        }
    }
    std::fflush(stdout);
}

}  // namespace stack
