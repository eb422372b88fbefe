// What stackgen tells its user: progress lines on stderr while the rounds
// run, and the summary on stdout at the end (text, or JSON with --json).
// Rank 0 prints; the functions that gather per-rank numbers are collective.
#pragma once

#include "clears.h"

#include "support/communicator.h"
#include "support/json.h"
#include "round_writer.h"
#include "solver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stack {

// One round as the summary reports it, this rank's share.
struct RoundReport {
    RoundRecord compute;
    WriteRecord write;
};

struct PhaseTimes {
    double setup_seconds = 0;
    double rounds_seconds = 0;      // wall time of the round loop (compute, exchange, redistribution)
    double write_wait_seconds = 0;  // waiting at the end for the last writes
    double total_seconds = 0;
};

// Prints progress on rank 0, on stderr: a line for a round holding at
// least 1% of the states, at most one every `interval` seconds (0: every
// such round), and the last round.
class ProgressPrinter {
public:
    // Rounds before `first_round` were done before (a resumed run).
    ProgressPrinter(bool enabled, double interval, std::vector<std::uint64_t> states_per_round,
                    std::size_t first_round = 0);
    void operator()(std::size_t round, std::size_t rounds, const RoundReport& report);

private:
    bool enabled_;
    double interval_;
    std::vector<std::uint64_t> states_per_round_;  // [round] -> states over all ranks
    std::uint64_t total_states_ = 0;
    std::uint64_t done_states_ = 0;  // of all rounds done
    std::uint64_t done_now_ = 0;     // of the rounds done by this run
    double start_ = 0;
    double last_line_ = -1e300;
};

// Global states computed by each round, from the layout.
std::vector<std::uint64_t> states_per_round(const RoundLayout& layout);

struct SummaryInputs {
    const Partition* partition = nullptr;
    const Rules* rules = nullptr;
    const RoundLayout* layout = nullptr;
    const std::vector<RoundReport>* rounds = nullptr;
    PieceCounts connections;            // over all ranks
    bool empty_board_computed = false;  // class 0 computed
    double empty_board_value = 0;
    double writer_busy_seconds = 0;  // this rank's writer thread
    std::uint64_t digest = 0;        // CRC-64 of the values (table/digest.h)
    int threads = 1;                 // worker threads per rank
    Precision band_precision = Precision::Float64;
    Precision precision = Precision::Float64;
    std::uint64_t file_bytes = 0;
    PhaseTimes times;
    std::string output;            // empty: --no-output
    bool round_table = false;      // one line per round
    std::size_t resumed_from = 0;  // rounds read back from a partial table
    KernelKind kernel = KernelKind::Cpu;
    bool exchange_overlapped = false;  // a round's rows travel while the next computes
    const GpuReport* gpu = nullptr;    // this rank's GPU (KernelKind::Gpu)
    // A line-clear table's sweeps (clears.h), the last one's rounds above;
    // null: a no-clear table.
    const std::vector<SweepRecord>* sweeps = nullptr;
    double clears_tolerance = 0;
};

// Collective: gathers per-round timings and memory into the summary, on
// rank 0 (null elsewhere). Every number stackgen reports is in it; the text
// summary is rendered from it.
Json summary_json(const Communicator& comm, const SummaryInputs& inputs);
std::string summary_text(const Json& summary);

}  // namespace stack
