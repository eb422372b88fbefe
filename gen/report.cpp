#include "report.h"

#include "cli.h"

#include <algorithm>
#include <cmath>
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

Json summary_json(const Communicator& comm, const SummaryInputs& in) {
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
        return nullptr;

    const Geometry& geometry = in.partition->geometry();
    const double states = double(geometry.states());
    const auto most = [](const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); };
    const auto total = [](const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); };
    const double values_received = total(received_all) * double(geometry.base());

    Json per_piece = Json::object();
    for (int piece = 0; piece < PieceCount; ++piece)
        per_piece[std::string(piece_name(Piece(piece)))] = in.connections[piece];
    // Work-weighted balance: all states over (ranks x the largest share of
    // each round), i.e. the efficiency of the rounds taken together; and the
    // worst round among those holding at least 1% of the states.
    double all_states = 0, largest_shares = 0, worst_states = 1, worst_time = 1;
    for (const std::vector<double>& shares : round_states) {
        all_states += total(shares);
        largest_shares += most(shares) * comm.size();
    }
    Json rounds = Json::array();
    for (std::size_t round = 0; round < round_states.size(); ++round) {
        if (total(round_states[round]) * 100 >= all_states) {
            worst_states = std::min(worst_states, balance(round_states[round]));
            worst_time = std::min(worst_time, balance(round_seconds[round]));
        }
        if (in.round_table)
            rounds.push_back({{"round", round + 1},
                              {"sum", solution.rounds[round].sum},
                              {"states", std::uint64_t(total(round_states[round]))},
                              {"state_balance", balance(round_states[round])},
                              {"time_balance", balance(round_seconds[round])},
                              {"compute_seconds_max", most(round_seconds[round])}});
    }
    Json summary = {
        {"generator", std::string("stackgen ") + project_version()},
        {"width", geometry.width()},
        {"height", geometry.height()},
        {"ranks", comm.size()},
        {"states", geometry.states()},
        {"connections", std::accumulate(in.connections.begin(), in.connections.end(), std::uint64_t(0))},
        {"connections_per_piece", per_piece},
        {"rounds", solution.rounds.size()},
        {"empty_board_value", in.empty_board_value},
        {"seconds",
         {{"setup", in.times.setup_seconds},
          {"plan", most(plan_all)},
          {"compute", most(compute_all)},
          {"exchange", most(exchange_all)},
          {"rounds", in.times.rounds_seconds},
          {"write", in.times.write_seconds},
          {"total", in.times.total_seconds}}},
        {"compute_ns_per_state_per_rank", most(compute_all) * 1e9 * comm.size() / states},
        {"write_bytes_per_second", states * sizeof(double) / std::max(in.times.write_seconds, 1e-9)},
        {"values_exchanged", std::uint64_t(values_received)},
        {"values_exchanged_per_state", values_received / states},
        {"bytes_exchanged_per_state", values_received * sizeof(double) / states},
        {"exchange_memory_bytes_max", most(buffer_all)},
        {"peak_rss_bytes", {{"max", most(rss_all)}, {"mean", total(rss_all) / comm.size()}, {"total", total(rss_all)}}},
        {"state_balance", all_states / largest_shares},
        {"worst_round", {{"state_balance", worst_states}, {"time_balance", worst_time}}},
        {"output", in.output}};
    if (in.round_table)
        summary["round_table"] = std::move(rounds);
    return summary;
}

std::string summary_text(const Json& s) {
    std::string text;
    char line[512];
    auto add = [&](const char* format, auto... values) {
        std::snprintf(line, sizeof line, format, values...);
        text += line;
    };
    const auto number = [&](const char* key) { return s[key].get<double>(); };
    const auto seconds = [&](const char* phase) { return s["seconds"][phase].get<double>(); };
    const int ranks = s["ranks"].get<int>();
    add("%s: %dx%d well, %d rank%s\n", s["generator"].get<std::string>().c_str(), s["width"].get<int>(),
        s["height"].get<int>(), ranks, ranks == 1 ? "" : "s");
    add("  states              %s\n", with_commas(s["states"].get<std::uint64_t>()).c_str());
    std::string pieces;
    for (const auto& [name, count] : s["connections_per_piece"].items())
        pieces += (pieces.empty() ? "" : ", ") + name + " " + with_commas(count.get<std::uint64_t>());
    add("  connections         %s  (%s)\n", with_commas(s["connections"].get<std::uint64_t>()).c_str(), pieces.c_str());
    add("  rounds              %zu  (one per row sum, the height sum of columns 1..W-1)\n",
        s["rounds"].get<std::size_t>());
    add("  V(empty board)      %.15f\n", number("empty_board_value"));
    add("  time setup          %8.3f s\n", seconds("setup"));
    add("  time plan           %8.3f s  (max over ranks; listing the rows to exchange)\n", seconds("plan"));
    add("  time compute        %8.3f s  (max over ranks; %.1f ns per state per rank)\n", seconds("compute"),
        number("compute_ns_per_state_per_rank"));
    add("  time exchange       %8.3f s  (max over ranks; pack + MPI_Alltoallv)\n", seconds("exchange"));
    add("  time rounds         %8.3f s  (wall, plan + compute + exchange)\n", seconds("rounds"));
    add("  time write          %8.3f s  (%s/s)\n", seconds("write"), human_bytes(number("write_bytes_per_second")).c_str());
    add("  time total          %8.3f s\n", seconds("total"));
    add("  values exchanged    %s  (%.3f per state, %.2f bytes per state, %s)\n",
        with_commas(s["values_exchanged"].get<std::uint64_t>()).c_str(), number("values_exchanged_per_state"),
        number("bytes_exchanged_per_state"),
        human_bytes(number("bytes_exchanged_per_state") * s["states"].get<double>()).c_str());
    add("  exchange memory     max %s per rank (plan and buffers)\n", human_bytes(number("exchange_memory_bytes_max")).c_str());
    const Json& rss = s["peak_rss_bytes"];
    add("  peak RSS per rank   max %s, mean %s, total %s\n", human_bytes(rss["max"].get<double>()).c_str(),
        human_bytes(rss["mean"].get<double>()).c_str(), human_bytes(rss["total"].get<double>()).c_str());
    add("  state balance       %.1f%% over all rounds (states / (ranks x largest share per round))\n",
        100 * number("state_balance"));
    add("  worst round         %.1f%% states, %.1f%% compute time (rounds with >= 1%% of the states)\n",
        100 * s["worst_round"]["state_balance"].get<double>(), 100 * s["worst_round"]["time_balance"].get<double>());
    add("  output              %s\n", s["output"].get<std::string>().c_str());
    if (s.contains("round_table")) {
        text += "\n  round  sum      states (all ranks)  state balance  time balance  compute max\n";
        for (const Json& round : s["round_table"])
            add("  %5zu  %3d  %18s  %12.1f%%  %11.1f%%  %9.4f s\n", round["round"].get<std::size_t>(),
                round["sum"].get<int>(), with_commas(round["states"].get<std::uint64_t>()).c_str(),
                100 * round["state_balance"].get<double>(), 100 * round["time_balance"].get<double>(),
                round["compute_seconds_max"].get<double>());
    }
    return text;
}

}  // namespace stack
