#include "band.h"

#include <algorithm>

namespace stack {

RoundStore::RoundStore(const Partition& partition, const RoundLayout& layout, int round_sum, int bytes_a_value,
                       RoundStore reused)
    : sum(round_sum), row_length(layout.row_length(round_sum)), value_size(bytes_a_value),
      slice_start(std::move(reused.slice_start)), values(std::move(reused.values)) {
    slice_start.resize(partition.owned_chunks() + 1);
    std::uint64_t rows = 0;
    for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); ++chunk) {
        slice_start[chunk] = rows;
        rows += partition.slice_rows(chunk, round_sum);
    }
    slice_start[partition.owned_chunks()] = rows;
    // Every value is written before it is read.
    values.resize((rows * std::uint64_t(row_length) * std::uint64_t(value_size) + sizeof(double) - 1) / sizeof(double));
}

Band::Band(const Partition& partition, const RoundLayout& layout, int value_size)
    : partition_(partition), layout_(layout), rounds_(partition.rounds()), value_size_(value_size) {
    const std::vector<std::uint64_t> rows = partition.owned_rows_per_round();
    for (int sum = 0; sum < partition.rounds(); ++sum)
        largest_round_values_ = std::max(largest_round_values_, rows[sum] * std::uint64_t(layout.row_length(sum)));
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
    rounds_[sum] = RoundStore(partition_, layout_, sum, value_size_, std::move(reused));
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
