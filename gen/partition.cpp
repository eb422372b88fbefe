#include "partition.h"

namespace stack {

Partition::Partition(const Geometry& geometry, int ranks, int rank)
    : geometry_(geometry), ranks_(ranks), rank_(rank) {
    lower_columns_ = geometry.width() < 2 ? geometry.width() : 2;
    chunk_size_ = geometry.place_value(lower_columns_);
    chunk_count_ = geometry.states() / chunk_size_;
    owned_chunks_ = std::uint64_t(rank) < chunk_count_ ? (chunk_count_ - rank + ranks - 1) / ranks : 0;
}

std::uint64_t Partition::max_owned_states() const { return (chunk_count_ + ranks_ - 1) / ranks_ * chunk_size_; }

std::uint64_t Partition::count_states(int low_sum, int high_sum) const {
    std::uint64_t count = 0;
    for_each_run(low_sum, high_sum, [&](BoardId, std::uint64_t, std::uint64_t run, const Heights&) { count += run; });
    return count;
}

Routes::Routes(const Partition& partition) {
    const Geometry& geometry = partition.geometry();
    const std::uint64_t ranks = partition.ranks();
    const std::uint64_t rank = partition.rank();
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        for (int x = 0; x + orientation.width <= geometry.width(); ++x) {
            // Split the offset digit by digit: valid placements never carry.
            std::uint64_t low = 0, high = 0;
            for (int k = 0; k < orientation.width; ++k) {
                const int column = x + k;
                if (column < partition.lower_columns())
                    low += orientation.added[k] * geometry.place_value(column);
                else
                    high += orientation.added[k] * geometry.place_value(column - partition.lower_columns());
            }
            Route& route = routes_[o][x];
            route.successor_owner = static_cast<int>((rank + high) % ranks);
            route.predecessor_owner = static_cast<int>((rank + ranks - high % ranks) % ranks);
            route.local_shift = (rank + high) / ranks * partition.chunk_size() + low;
        }
    }
}

}  // namespace stack
