// Ranking the stacks of one height sum.
//
// The height vectors of k columns (heights in [0, H]) that sum to s are
// "compositions of s into k parts bounded by H". Among those of one sum,
// rank() numbers them 0, 1, ... in board-id order (column k-1 the most
// significant), and unrank() inverts it. Both take O(k) lookups in two
// counting tables:
//   count(j, s)      = vectors of j columns summing to s
//   prefix(j, t)     = count(j, 0) + ... + count(j, t), 0 for t < 0
//   below(j, s, v)   = the vectors whose column j is lower than v, when
//                      columns 0..j sum to s: count(j, s - u) over u < v,
//                      which is prefix(j, s) - prefix(j, s - v)
//   rank(h)          = sum over j = k-1 .. 1 of below(j, s_j, h[j]), where
//                      s_j is the sum of columns 0..j.
// The tables take (k+1)(kH+2) numbers each and O(kH) steps to build
// (count(j, s) is a difference of two prefixes of count(j-1, .)), so a tall
// well costs little. The exact length distribution numbers each layer's
// boards this way (all boards after k moves share one height sum); a table
// stored by rounds locates a row the same way.
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
        return sum < 0 || sum > columns * height_ ? 0 : counts_[std::size_t(columns) * stride_ + std::size_t(sum)];
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
        // prefix(j, t) is at prefixes_[j * stride_ + t + 1].
        const std::uint64_t* prefix = prefixes_.data() + std::size_t(columns_ - 1) * stride_ + 1;
        for (int column = columns_ - 1; column >= 1; --column, prefix -= stride_) {
            const int height = height_of(column);
            rank += prefix[sum] - prefix[sum - height];
            sum -= height;
        }
        return rank;
    }
    // The vector of sum `sum` with rank `rank` (< count(sum)), into heights.
    void unrank(int sum, std::uint64_t rank, int* heights) const;
    // Walking the vectors of a sum in board-id order in O(columns) a step
    // (unrank costs O(columns x height)): first() writes rank 0, the sum
    // packed into the lowest columns; next() turns heights into the vector
    // of the next rank, false when it was the last.
    void first(int sum, int* heights) const;
    bool next(int* heights) const;

    // Bytes the tables take for `columns` columns of height `height`.
    static std::uint64_t table_bytes(int columns, int height);

private:
    std::uint64_t below(int column, int sum, int height) const {
        const std::uint64_t* prefix = prefixes_.data() + std::size_t(column) * stride_ + 1;
        return prefix[sum] - prefix[sum - height];
    }

    int columns_;
    int height_;
    std::size_t stride_;                   // max_sum + 2
    std::vector<std::uint64_t> counts_;    // [j * stride + s] -> count(j, s), j = 0..columns
    std::vector<std::uint64_t> prefixes_;  // [j * stride + t + 1] -> prefix(j, t), t = -1..max_sum
};

}  // namespace stack
