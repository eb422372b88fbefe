#include "clears.h"

#include "support/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace stack {

std::string sweep_name(const std::string& output) { return output + ".sweep"; }

namespace {

// Calls visit(chunk, top, row_value, position, heights) for each row of the
// store's round held by this rank, `position` its first value's place in
// the table file (a slice's rows are consecutive in the file: its chunk
// fixes the most significant columns), on `threads` threads by chunks.
template <class Visit>
void for_each_owned_row(const Partition& partition, const RoundLayout& layout, const RoundStore& store, int threads,
                        Visit&& visit) {
    const int width = partition.geometry().width();
    const int sum = store.sum;
    parallel_ranges(threads, partition.owned_chunks(), [&](int part, std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t chunk = begin; chunk < end; ++chunk) {
            if (store.slice_start[chunk + 1] == store.slice_start[chunk])
                continue;
            Heights heights = partition.geometry().decode(partition.chunk_first(chunk));
            const int top = partition.chunks_fix_top() ? heights[width - 1] : 0;
            std::uint64_t first_rank = 0;
            bool found = false;
            partition.for_each_row_of_slice(
                heights, sum - partition.upper_sum(chunk), [&](std::uint64_t row, const Heights& row_heights) {
                    if (!found) {
                        first_rank = layout.row_rank(row_heights, sum);
                        found = true;
                    }
                    const int row_top = layout.mirrored() ? row_heights[width - 1] : top;
                    visit(part, store.row_value(chunk, top, row), layout.row_position(sum, first_rank + row, row_top),
                          row_heights, store.length(top));
                });
        }
    });
}

// Calls visit(part, value, heights, count) for each of this rank's target
// rows of the store's round (every column 1..W-1 at most `target_height` =
// H - 4 high): `value` the row's first value in the store, and `count` its
// target values, the h0 <= H - 4 it stores. Those lead the row, in h0
// order, both in the table's layout and in the W x (H-4) well's (a row's
// index table numbers a class's h0 from 0 up whatever the height), so a
// row's targets are its first `count` values in either.
template <class Visit>
void for_each_target_row(const Partition& partition, const RoundLayout& layout, const RoundStore& store, int threads,
                         int target_height, Visit&& visit) {
    const int width = partition.geometry().width();
    const int* index = layout.row_indices(store.sum);
    for_each_owned_row(partition, layout, store, threads,
                       [&](int part, std::uint64_t value, std::uint64_t, const Heights& heights, int length) {
                           for (int column = 1; column < width; ++column)
                               if (heights[column] > target_height)
                                   return;
                           int count = 0;
                           for (int h0 = 0; h0 <= target_height; ++h0)
                               count += index[h0] >= 0 && index[h0] < length;
                           if (count > 0)
                               visit(part, value, heights, count);
                       });
}

}  // namespace

bool tetris_floor(const Partition& partition, const RoundLayout& layout, RoundStore& floor,
                  const TetrisTargets& targets, int threads) {
    const RoundStore& store = floor;
    const int width = partition.geometry().width();
    const int sum = store.sum, below = tetris_round_sum(sum, width);
    if (below < 0 || !targets.any())
        return false;
    double* const out = floor.at_as<double>(0);
    parallel_ranges(threads, store.value_count(),
                    [&](int, std::uint64_t begin, std::uint64_t end) { std::fill(out + begin, out + end, -1.0); });
    const int* index = layout.row_indices(sum);
    const int* lower_index = targets.row_indices(below);
    const int height = partition.geometry().height();
    for_each_owned_row(
        partition, layout, store, threads,
        [&](int, std::uint64_t value, std::uint64_t, const Heights& heights, int length) {
            Heights lower = heights;
            for (int column = 1; column < width; ++column) {
                if (heights[column] < TetrisRows)
                    return;
                lower[column] = heights[column] - TetrisRows;
            }
            const std::uint64_t first = targets.row_position(lower, below, heights[width - 1] - TetrisRows);
            for (int h0 = TetrisRows; h0 <= height; ++h0) {
                const int i = index[h0];
                if (i < 0 || i >= length)
                    continue;
                out[value + std::uint64_t(i)] = targets.at(first + std::uint64_t(lower_index[h0 - TetrisRows]));
            }
        });
    return true;
}

void read_round(const Partition& partition, const RoundLayout& layout, RoundStore& store, const StackTable& table,
                int threads) {
    double* const out = store.at_as<double>(0);
    for_each_owned_row(partition, layout, store, threads,
                       [&](int, std::uint64_t value, std::uint64_t position, const Heights&, int length) {
                           for (int i = 0; i < length; ++i)
                               out[value + std::uint64_t(i)] = table.value_at(position + std::uint64_t(i));
                       });
}

double round_largest(const Partition& partition, const RoundLayout& layout, const RoundStore& store, int threads) {
    std::vector<double> largest(std::size_t(std::max(threads, 1)), 0.0);
    for_each_owned_row(partition, layout, store, threads,
                       [&](int part, std::uint64_t value, std::uint64_t, const Heights&, int length) {
                           const double* now = store.at_as<double>(value);
                           double& most = largest[std::size_t(part)];
                           for (int i = 0; i < length; ++i)
                               most = std::max(most, now[i]);
                       });
    return *std::max_element(largest.begin(), largest.end());
}

namespace {

Geometry small_geometry(const Geometry& geometry) {
    return Geometry(geometry.width(), std::max(geometry.height() - TetrisRows, 1));
}

}  // namespace

TetrisTargets::TetrisTargets(const RoundLayout& layout)
    : any_(layout.geometry().height() >= TetrisRows), target_height_(layout.geometry().height() - TetrisRows),
      small_(small_geometry(layout.geometry()), layout.residues(), layout.mirrored()) {
    if (any_)
        values_.assign(small_.stored_states(), 0.0);
}

double tetris_targets_bytes(const RoundLayout& layout) {
    if (layout.geometry().height() < TetrisRows)
        return 0;
    return double(RoundLayout(small_geometry(layout.geometry()), layout.residues(), layout.mirrored()).stored_states())
           * sizeof(double);
}

TargetChange TetrisTargets::take_round(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                                       const RoundStore& store, int threads, bool measure, double jump) {
    TargetChange change;
    const int width = partition.geometry().width();
    const int sum = store.sum;
    if (!any_ || sum > small_.rounds() - 1)
        return change;
    // Several ranks: each writes its rows into a copy of the round's
    // values, the others' left at -infinity, and the largest of each place
    // over the ranks is everyone's.
    const std::uint64_t begin = small_.round_offset(sum), count = small_.round_values(sum);
    const bool shared = comm.size() > 1;
    std::vector<double> round;
    if (shared)
        round.assign(count, -std::numeric_limits<double>::infinity());
    // Where place p goes: values_[p], or round[p - begin] (no pointer before an array's start).
    double* const out = shared ? round.data() : values_.data() + begin;
    std::vector<TargetChange> parts(std::size_t(std::max(threads, 1)));
    for_each_target_row(partition, layout, store, threads, target_height_,
                        [&](int part, std::uint64_t value, const Heights& heights, int targets) {
                            const std::uint64_t first = row_position(heights, sum, heights[width - 1]);
                            const double* now = store.at_as<double>(value);
                            TargetChange& most = parts[std::size_t(part)];
                            for (int i = 0; i < targets; ++i) {
                                const std::uint64_t place = first + std::uint64_t(i);
                                const double y = now[i], x = values_[place];
                                if (measure) {
                                    most.up = std::max(most.up, y - x);
                                    most.down = std::max(most.down, x - y);
                                }
                                out[place - begin] = jump != 0 ? y + jump * (y - x) : y;
                            }
                        });
    for (const TargetChange& part : parts) {
        change.up = std::max(change.up, part.up);
        change.down = std::max(change.down, part.down);
    }
    if (shared) {
        constexpr std::uint64_t Piece = std::uint64_t(1) << 26;  // values a reduction takes at once
        for (std::uint64_t done = 0; done < count; done += Piece)
            comm.all_reduce(round.data() + done, int(std::min(Piece, count - done)), Reduction::Max);
        std::copy(round.begin(), round.end(), values_.begin() + std::ptrdiff_t(begin));
    }
    return change;
}

void TetrisTargets::read_table(const RoundLayout& layout, const StackTable& table, int threads) {
    if (!any_)
        return;
    const int height = layout.geometry().height();
    parallel_ranges(threads, values_.size(), [&](int, std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t place = begin; place < end; ++place) {
            const Heights board = small_.board_at(place);
            bool target = true;  // a 4-high well's small layout holds boards of height 1 besides the empty one
            for (int column = 0; column < layout.geometry().width(); ++column)
                target = target && board[column] <= height - TetrisRows;
            values_[place] = target ? table.value_at(layout.position(board)) : 0.0;
        }
    });
}

std::vector<std::uint64_t> target_runs(const Partition& partition, const RoundLayout& layout, const RoundStore& store,
                                       int threads) {
    const int target_height = partition.geometry().height() - TetrisRows;
    if (target_height < 0)
        return {};
    std::vector<std::vector<std::uint64_t>> parts(std::size_t(std::max(threads, 1)));
    for_each_target_row(partition, layout, store, threads, target_height,
                        [&](int part, std::uint64_t value, const Heights&, int targets) {
                            parts[std::size_t(part)].push_back(value);
                            parts[std::size_t(part)].push_back(std::uint64_t(targets));
                        });
    std::vector<std::uint64_t> runs;
    for (const std::vector<std::uint64_t>& part : parts)
        runs.insert(runs.end(), part.begin(), part.end());
    return runs;
}

void TetrisTargets::fill_round(const Partition& partition, const RoundLayout& layout, RoundStore& store,
                               int threads) const {
    double* const out = store.at_as<double>(0);
    parallel_ranges(threads, store.value_count(),
                    [&](int, std::uint64_t begin, std::uint64_t end) { std::fill(out + begin, out + end, -1.0); });
    const int width = partition.geometry().width();
    const int sum = store.sum;
    if (!any_ || sum > small_.rounds() - 1)
        return;
    for_each_target_row(partition, layout, store, threads, target_height_,
                        [&](int, std::uint64_t value, const Heights& heights, int targets) {
                            const std::uint64_t first = row_position(heights, sum, heights[width - 1]);
                            for (int i = 0; i < targets; ++i)
                                out[value + std::uint64_t(i)] = values_[first + std::uint64_t(i)];
                        });
}

Bracket sweep_bracket(const Rules& rules, const TargetChange& change, double largest) {
    double share = 0;
    if (rules.tetris_piece() >= 0) {
        double total = 0;
        for (int piece = 0; piece < rules.piece_count(); ++piece)
            total += rules.unit_weights() ? 1.0 : double(rules.weights()[std::size_t(piece)]);
        share = (rules.unit_weights() ? 1.0 : double(rules.weights()[std::size_t(rules.tetris_piece())])) / total;
    }
    // Four roundings a side: the sweep's step, the verifier's, and the
    // verifier's allowance (rules/bracket.h).
    const double rounding = 4 * step_rounding(largest, rules.piece_count());
    Bracket bracket;
    bracket.above = share * change.up + rounding;
    bracket.below = share * change.down + rounding;
    bracket.largest = largest;
    return bracket;
}

double next_jump(const std::vector<SweepRecord>& records) {
    const std::size_t n = records.size();
    if (n < 4)
        return 0;
    for (std::size_t back = 1; back <= 3; ++back)
        if (records[n - back].jump != 0)
            return 0;  // the ratios are the plain sweeps' again two sweeps after a jump
    const double r = records[n - 1].ratio, before = records[n - 2].ratio;
    if (!(r > 0 && r < 0.99 && before > 0) || std::fabs(r - before) > 0.05 * r)
        return 0;
    return r / (1 - r);
}

}  // namespace stack
