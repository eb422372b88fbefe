#include "solver.h"

#include <array>
#include <cstring>
#include <utility>

namespace stack {

namespace {

// The one orientation that is one column wide: at column 0 it reads its own
// row, which is why rows are finished from the top down.
constexpr int VerticalI = 1;
constexpr bool vertical_i_is_the_only_one_column_orientation() {
    for (int o = 0; o < OrientationCount; ++o)
        if ((Orientations[o].width == 1) != (o == VerticalI))
            return false;
    return Orientations[VerticalI].piece == PieceI && Orientations[VerticalI].added[0] == CellsPerPiece;
}
static_assert(vertical_i_is_the_only_one_column_orientation(), "the row kernel special-cases the vertical I");

// The kernel finishes a row in blocks of 4 heights from the top; its arrays
// start this many entries below h0 = 0 so the last block may reach h0 = -3.
constexpr int Pad = CellsPerPiece - 1;

}  // namespace

// Computes rows in two steps, a few rows apart so that memory keeps up:
// prepare() lists a row's placements as updates with the address of the
// successor values they read and prefetches those; compute() then applies
// them. The successor rows of one round lie one per chunk all over the
// values array, too far apart for the hardware prefetcher.
//
// Layout of best_: [piece][Pad + h0], stride_ apart, -1 meaning "no
// placement yet" (1 + -1 adds exactly 0 to the sum).
class RoundRunner::RowKernel {
public:
    static constexpr int Lookahead = 4;  // rows prepared ahead of the one computed

    RowKernel(const Partition& partition, const PlacementTable& placements, const RowRules& rules)
        : placements_(placements), rules_(rules), rank_(partition.rank()), width_(partition.geometry().width()),
          height_(partition.geometry().height()) {
        stride_ = (height_ + 1 + Pad + 3) / 4 * 4;
        best_.resize(std::size_t(PieceCount) * stride_);
        out_.resize(stride_);
        // Columns 1..W-1, and column 0 once per step h1 - h0 in [-2, 2].
        const int most = (width_ - 1 + 5) * PlacementTable::most_placements_at_one_column();
        for (PreparedRow& row : ring_)
            row.updates.resize(most);
    }

    // Points the ghost cursors at the rows the round of `sum` reads.
    void begin_round(int sum, const Exchange& exchange, double* values) {
        values_ = values;
        prepared_ = computed_ = 0;
        for (int o = 0; o < OrientationCount; ++o)
            for (int x = 0; x + Orientations[o].width <= width_; ++x) {
                const RowRule& rule = rules_(o, x);
                if (rule.successor_owner != rank_)
                    cursors_[o][x] = exchange.cursor(sum + rule.sum_step, rule.successor_owner);
            }
    }
    // Rows in increasing id order; each is computed Lookahead rows later.
    void add_row(BoardId first, std::uint64_t first_local, const Heights& heights) {
        if (prepared_ - computed_ == Lookahead)
            compute(ring_[computed_++ % Lookahead]);
        prepare(ring_[prepared_++ % Lookahead], first, first_local, heights);
    }
    void end_round() {
        while (computed_ < prepared_)
            compute(ring_[computed_++ % Lookahead]);
    }
    const PieceCounts& counts() const { return counts_; }

private:
    // One placement of a prepared row: the whole row when h0 < 0 (source is
    // the successor row), else the state h0 alone (source is its successor).
    struct Update {
        const double* source;
        std::int32_t h0;
        Piece piece;
    };
    struct PreparedRow {
        std::uint64_t first_local = 0;
        int count = 0;
        std::vector<Update> updates;
    };

    double* best(int piece) { return best_.data() + std::size_t(piece) * stride_ + Pad; }
    const double* successor_row(int o, int x, BoardId first, std::uint64_t first_local) {
        const RowRule& rule = rules_(o, x);
        if (rule.successor_owner == rank_)
            return values_ + first_local + rule.local_shift;
        return cursors_[o][x].find(first + rule.row_offset);
    }
    void prepare(PreparedRow& row, BoardId first, std::uint64_t first_local, const Heights& heights);
    void compute(const PreparedRow& row);
    void finish_row(double* row);

    const PlacementTable& placements_;
    const RowRules& rules_;
    int rank_, width_, height_;
    int stride_ = 0;
    double* values_ = nullptr;
    std::vector<double> best_;  // [piece][Pad + h0] -> best successor value
    std::vector<double> out_;   // [Pad + h0] -> the row's values
    std::array<PreparedRow, Lookahead> ring_;
    std::uint64_t prepared_ = 0, computed_ = 0;
    PieceCounts counts_{};
    std::array<std::array<GhostCursor, MaxWidth>, OrientationCount> cursors_{};  // [orientation][column]
};

void RoundRunner::RowKernel::prepare(PreparedRow& row, BoardId first, std::uint64_t first_local, const Heights& heights) {
    const int top = height_;
    row.first_local = first_local;
    row.count = 0;
    for_each_row_placement<false>(placements_, heights, [&](int o, int x, int h0) {
        const Piece piece = Orientations[o].piece;
        const double* source = successor_row(o, x, first, first_local);
        if (h0 < 0) {  // the whole row: one max over the successor row
            for (int line = 0; line <= top; line += 8)
                __builtin_prefetch(source + line);
            __builtin_prefetch(source + top);
            counts_[piece] += top + 1;
        } else {       // one state, whose h0 the step fixes
            source += h0 + rules_(o, 0).column0_added;
            __builtin_prefetch(source);
            ++counts_[piece];
        }
        row.updates[row.count++] = {source, h0, piece};
    });
    if (top >= CellsPerPiece)
        counts_[PieceI] += top - CellsPerPiece + 1;  // the vertical I at column 0, h0 <= H-4
    double* target = values_ + first_local;
    for (int line = 0; line <= top; line += 8)
        __builtin_prefetch(target + line, 1);
    __builtin_prefetch(target + top, 1);
}

void RoundRunner::RowKernel::compute(const PreparedRow& row) {
    const int top = height_;
    std::fill(best_.begin(), best_.end(), -1.0);
    for (int i = 0; i < row.count; ++i) {
        const Update& update = row.updates[i];
        double* target = best(update.piece);
        if (update.h0 < 0) {
            for (int h = 0; h <= top; ++h)
                target[h] = target[h] > update.source[h] ? target[h] : update.source[h];
        } else {
            const double value = *update.source;
            target[update.h0] = target[update.h0] > value ? target[update.h0] : value;
        }
    }
    finish_row(values_ + row.first_local);
}

// From the top, 4 heights at a time: a block's vertical I reads the block
// above it, already final. Each state's value is value_from_best() of its
// column of best_ (value.h).
void RoundRunner::RowKernel::finish_row(double* row) {
    const int top = height_;
    double* vertical = best(PieceI);
    double* out = out_.data() + Pad;
    for (int base = top - 3; base > -CellsPerPiece; base -= CellsPerPiece) {
        if (base + CellsPerPiece <= top)
            for (int i = 0; i < CellsPerPiece; ++i) {
                const double above = out[base + i + CellsPerPiece];
                vertical[base + i] = vertical[base + i] > above ? vertical[base + i] : above;
            }
        for (int i = 0; i < CellsPerPiece; ++i)
            out[base + i] = value_from_best(best_.data() + Pad + base + i, stride_);
    }
    std::memcpy(row, out, std::size_t(top + 1) * sizeof(double));
}

RoundRunner::RoundRunner(const Communicator& comm, const Partition& partition)
    : partition_(partition), placements_(partition.geometry()), rules_(partition),
      exchange_(comm, partition, placements_, rules_),
      kernel_(std::make_unique<RowKernel>(partition, placements_, rules_)) {
    solution_.values.resize(partition.owned_states());  // every value is written before it is read
    solution_.plan_seconds = exchange_.plan_seconds();
}

RoundRunner::~RoundRunner() = default;

std::size_t RoundRunner::round_count() const { return std::size_t(partition_.max_row_sum()) + 1; }

int RoundRunner::round_sum(std::size_t round) const { return partition_.max_row_sum() - static_cast<int>(round); }

RoundRecord RoundRunner::compute(std::size_t round) {
    RoundRecord record;
    record.sum = round_sum(round);
    const double start = MPI_Wtime();
    kernel_->begin_round(record.sum, exchange_, solution_.values.data());
    partition_.for_each_row(record.sum, [&](BoardId first, std::uint64_t first_local, const Heights& heights) {
        kernel_->add_row(first, first_local, heights);
        record.states += partition_.geometry().base();
    });
    kernel_->end_round();
    record.compute_seconds = MPI_Wtime() - start;
    return record;
}

ExchangeRecord RoundRunner::exchange(std::size_t round) { return exchange_.run(round_sum(round), solution_.values); }

RoundRecord RoundRunner::run(std::size_t round) {
    RoundRecord record = compute(round);
    const ExchangeRecord exchanged = exchange(round);
    record.rows_sent = exchanged.rows_sent;
    record.rows_received = exchanged.rows_received;
    record.exchange_seconds = exchanged.seconds;
    solution_.rounds.push_back(record);
    return record;
}

Solution RoundRunner::finish() && {
    solution_.connections = kernel_->counts();
    solution_.exchange_bytes = exchange_.buffer_bytes();
    return std::move(solution_);
}

Solution solve(const Communicator& comm, const Partition& partition, const RoundObserver& observer) {
    RoundRunner runner(comm, partition);
    for (std::size_t round = 0; round < runner.round_count(); ++round) {
        const RoundRecord record = runner.run(round);
        if (observer)
            observer(round, runner.round_count(), record);
    }
    return std::move(runner).finish();
}

}  // namespace stack
