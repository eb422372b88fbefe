#include "rules/compositions.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stack {

std::uint64_t CompositionCodec::table_bytes(int columns, int height) {
    return 2 * (std::uint64_t(columns) + 1) * (std::uint64_t(columns) * std::uint64_t(height) + 2)
           * sizeof(std::uint64_t);
}

CompositionCodec::CompositionCodec(int columns, int height)
    : columns_(columns), height_(height), stride_(std::size_t(columns) * std::size_t(height) + 2) {
    if (columns < 0 || height < 1)
        throw std::invalid_argument("CompositionCodec needs a height of 1 or more");
    counts_.assign((std::size_t(columns) + 1) * stride_, 0);
    prefixes_.assign((std::size_t(columns) + 1) * stride_, 0);
    const int most = columns * height;
    const auto prefix = [&](int j, int t) -> std::uint64_t {
        return t < 0 ? 0 : prefixes_[std::size_t(j) * stride_ + std::size_t(t) + 1];
    };
    // Every row runs to the largest sum (counts past j*H are 0), so a
    // prefix may be read at any sum up to max_sum.
    for (int j = 0; j <= columns; ++j) {
        for (int s = 0; s <= most; ++s) {
            // j columns summing to s: column j-1 takes v in [0, H], the
            // others s - v, so count(j, s) = prefix(j-1, s) - prefix(j-1, s-H-1).
            const std::uint64_t total = s > j * height ? 0
                                        : j == 0       ? (s == 0 ? 1 : 0)
                                                       : prefix(j - 1, s) - prefix(j - 1, s - height - 1);
            counts_[std::size_t(j) * stride_ + std::size_t(s)] = total;
            prefixes_[std::size_t(j) * stride_ + std::size_t(s) + 1] =
                prefixes_[std::size_t(j) * stride_ + std::size_t(s)] + total;
        }
    }
}

void CompositionCodec::unrank(int sum, std::uint64_t rank, int* heights) const {
    if (rank >= count(sum))
        throw std::out_of_range("rank " + std::to_string(rank) + " is past the " + std::to_string(count(sum))
                                + " vectors of sum " + std::to_string(sum));
    for (int column = columns_ - 1; column >= 1; --column) {
        // The largest v whose (non-empty) block of vectors starts at or
        // before `rank`: the block of v holds count(column, sum - v).
        int value = 0;
        for (int v = 0; v <= height_ && v <= sum; ++v)
            if (count(column, sum - v) > 0 && below(column, sum, v) <= rank)
                value = v;
        heights[column] = value;
        rank -= below(column, sum, value);
        sum -= value;
    }
    if (columns_ > 0)
        heights[0] = sum;
}

namespace {

// `sum` packed into heights[0..columns-1], lowest columns first.
void pack(int sum, int* heights, int columns, int height) {
    for (int column = 0; column < columns; ++column) {
        heights[column] = std::min(sum, height);
        sum -= heights[column];
    }
}

}  // namespace

void CompositionCodec::first(int sum, int* heights) const { pack(sum, heights, columns_, height_); }

// The next vector in id order (column 0 the least significant digit) with
// the same sum: raise the lowest column j that can take one more and has
// something below it to give, then pack what is below, less one, into the
// lowest columns again.
bool CompositionCodec::next(int* heights) const {
    int below = 0;
    for (int column = 0; column < columns_; ++column) {
        if (below > 0 && heights[column] < height_) {
            ++heights[column];
            pack(below - 1, heights, column, height_);
            return true;
        }
        below += heights[column];
    }
    return false;
}

}  // namespace stack
