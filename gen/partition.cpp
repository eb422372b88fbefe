#include "partition.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stack {

// Bigger chunks keep more placements inside a rank and write as fewer,
// longer pieces; smaller ones balance the rounds better. Three lower columns
// when that still leaves at least ChunksPerRank chunks per rank, else two.
int Partition::default_lower_columns(const Geometry& geometry, int ranks) {
    constexpr std::uint64_t ChunksPerRank = 64;
    if (geometry.width() > 3 && geometry.states() / geometry.place_value(3) >= ChunksPerRank * std::uint64_t(ranks))
        return 3;
    return geometry.width() < 2 ? geometry.width() : 2;
}

Partition::Partition(const Geometry& geometry, int ranks, int rank, int lower_columns)
    : geometry_(geometry), ranks_(ranks), rank_(rank) {
    if (lower_columns < 0 || lower_columns > MaxLowerColumns)
        throw std::invalid_argument("a partition has 1.." + std::to_string(MaxLowerColumns)
                                    + " lower columns per chunk, not " + std::to_string(lower_columns));
    lower_columns_ = lower_columns > 0 ? std::min(lower_columns, geometry.width())
                                       : default_lower_columns(geometry, ranks);
    chunk_size_ = geometry.place_value(lower_columns_);
    chunk_count_ = geometry.states() / chunk_size_;
    owned_chunks_ = std::uint64_t(rank) < chunk_count_ ? (chunk_count_ - rank + ranks - 1) / ranks : 0;
    upper_sums_.resize(owned_chunks_);
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
        upper_sums_[chunk_local] =
            static_cast<std::uint32_t>(geometry.height_sum(board_id(chunk_local * chunk_size_)));
}

std::uint64_t Partition::max_owned_states() const { return (chunk_count_ + ranks_ - 1) / ranks_ * chunk_size_; }

std::uint64_t Partition::count_rows(int sum) const {
    std::uint64_t count = 0;
    for_each_row(sum, [&](BoardId, std::uint64_t, const Heights&) { ++count; });
    return count;
}

RowRules::RowRules(const Partition& partition) {
    const Geometry& geometry = partition.geometry();
    const std::uint64_t ranks = partition.ranks();
    const std::uint64_t rank = partition.rank();
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        for (int x = 0; x + orientation.width <= geometry.width(); ++x) {
            // Split the offset digit by digit: column 0, columns below L
            // (inside the chunk) and the chunk's own digits.
            std::uint64_t column0 = 0, inside = 0, chunks = 0;
            for (int k = 0; k < orientation.width; ++k) {
                const int column = x + k;
                if (column == 0)
                    column0 = orientation.added[k];
                else if (column < partition.lower_columns())
                    inside += orientation.added[k] * geometry.place_value(column);
                else
                    chunks += orientation.added[k] * geometry.place_value(column - partition.lower_columns());
            }
            RowRule& rule = rules_[o][x];
            rule.piece = orientation.piece;
            rule.column0_added = static_cast<std::uint8_t>(column0);
            rule.sum_step = static_cast<std::uint8_t>(CellsPerPiece - column0);
            rule.successor_owner = static_cast<int>((rank + chunks) % ranks);
            rule.predecessor_owner = static_cast<int>((rank + ranks - chunks % ranks) % ranks);
            rule.row_offset = chunks * partition.chunk_size() + inside;
            rule.local_shift = (rank + chunks) / ranks * partition.chunk_size() + inside;
        }
    }
}

}  // namespace stack
