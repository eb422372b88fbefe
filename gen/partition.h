// How ranks split the id space.
//
// Ids are cut into chunks of Q = (H+1)^L consecutive ids, L = min(W, 2): a
// chunk fixes the heights of columns L..W-1 (the "upper" columns) and holds
// every combination of the lower L columns. Chunks are dealt to ranks
// cyclically (chunk c -> rank c mod P). Every layer of equal height sum then
// spreads evenly: contiguous id blocks would give the ranks owning high
// digits only the tall layers (48% per-round efficiency on 6x20 at 64 ranks,
// against 99% for this layout).
//
// A rank stores its chunks back to back: local index = (c / P) * Q + id % Q.
#pragma once

#include "board.h"
#include "placement.h"
#include "table_file.h"

#include <array>
#include <cstdint>

namespace stack {

class Partition {
public:
    Partition(const Geometry& geometry, int ranks, int rank);

    const Geometry& geometry() const { return geometry_; }
    int ranks() const { return ranks_; }
    int rank() const { return rank_; }
    int lower_columns() const { return lower_columns_; }
    std::uint64_t chunk_size() const { return chunk_size_; }        // Q
    std::uint64_t chunk_count() const { return chunk_count_; }      // (H+1)^W / Q
    std::uint64_t owned_chunks() const { return owned_chunks_; }
    std::uint64_t owned_states() const { return owned_chunks_ * chunk_size_; }
    std::uint64_t max_owned_states() const;                         // over all ranks

    int owner(BoardId id) const { return static_cast<int>(id / chunk_size_ % ranks_); }
    std::uint64_t local_index(BoardId id) const {
        return id / chunk_size_ / ranks_ * chunk_size_ + id % chunk_size_;
    }
    BlockCyclicSlice slice() const { return {std::uint64_t(rank_), std::uint64_t(ranks_), owned_chunks_, chunk_size_}; }

    // Calls visit(first_id, first_local_index, count, heights) for every run
    // of owned ids that differ only in column 0 and whose height sum lies in
    // [low_sum, high_sum]; heights are those of the run's first id. Runs come
    // in increasing id order.
    template <class Visit>
    void for_each_run(int low_sum, int high_sum, Visit&& visit) const;

    std::uint64_t count_states(int low_sum, int high_sum) const;

private:
    Geometry geometry_;
    int ranks_;
    int rank_;
    int lower_columns_;
    std::uint64_t chunk_size_;
    std::uint64_t chunk_count_;
    std::uint64_t owned_chunks_;
};

template <class Visit>
void Partition::for_each_run(int low_sum, int high_sum, Visit&& visit) const {
    const int height = geometry_.height();
    const int width = geometry_.width();
    const BoardId base = geometry_.base();
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local) {
        const BoardId chunk_first = (chunk_local * ranks_ + rank_) * chunk_size_;
        Heights heights = geometry_.decode(chunk_first);
        int upper_sum = 0;
        for (int column = lower_columns_; column < width; ++column)
            upper_sum += heights[column];
        const int second_column_max = lower_columns_ == 2 ? height : 0;
        for (int second = 0; second <= second_column_max; ++second) {
            const int rest = upper_sum + second;
            const int first_low = low_sum - rest > 0 ? low_sum - rest : 0;
            const int first_high = high_sum - rest < height ? high_sum - rest : height;
            if (first_low > first_high)
                continue;
            if (lower_columns_ == 2)
                heights[1] = second;
            heights[0] = first_low;
            const std::uint64_t offset = std::uint64_t(second) * base * (lower_columns_ == 2) + first_low;
            visit(chunk_first + offset, chunk_local * chunk_size_ + offset, first_high - first_low + 1, heights);
        }
    }
}

// Where placing orientation o at column x leads, seen from one rank. The
// successor of an owned id lies in chunk c + high(o, x) (high = the offset's
// digits above the lower columns), so its owner and, when it is owned here,
// its local index follow from (o, x) alone: no division in the hot loop.
struct Route {
    int successor_owner = 0;
    int predecessor_owner = 0;
    std::uint64_t local_shift = 0;  // successor local index - local index, when owned here
};

class Routes {
public:
    explicit Routes(const Partition& partition);
    const Route& operator()(int orientation, int column) const { return routes_[orientation][column]; }

private:
    std::array<std::array<Route, MaxWidth>, OrientationCount> routes_{};  // [orientation][column]
};

}  // namespace stack
