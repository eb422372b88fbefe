// Ranking the stacks of one height sum.
//
// The height vectors of k columns (heights in [0, H]) that sum to s are
// "compositions of s into k parts bounded by H". Among those of one sum,
// rank() numbers them 0, 1, ... in board-id order (column k-1 the most
// significant), and unrank() inverts it. Both take O(k) lookups in a
// counting table:
//   count(j, s)      = vectors of j columns summing to s
//   below(j, s, v)   = sum over u < v of count(j, s - u): the vectors whose
//                      column j is lower than v, when columns 0..j sum to s
//   rank(h)          = sum over j = k-1 .. 1 of below(j, s_j, h[j]), where
//                      s_j is the sum of columns 0..j.
// The exact length distribution numbers each layer's boards this way (all
// boards after k moves share one height sum); a table stored by rounds
// locates a row the same way.
#pragma once

#include <cstdint>
#include <vector>

namespace stack {

class CompositionCodec {
public:
    // columns >= 0 (no columns: the one empty vector, of sum 0).
    CompositionCodec(int columns, int height);

    int columns() const { return columns_; }
    int height() const { return height_; }
    int max_sum() const { return columns_ * height_; }

    // Vectors of `columns()` heights summing to `sum` (0 outside [0, max_sum]).
    std::uint64_t count(int sum) const { return count(columns_, sum); }
    // The same for the first `columns` columns.
    std::uint64_t count(int columns, int sum) const {
        return sum < 0 || sum > columns * height_ ? 0 : counts_[std::size_t(columns) * (max_sum() + 1) + sum];
    }

    // heights[0..columns()-1], each in [0, H]: its rank among the vectors of
    // its sum, in board-id order.
    std::uint64_t rank(const int* heights) const {
        int sum = 0;
        for (int column = 0; column < columns_; ++column)
            sum += heights[column];
        return rank(heights, sum);
    }
    std::uint64_t rank(const int* heights, int sum) const {
        return rank_of(sum, [heights](int column) { return heights[column]; });
    }
    // The same for heights given by height_of(column), whose sum is `sum`.
    template <class HeightOf>
    std::uint64_t rank_of(int sum, HeightOf&& height_of) const {
        std::uint64_t rank = 0;
        const std::size_t stride = std::size_t(max_sum() + 1) * (height_ + 1);
        const std::uint64_t* column_table = below_.data() + std::size_t(columns_ - 1) * stride;
        for (int column = columns_ - 1; column >= 1; --column, column_table -= stride) {
            const int height = height_of(column);
            rank += column_table[std::size_t(sum) * (height_ + 1) + height];
            sum -= height;
        }
        return rank;
    }
    // The vector of sum `sum` with rank `rank` (< count(sum)), into heights.
    void unrank(int sum, std::uint64_t rank, int* heights) const;

private:
    int columns_;
    int height_;
    std::vector<std::uint64_t> counts_;  // [j][s] -> count(j, s), j = 0..columns
    std::vector<std::uint64_t> below_;   // [j][s][v] -> below(j, s, v), v = 0..H
};

}  // namespace stack
