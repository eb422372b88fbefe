#include "rules/compositions.h"

#include <stdexcept>
#include <string>

namespace stack {

CompositionCodec::CompositionCodec(int columns, int height) : columns_(columns), height_(height) {
    if (columns < 0 || height < 1)
        throw std::invalid_argument("CompositionCodec needs a height of 1 or more");
    const std::size_t sums = std::size_t(max_sum()) + 1;
    counts_.assign((std::size_t(columns) + 1) * sums, 0);
    counts_[0] = 1;  // no columns: only the sum 0
    for (int j = 1; j <= columns; ++j)
        for (int s = 0; s <= j * height; ++s) {
            std::uint64_t total = 0;
            for (int v = 0; v <= height && v <= s; ++v)
                total += count(j - 1, s - v);
            counts_[std::size_t(j) * sums + s] = total;
        }
    below_.assign(std::size_t(columns) * sums * (height + 1), 0);
    for (int j = 1; j < columns; ++j)
        for (int s = 0; s <= max_sum(); ++s) {
            std::uint64_t running = 0;
            for (int v = 0; v <= height; ++v) {
                below_[(std::size_t(j) * sums + s) * (height + 1) + v] = running;
                running += count(j, s - v);
            }
        }
}

void CompositionCodec::unrank(int sum, std::uint64_t rank, int* heights) const {
    if (rank >= count(sum))
        throw std::out_of_range("rank " + std::to_string(rank) + " is past the " + std::to_string(count(sum))
                                + " vectors of sum " + std::to_string(sum));
    const std::size_t sums = std::size_t(max_sum()) + 1;
    for (int column = columns_ - 1; column >= 1; --column) {
        const std::uint64_t* row = &below_[(std::size_t(column) * sums + sum) * (height_ + 1)];
        // The largest v whose (non-empty) block of vectors starts at or
        // before `rank`: the block of v holds count(column, sum - v).
        int value = 0;
        for (int v = 0; v <= height_ && v <= sum; ++v)
            if (count(column, sum - v) > 0 && row[v] <= rank)
                value = v;
        heights[column] = value;
        rank -= row[value];
        sum -= value;
    }
    if (columns_ > 0)
        heights[0] = sum;
}

}  // namespace stack
