#include "report.h"

#include "support/cli.h"
#include "table/digest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace stack {

ProgressPrinter::ProgressPrinter(bool enabled, double interval, std::vector<std::uint64_t> states_per_round,
                                 std::size_t first_round)
    : enabled_(enabled), interval_(interval), states_per_round_(std::move(states_per_round)) {
    total_states_ = std::accumulate(states_per_round_.begin(), states_per_round_.end(), std::uint64_t(0));
    done_states_ = std::accumulate(states_per_round_.begin(), states_per_round_.begin() + std::ptrdiff_t(first_round),
                                   std::uint64_t(0));
    start_ = MPI_Wtime();
}

void ProgressPrinter::operator()(std::size_t round, std::size_t rounds, const RoundReport& report) {
    if (!enabled_)
        return;
    done_states_ += states_per_round_[round];
    done_now_ += states_per_round_[round];
    const bool last = round + 1 == rounds;
    if (!last && (states_per_round_[round] * 100 < total_states_ || MPI_Wtime() - last_line_ < interval_))
        return;
    last_line_ = MPI_Wtime();
    const double elapsed = last_line_ - start_;
    const double rate = elapsed > 0 ? done_now_ / elapsed : 0;
    const double eta = rate > 0 ? (total_states_ - done_states_) / rate : 0;
    std::fprintf(stderr,
                 "round %3zu/%zu  row sum %3d  %14s states  %5.1f%% done  %8.2f M states/s  band %s  ETA %6.1f s\n",
                 round + 1, rounds, report.compute.sum, with_commas(states_per_round_[round]).c_str(),
                 total_states_ ? 100.0 * done_states_ / total_states_ : 100.0, rate / 1e6,
                 human_bytes(double(report.compute.band_bytes())).c_str(), eta);
    std::fflush(stderr);
}

std::vector<std::uint64_t> states_per_round(const RoundLayout& layout) {
    std::vector<std::uint64_t> states(layout.rounds());
    for (std::size_t round = 0; round < states.size(); ++round)
        states[round] = layout.round_values(layout.rounds() - 1 - int(round));
    return states;
}

namespace {

// A value as a table of `precision` stores it.
double stored_value(double value, Precision precision) {
    return precision == Precision::Float32 ? double(static_cast<float>(value)) : value;
}

double most(const std::vector<double>& values) { return *std::max_element(values.begin(), values.end()); }
double total(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }
double balance(const std::vector<double>& values) {
    return most(values) > 0 ? total(values) / values.size() / most(values) : 1.0;
}

// One round's numbers over ranks (rank 0): states (the partition's
// balance), compute seconds, the worker threads' busy seconds (the balance
// achieved: every worker of every rank against the busiest), bytes moved,
// memory.
struct GatheredRound {
    std::vector<double> states, compute, exchange_seconds, exchanged, band, written, write_seconds, worker_mean,
        worker_most;
    // Mean over all workers of all ranks / the busiest worker's.
    double worker_balance() const {
        return most(worker_most) > 0 ? total(worker_mean) / worker_mean.size() / most(worker_most) : 1.0;
    }
};

GatheredRound gather_round(const Communicator& comm, const RoundReport& round) {
    return {comm.gather(double(round.compute.states)),
            comm.gather(round.compute.compute_seconds),
            comm.gather(round.compute.exchange.seconds),
            comm.gather(double(round.compute.exchange.bytes_sent)),
            comm.gather(double(round.compute.band_bytes())),
            comm.gather(double(round.write.bytes_written)),
            comm.gather(round.write.seconds),
            comm.gather(round.compute.worker_seconds_mean),
            comm.gather(round.compute.worker_seconds_max)};
}

// This rank's totals and peaks over the rounds, gathered over ranks.
struct GatheredRun {
    std::vector<double> compute, exchange, redistribute, exchanged, redistributed, rss, band, rounds, ghosts,
        writer_bytes, writer_busy;
};

GatheredRun gather_run(const Communicator& comm, const std::vector<RoundReport>& rounds, double writer_busy) {
    double compute = 0, exchange = 0, redistribute = 0, exchanged = 0, redistributed = 0;
    double rounds_peak = 0, ghosts_peak = 0, writer_peak = 0, band_peak = 0;
    for (const RoundReport& round : rounds) {
        rounds_peak = std::max(rounds_peak, double(round.compute.rounds_bytes));
        ghosts_peak = std::max(ghosts_peak, double(round.compute.ghost_bytes));
        writer_peak = std::max(writer_peak, double(round.compute.writer_bytes));
        band_peak = std::max(band_peak, double(round.compute.band_bytes()));
        compute += round.compute.compute_seconds;
        exchange += round.compute.exchange.seconds;
        redistribute += round.write.seconds;
        exchanged += double(round.compute.exchange.bytes_sent);
        redistributed += double(round.write.bytes_redistributed);
    }
    return {comm.gather(compute),     comm.gather(exchange),      comm.gather(redistribute),
            comm.gather(exchanged),   comm.gather(redistributed), comm.gather(double(peak_rss_bytes())),
            comm.gather(band_peak),   comm.gather(rounds_peak),   comm.gather(ghosts_peak),
            comm.gather(writer_peak), comm.gather(writer_busy)};
}

// The work-weighted balance over all rounds (all states over ranks x the
// largest share of each round: the rounds' efficiency taken together), the
// worst round among those holding at least 1% of the states, and with
// `round_table` one row per round.
struct RoundSummary {
    double balance = 1, worst_states = 1, worst_time = 1;
    Json table = Json::array();
};

RoundSummary summarize_rounds(const std::vector<GatheredRound>& per_round, const std::vector<RoundReport>& rounds,
                              int ranks, bool round_table) {
    RoundSummary summary;
    double all_states = 0, largest_shares = 0;
    for (const GatheredRound& round : per_round) {
        all_states += total(round.states);
        largest_shares += most(round.states) * ranks;
    }
    summary.balance = largest_shares > 0 ? all_states / largest_shares : 1.0;
    for (std::size_t round = 0; round < per_round.size(); ++round) {
        const GatheredRound& g = per_round[round];
        if (total(g.states) * 100 >= all_states) {
            summary.worst_states = std::min(summary.worst_states, balance(g.states));
            summary.worst_time = std::min(summary.worst_time, g.worker_balance());
        }
        if (!round_table)
            continue;
        const double seconds = most(g.compute) + most(g.exchange_seconds) + most(g.write_seconds);
        summary.table.push_back({{"round", round + 1},
                                 {"sum", rounds[round].compute.sum},
                                 {"states", std::uint64_t(total(g.states))},
                                 {"state_balance", balance(g.states)},
                                 {"time_balance", g.worker_balance()},
                                 {"compute_seconds_max", most(g.compute)},
                                 {"exchange_seconds_max", most(g.exchange_seconds)},
                                 {"redistribute_seconds_max", most(g.write_seconds)},
                                 {"states_per_second", seconds > 0 ? total(g.states) / seconds : 0.0},
                                 {"bytes_exchanged", std::uint64_t(total(g.exchanged))},
                                 {"band_bytes_max", std::uint64_t(most(g.band))},
                                 {"bytes_written", std::uint64_t(total(g.written))}});
    }
    return summary;
}

}  // namespace

namespace {

const char* kernel_name(KernelKind kind) {
    return kind == KernelKind::Gpu              ? "gpu"
           : kind == KernelKind::Portable       ? "portable"
           : kind == KernelKind::PortableThread ? "portable-thread"
           : kind == KernelKind::CpuRows        ? "cpu-rows"
                                                : "cpu";
}

// The GPUs' share of the run (null without one): the kernel's time (the
// slowest rank's), the bytes it read and wrote (every rank's), the rate one
// GPU achieved (bytes over seconds, summed over ranks) against its peak.
// Collective.
Json gpu_json(const Communicator& comm, const GpuReport* report) {
    if (!report)
        return nullptr;
    double most[3] = {report->kernel_seconds, report->copy_seconds, double(report->allocated)};
    double sums[5] = {double(report->kernel_bytes), double(report->copy_bytes), report->kernel_seconds, 1.0,
                      double(report->upload_bytes)};
    int pinned = report->pinned ? 1 : 0;
    comm.all_reduce(most, 3, Reduction::Max);
    comm.all_reduce(sums, 5, Reduction::Sum);
    pinned = comm.all_reduce(pinned, Reduction::Min);
    const double achieved = sums[2] > 0 ? sums[0] / sums[2] : 0.0;
    return {{"device", report->device},
            {"gpus", int(sums[3])},
            {"device_memory_bytes", report->device_memory},
            {"allocated_bytes_max", std::uint64_t(most[2])},
            {"kernel_seconds", most[0]},
            {"kernel_bytes", std::uint64_t(sums[0])},
            {"achieved_bytes_per_second", achieved},
            {"peak_bytes_per_second", report->peak_bytes_per_second},
            {"share_of_peak", report->peak_bytes_per_second > 0 ? achieved / report->peak_bytes_per_second : 0.0},
            {"copy_seconds", most[1]},
            {"copy_bytes", std::uint64_t(sums[1])},
            {"copies_page_locked", pinned == 1},
            {"upload_bytes", std::uint64_t(sums[4])},
            {"kernel_shape", report->kernel},
            {"threads_per_block", report->threads_per_block},
            {"blocks", report->blocks},
            {"shared_bytes_per_block", report->shared_bytes_per_block}};
}

}  // namespace

namespace {

// A line-clear table's sweeps: each one's largest change at the targets,
// ratio, proven bound (null where it is infinite: sweep 0, and a first
// change too large to bound), the extrapolation it jumped by, its largest
// value, V(empty) with its proven bracket, and seconds. Null for a
// no-clear table.
Json sweeps_json(const SummaryInputs& in) {
    if (!in.sweeps)
        return nullptr;
    const auto finite = [](double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); };
    Json runs = Json::array();
    for (const SweepRecord& sweep : *in.sweeps)
        runs.push_back({{"sweep", sweep.sweep},
                        {"change", sweep.change},
                        {"ratio", sweep.ratio},
                        {"bound", finite(sweep.bound)},
                        {"jump", sweep.jump},
                        {"largest_value", sweep.largest},
                        {"empty_board_value", sweep.empty_board_value},
                        {"empty_low", finite(sweep.empty_low)},
                        {"empty_high", finite(sweep.empty_high)},
                        {"seconds", sweep.seconds}});
    return {{"tolerance", in.clears_tolerance}, {"runs", runs}};
}

}  // namespace

Json summary_json(const Communicator& comm, const SummaryInputs& in) {
    std::vector<GatheredRound> per_round;
    for (const RoundReport& round : *in.rounds)
        per_round.push_back(gather_round(comm, round));
    const GatheredRun run = gather_run(comm, *in.rounds, in.writer_busy_seconds);
    Json gpu = gpu_json(comm, in.gpu);
    if (!comm.is_root())
        return nullptr;

    const Geometry& geometry = in.partition->geometry();
    const RoundLayout& layout = *in.layout;
    const double stored = double(layout.stored_states());
    const RoundSummary rounds = summarize_rounds(per_round, *in.rounds, comm.size(), in.round_table);
    Json per_piece = Json::object();
    for (int piece = 0; piece < in.rules->piece_count(); ++piece)
        per_piece[in.rules->name(piece)] = in.connections[std::size_t(piece)];
    const double connections = double(std::accumulate(in.connections.begin(), in.connections.end(), std::uint64_t(0)));
    Json summary = {
        {"generator", std::string("stackgen ") + project_version()},
        {"width", geometry.width()},
        {"height", geometry.height()},
        {"ranks", comm.size()},
        {"threads", in.threads},
        {"kernel", kernel_name(in.kernel)},
        {"exchange_overlapped", in.exchange_overlapped},
        {"gpu", gpu},
        {"pieces", in.rules->set().name()},
        {"residue_classes", layout.residues().list()},
        {"residue_modulus", layout.residues().modulus()},
        {"precision", precision_name(in.precision)},
        {"band_precision", precision_name(in.band_precision)},
        {"states", geometry.states()},
        {"stored_states", layout.stored_states()},
        {"mirrored", layout.mirrored()},  // canonical boards only (h0 <= h(W-1)); connections over those
        {"connections", std::uint64_t(connections)},
        {"connections_per_piece", per_piece},
        {"rounds", layout.rounds()},
        {"band_rounds", Band::most_rounds(*in.rules)},
        {"rounds_computed", in.rounds->size()},
        {"resumed_from_round", in.resumed_from},
        // What the table holds (rounded to float32 in a float32 table), and
        // the value as computed where that differs.
        {"empty_board_value",
         in.empty_board_computed ? Json(stored_value(in.empty_board_value, in.precision)) : Json(nullptr)},
        {"empty_board_value_computed",
         in.empty_board_computed && stored_value(in.empty_board_value, in.precision) != in.empty_board_value
             ? Json(in.empty_board_value)
             : Json(nullptr)},
        {"digest", digest_text(in.digest)},
        {"clears", in.sweeps ? "tetris" : "none"},
        {"sweeps", sweeps_json(in)},
        {"seconds",
         {{"setup", in.times.setup_seconds},
          {"compute", most(run.compute)},
          {"exchange", most(run.exchange)},
          {"redistribute", most(run.redistribute)},
          {"rounds", in.times.rounds_seconds},
          {"write_wait", in.times.write_wait_seconds},
          {"writer_busy", most(run.writer_busy)},
          {"total", in.times.total_seconds}}},
        {"compute_ns_per_state_per_rank", stored > 0 ? most(run.compute) * 1e9 * comm.size() / stored : 0.0},
        {"compute_ns_per_state_per_thread",
         stored > 0 ? most(run.compute) * 1e9 * comm.size() * in.threads / stored : 0.0},
        {"bytes_exchanged", std::uint64_t(total(run.exchanged))},
        {"bytes_exchanged_per_state", stored > 0 ? total(run.exchanged) / stored : 0.0},
        {"bytes_redistributed", std::uint64_t(total(run.redistributed))},
        {"band_bytes_max", std::uint64_t(most(run.band))},
        {"band_parts_max",
         {{"rounds", std::uint64_t(most(run.rounds))},
          {"ghosts", std::uint64_t(most(run.ghosts))},
          {"writer", std::uint64_t(most(run.writer_bytes))}}},
        {"peak_rss_bytes", {{"max", most(run.rss)}, {"mean", total(run.rss) / comm.size()}, {"total", total(run.rss)}}},
        {"state_balance", rounds.balance},
        {"worst_round", {{"state_balance", rounds.worst_states}, {"time_balance", rounds.worst_time}}},
        {"file_bytes", in.file_bytes},
        {"output", in.output.empty() ? Json(nullptr) : Json(in.output)}};
    if (in.round_table)
        summary["round_table"] = rounds.table;
    return summary;
}

std::string summary_text(const Json& s) {
    std::string text;
    char line[512];
    auto add = [&](const char* format, auto... values) {
        if constexpr (sizeof...(values) == 0) {
            text += format;
        } else {
            std::snprintf(line, sizeof line, format, values...);
            text += line;
        }
    };
    const auto number = [&](const char* key) { return s[key].get<double>(); };
    const auto seconds = [&](const char* phase) { return s["seconds"][phase].get<double>(); };
    const int ranks = s["ranks"].get<int>();
    std::string classes;
    for (const Json& residue : s["residue_classes"])
        classes += (classes.empty() ? "" : ",") + std::to_string(residue.get<int>());
    const int threads = s["threads"].get<int>();
    add("%s: %dx%d well, %d rank%s x %d thread%s\n", s["generator"].get<std::string>().c_str(), s["width"].get<int>(),
        s["height"].get<int>(), ranks, ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s");
    add("  pieces              %s\n", s["pieces"].get<std::string>().c_str());
    add("  states              %s  (stored: %s%s, height sum mod %d in {%s}, %s)\n",
        with_commas(s["states"].get<std::uint64_t>()).c_str(),
        with_commas(s["stored_states"].get<std::uint64_t>()).c_str(),
        s["mirrored"].get<bool>() ? " canonical, h0 <= h(W-1)" : "", s["residue_modulus"].get<int>(), classes.c_str(),
        s["precision"].get<std::string>().c_str());
    std::string pieces;
    for (const auto& [name, count] : s["connections_per_piece"].items())
        pieces += (pieces.empty() ? "" : ", ") + name + " " + with_commas(count.get<std::uint64_t>());
    add("  connections         %s  (%s)\n", with_commas(s["connections"].get<std::uint64_t>()).c_str(), pieces.c_str());
    add("  rounds              %zu  (one per row sum, the height sum of columns 1..W-1)",
        s["rounds"].get<std::size_t>());
    if (s["resumed_from_round"].get<std::size_t>() > 0)
        add("; resumed after round %zu, %zu computed now", s["resumed_from_round"].get<std::size_t>(),
            s["rounds_computed"].get<std::size_t>());
    text += "\n";
    if (s["empty_board_value"].is_null())
        add("  V(empty board)      not computed (class 0 not among the residue classes)\n");
    else if (s["empty_board_value_computed"].is_null())
        add("  V(empty board)      %.15f\n", number("empty_board_value"));
    else  // a float32 table: its value, to float32's digits, and the float64 one computed
        add("  V(empty board)      %.9g  (as the float32 table holds it; computed %.15f)\n",
            number("empty_board_value"), number("empty_board_value_computed"));
    if (s["clears"].get<std::string>() != "none") {
        const Json& last = s["sweeps"]["runs"].back();
        add("  clears              %s: sweeps 0..%lld (0: no clears), last change %.3g, ratio %.3g, proven bound "
            "%.3g (tolerance %.3g)\n",
            s["clears"].get<std::string>().c_str(), last["sweep"].get<long long>(), last["change"].get<double>(),
            last["ratio"].get<double>(), last["bound"].is_null() ? HUGE_VAL : last["bound"].get<double>(),
            s["sweeps"]["tolerance"].get<double>());
        if (!last["empty_low"].is_null() && !last["empty_high"].is_null())
            add("  V(empty) bracket    [%.15f, %.15f] (proven: docs/clears.md)\n", last["empty_low"].get<double>(),
                last["empty_high"].get<double>());
    }
    add("  digest              %s  (CRC-64/XZ of the values in the table's order; the same for any ranks x threads)\n",
        s["digest"].get<std::string>().c_str());
    if (!s["gpu"].is_null()) {
        const Json& gpu = s["gpu"];
        add("  gpu                 %s x %d: kernel %.3f s, %s read and written, %.0f GB/s (%.0f%% of its %.0f GB/s "
            "peak); values back %.3f s, %s%s; %s sent; %s allocated; a %s a slice, %llu blocks of %d threads, "
            "%s shared a block\n",
            gpu["device"].get<std::string>().c_str(), gpu["gpus"].get<int>(), gpu["kernel_seconds"].get<double>(),
            human_bytes(gpu["kernel_bytes"].get<double>()).c_str(),
            gpu["achieved_bytes_per_second"].get<double>() / 1e9, 100 * gpu["share_of_peak"].get<double>(),
            gpu["peak_bytes_per_second"].get<double>() / 1e9, gpu["copy_seconds"].get<double>(),
            human_bytes(gpu["copy_bytes"].get<double>()).c_str(),
            gpu["copies_page_locked"].get<bool>() ? "" : " (pageable: not overlapped)",
            human_bytes(gpu["upload_bytes"].get<double>()).c_str(),
            human_bytes(gpu["allocated_bytes_max"].get<double>()).c_str(),
            gpu["kernel_shape"].get<std::string>().c_str(), gpu["blocks"].get<unsigned long long>(),
            gpu["threads_per_block"].get<int>(), human_bytes(gpu["shared_bytes_per_block"].get<double>()).c_str());
    } else if (s["kernel"].get<std::string>() == "portable") {
        add("  kernel              portable (the GPU path's slice work, run on the CPU threads)\n");
    }
    add("  time setup          %8.3f s\n", seconds("setup"));
    add("  time compute        %8.3f s  (max over ranks, finding the rows others read included; %.1f ns per state "
        "per rank)\n",
        seconds("compute"), number("compute_ns_per_state_per_rank"));
    add("  time exchange       %8.3f s  (max over ranks; packing and sending the rows others read%s)\n",
        seconds("exchange"),
        s["exchange_overlapped"].get<bool>() ? ", and waiting for them after the next round, which they overlap" : "");
    add("  time redistribute   %8.3f s  (max over ranks; gathering each file segment for its writer)\n",
        seconds("redistribute"));
    add("  time rounds         %8.3f s  (wall)\n", seconds("rounds"));
    add("  time write          %8.3f s  (writer threads busy, overlapping the rounds; %.3f s waited at the end)\n",
        seconds("writer_busy"), seconds("write_wait"));
    add("  time total          %8.3f s\n", seconds("total"));
    add("  bytes exchanged     %s  (%.2f per stored state)\n", human_bytes(number("bytes_exchanged")).c_str(),
        number("bytes_exchanged_per_state"));
    add("  bytes redistributed %s\n", human_bytes(number("bytes_redistributed")).c_str());
    const Json& parts = s["band_parts_max"];
    add("  band memory         max %s per rank (rounds S..S+%d %s in %s, ghost rows %s, writer %s, each at its peak)\n",
        human_bytes(number("band_bytes_max")).c_str(), s["band_rounds"].get<int>() - 1,
        human_bytes(parts["rounds"].get<double>()).c_str(), s["band_precision"].get<std::string>().c_str(),
        human_bytes(parts["ghosts"].get<double>()).c_str(), human_bytes(parts["writer"].get<double>()).c_str());
    const Json& rss = s["peak_rss_bytes"];
    add("  peak RSS per rank   max %s, mean %s, total %s\n", human_bytes(rss["max"].get<double>()).c_str(),
        human_bytes(rss["mean"].get<double>()).c_str(), human_bytes(rss["total"].get<double>()).c_str());
    add("  state balance       %.1f%% over all rounds (states / (ranks x largest share per round))\n",
        100 * number("state_balance"));
    add("  worst round         %.1f%% states, %.1f%% compute time over every rank's threads (rounds with >= 1%% of "
        "the states)\n",
        100 * s["worst_round"]["state_balance"].get<double>(), 100 * s["worst_round"]["time_balance"].get<double>());
    if (s["output"].is_null())
        add("  output              none (--no-output; the table would take %s)\n",
            human_bytes(number("file_bytes")).c_str());
    else
        add("  output              %s (%s)\n", s["output"].get<std::string>().c_str(),
            human_bytes(number("file_bytes")).c_str());
    if (s.contains("round_table")) {
        text +=
            "\n  round  sum      states (all ranks)  state bal  time bal   compute  exchange  redistr."
            "    M states/s  exchanged     band max    written\n";
        for (const Json& round : s["round_table"])
            add("  %5zu  %3d  %18s  %8.1f%%  %7.1f%%  %7.3f s %7.3f s %7.3f s  %12.2f  %9s  %9s  %9s\n",
                round["round"].get<std::size_t>(), round["sum"].get<int>(),
                with_commas(round["states"].get<std::uint64_t>()).c_str(), 100 * round["state_balance"].get<double>(),
                100 * round["time_balance"].get<double>(), round["compute_seconds_max"].get<double>(),
                round["exchange_seconds_max"].get<double>(), round["redistribute_seconds_max"].get<double>(),
                round["states_per_second"].get<double>() / 1e6,
                human_bytes(round["bytes_exchanged"].get<double>()).c_str(),
                human_bytes(round["band_bytes_max"].get<double>()).c_str(),
                human_bytes(round["bytes_written"].get<double>()).c_str());
    }
    return text;
}

}  // namespace stack
