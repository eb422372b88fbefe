// stackgen as a library call: check the request, solve round by round while
// writing finished rounds, report.
#pragma once

#include "rules/piece_set.h"
#include "rules/residues.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "table/table_format.h"

#include <optional>
#include <string>

namespace stack {

// When rank 0 prints progress lines on stderr.
enum class ProgressMode : std::uint8_t {
    Default,  // a few lines a second, whatever stderr is
    Always,   // --progress: every round holding 1% of the states
    Never,    // --quiet
};

struct GenerateOptions {
    int width = 0;
    int height = 0;
    PieceSet pieces = PieceSet::builtin("tetrominoes");  // --pieces
    std::optional<std::string> output;                   // none: stack_<W>x<H>.h5; "" is refused
    std::optional<ResidueSet> residues;  // the classes of the height sum, mod the set's gcd, to compute (none: all)
    Precision precision = Precision::Float64;
    Precision band_precision = Precision::Float64;  // the rounds held in memory; float32 halves the band, and each
                                                    // value is computed from float32-rounded successors
    int threads = 1;                                // worker threads per rank (0: the cores this rank is bound to)
    ProgressMode progress = ProgressMode::Default;
    bool quiet = false;               // no summary (and no progress)
    bool round_table = false;         // one summary line per round
    bool json = false;                // the summary as JSON
    bool resume = false;              // continue <output>.partial from its last recorded round
    bool blocking_exchange = false;   // no overlap of a round's exchange with the next round
    bool resume_if_partial = false;   // resume when the partial exists, else start (a requeued job)
    bool force = false;               // discard an existing <output>.partial
    bool no_output = false;           // compute every round, write no table: V(empty board) and the digest
    double checkpoint_seconds = 1.0;  // record progress in the partial table at most this often (0: every round)
    bool gpu = false;                 // the rounds on the rank's GPU (gpu_rounds.h)
    bool row_kernel = false;          // --kernel rows: the CPU kernel's row walk (0.6.0's), for timing
    bool portable_kernel = false;     // the GPU's slice work on the CPU threads (slice_work.h): checks the GPU path
    bool mirror = true;               // canonical boards only when the set is mirror-closed (--mirror auto)
    std::string spill;                // --spill DIR: the band's values in files there, mapped (band.h's RoundArray)
    Clears clears = Clears::None;     // --clears tetris: the well game, by sweeps (clears.h)
    double clears_tolerance = 1e-10;  // the proven bound on every value's distance from the fixed point
    bool extrapolate = true;          // the targets jump along the last change (clears.h; not on a GPU)
    int max_sweeps = 1000;
    double sweep_seconds = 600;  // --clears --gpu: a sweep kept on the device is written at most this often
};

// Whether the table stores canonical boards only (table_format.h): asked
// for (--mirror auto, the default), a mirror-closed set (rules.h) and a
// well of 2 or more columns.
bool mirrored_table(const GenerateOptions& options, const Rules& rules);
// The lower columns of a run's partition (partition.h): the default, kept
// below column W-1 in a mirrored table.
int run_lower_columns(const Geometry& geometry, int ranks, bool mirrored);

// The table the options name: --output, else stack_<W>x<H>[_<SET>].h5.
std::string output_path(const GenerateOptions& options);

// The checks of the options among themselves, nothing read: the run's and
// its plan's (stackgen --plan refuses what the run would). Throws
// InputError.
void check_options(const GenerateOptions& options);
// The well game's sweeps on the GPU or the portable kernel read their
// tetris successors where they are held: one rank (throws InputError).
void check_sweep_ranks(const GenerateOptions& options, int ranks);
// The checks of the output on disk, nothing locked or written: its path
// (output.h), and a partial there against --resume and --force. Throws
// InputError. `resume`: the decided --resume (--resume-if-partial decides).
void check_output_state(const GenerateOptions& options, const std::string& output, bool resume);

// The attributes of the table the options ask for (their precision), before
// any round is done: no rounds, no connections. The tests' tables are made
// with it too.
TableInfo table_info(const Geometry& geometry, const RoundLayout& layout, const Rules& rules,
                     const GenerateOptions& options);

// Throws InputError (raised identically on every rank) when the request
// cannot be met: a bad shape or output, a run already writing the output, a
// partial in the way, a table larger than the memory of the ranks on a node
// or the free disk; CollectiveError when writing failed.
void generate(const Communicator& comm, const GenerateOptions& options);

}  // namespace stack
