#include "band.h"

#include "support/parallel.h"

#include <algorithm>

namespace stack {

// The slice starts are a prefix sum over the owned chunks (85.8 million a
// round for 9x20 on one rank): each thread sums a contiguous range of
// chunks, then adds the rows of the ranges before it. Small rounds stay on
// one thread.
RoundStore::RoundStore(const Partition& partition, const RoundLayout& layout, int round_sum, int bytes_a_value,
                       RoundStore reused, int threads)
    : sum(round_sum), row_length(layout.row_length(round_sum)), value_size(bytes_a_value),
      slice_start(std::move(reused.slice_start)), values(std::move(reused.values)),
      top_rows(std::move(reused.top_rows)), top_values(std::move(reused.top_values)),
      top_length(std::move(reused.top_length)) {
    const std::uint64_t chunks = partition.owned_chunks();
    slice_start.resize(chunks + 1);
    const int parts = chunks >= (std::uint64_t(1) << 20) ? std::max(threads, 1) : 1;
    std::vector<std::uint64_t> part_rows(std::size_t(parts) + 1, 0);
    parallel_ranges(parts, chunks, [&](int part, std::uint64_t first, std::uint64_t last) {
        std::uint64_t rows = 0;
        for (std::uint64_t chunk = first; chunk < last; ++chunk) {
            slice_start[chunk] = rows;
            rows += partition.slice_rows(chunk, round_sum);
        }
        part_rows[std::size_t(part) + 1] = rows;
    });
    for (std::size_t part = 1; part < part_rows.size(); ++part)
        part_rows[part] += part_rows[part - 1];
    if (parts > 1)
        parallel_ranges(parts, chunks, [&](int part, std::uint64_t first, std::uint64_t last) {
            for (std::uint64_t chunk = first; chunk < last; ++chunk)
                slice_start[chunk] += part_rows[std::size_t(part)];
        });
    const std::uint64_t rows = part_rows.back();
    slice_start[chunks] = rows;
    const int height = partition.geometry().height();
    top_rows.assign(std::size_t(height) + 2, 0);
    top_values.assign(std::size_t(height) + 2, 0);
    top_length.assign(std::size_t(height) + 1, row_length);
    if (layout.mirrored()) {
        for (int top = 0; top <= height + 1; ++top) {
            top_rows[std::size_t(top)] = slice_start[partition.first_chunk_of_top(top)];
            if (top > 0)
                top_values[std::size_t(top)] = top_values[std::size_t(top) - 1]
                                               + (top_rows[std::size_t(top)] - top_rows[std::size_t(top) - 1])
                                                     * std::uint64_t(top_length[std::size_t(top) - 1]);
            if (top <= height)
                top_length[std::size_t(top)] = layout.row_length(round_sum, top);
        }
    } else {
        top_rows.back() = rows;
        top_values.back() = rows * std::uint64_t(row_length);
    }
    // Every value is written before it is read.
    values.resize((value_count() * std::uint64_t(value_size) + sizeof(double) - 1) / sizeof(double));
}

Band::Band(const Partition& partition, const RoundLayout& layout, int value_size, int threads)
    : partition_(partition), layout_(layout), rounds_(partition.rounds()),
      largest_round_values_(largest_round_values(partition, layout)), value_size_(value_size), threads_(threads) {}

std::uint64_t Band::largest_round_values(const Partition& partition, const RoundLayout& layout) {
    if (layout.mirrored() && !partition.counts_only()) {  // exact, top by top
        const std::vector<std::uint64_t> rows = partition.owned_rows_per_round_and_top();
        const std::size_t base = std::size_t(partition.geometry().height()) + 1;
        std::uint64_t largest = 0;
        for (int sum = 0; sum < partition.rounds(); ++sum) {
            std::uint64_t values = 0;
            for (std::size_t top = 0; top < base; ++top)
                values += rows[std::size_t(sum) * base + top] * std::uint64_t(layout.row_length(sum, int(top)));
            largest = std::max(largest, values);
        }
        return largest;
    }
    const std::vector<std::uint64_t> rows = partition.owned_rows_per_round();
    std::uint64_t largest = 0;
    for (int sum = 0; sum < partition.rounds(); ++sum) {
        std::uint64_t values = rows[std::size_t(sum)] * std::uint64_t(layout.row_length(sum));
        if (layout.mirrored() && layout.rows(sum) > 0) {
            // A counting partition (--plan): the rank's share of the round's
            // rows holds about that share of its values (chunks are dealt
            // cyclically): exact on one rank, and a margin of a percent and
            // a full slice's rows elsewhere.
            const long double share = (long double)rows[std::size_t(sum)] / (long double)layout.rows(sum);
            values = std::uint64_t(share * (long double)layout.round_values(sum));
            if (partition.ranks() > 1)
                values = std::min(rows[std::size_t(sum)] * std::uint64_t(layout.row_length(sum)),
                                  values + values / 100 + std::uint64_t(layout.row_length(sum)) * 64);
        }
        largest = std::max(largest, values);
    }
    return largest;
}

RoundStore& Band::open(int sum) {
    RoundStore reused;
    if (!spare_.empty()) {
        reused = std::move(spare_.back());
        spare_.pop_back();
    } else {
        reused.values.reserve((largest_round_values_ * std::uint64_t(value_size_) + sizeof(double) - 1)
                              / sizeof(double));
        reused.slice_start.reserve(partition_.owned_chunks() + 1);
    }
    rounds_[sum] = RoundStore(partition_, layout_, sum, value_size_, std::move(reused), threads_);
    return rounds_[sum];
}

void Band::close(int sum) {
    if (!holds(sum))
        return;
    spare_.push_back(std::move(rounds_[sum]));
    rounds_[sum] = RoundStore();
}

std::uint64_t Band::bytes() const {
    std::uint64_t bytes = 0;
    for (const RoundStore& round : rounds_)
        bytes += round.sum >= 0 ? round.bytes() : 0;
    for (const RoundStore& round : spare_)
        bytes += round.bytes();
    return bytes;
}

}  // namespace stack
