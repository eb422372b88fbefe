#include "clears.h"

#include "support/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

}  // namespace

bool tetris_floor(const Partition& partition, const RoundLayout& layout, RoundStore& floor, const StackTable& previous,
                  int threads) {
    const RoundStore& store = floor;
    const int width = partition.geometry().width();
    const int sum = store.sum, below = tetris_round_sum(sum, width);
    if (below < 0)
        return false;
    double* const out = floor.at_as<double>(0);
    parallel_ranges(threads, store.value_count(),
                    [&](int, std::uint64_t begin, std::uint64_t end) { std::fill(out + begin, out + end, -1.0); });
    const int* index = layout.row_indices(sum);
    const int* lower_index = layout.row_indices(below);
    const int height = partition.geometry().height();
    for_each_owned_row(partition, layout, store, threads,
                       [&](int, std::uint64_t value, std::uint64_t, const Heights& heights, int length) {
                           Heights lower = heights;
                           for (int column = 1; column < width; ++column) {
                               if (heights[column] < TetrisRows)
                                   return;
                               lower[column] = heights[column] - TetrisRows;
                           }
                           const int top = heights[width - 1];
                           const std::uint64_t first = layout.row_position(below, layout.row_rank(lower, below),
                                                                           layout.mirrored() ? top - TetrisRows : 0);
                           for (int h0 = TetrisRows; h0 <= height; ++h0) {
                               const int i = index[h0];
                               if (i < 0 || i >= length)
                                   continue;
                               out[value + std::uint64_t(i)] =
                                   previous.value_at(first + std::uint64_t(lower_index[h0 - TetrisRows]));
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

double round_change(const Partition& partition, const RoundLayout& layout, const RoundStore& store,
                    const StackTable& previous, int threads) {
    std::vector<double> largest(std::size_t(std::max(threads, 1)), 0.0);
    for_each_owned_row(partition, layout, store, threads,
                       [&](int part, std::uint64_t value, std::uint64_t position, const Heights&, int length) {
                           const double* now = store.at_as<double>(value);
                           double& most = largest[std::size_t(part)];
                           for (int i = 0; i < length; ++i)
                               most =
                                   std::max(most, std::fabs(now[i] - previous.value_at(position + std::uint64_t(i))));
                       });
    return *std::max_element(largest.begin(), largest.end());
}

double sweep_bound(double change, double previous) {
    if (change == 0)
        return 0;
    if (!(previous > 0) || change >= previous)
        return std::numeric_limits<double>::infinity();
    const double ratio = change / previous;
    return change * ratio / (1 - ratio);
}

}  // namespace stack
