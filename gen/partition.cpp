#include "partition.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stack {

// Bigger chunks keep more placements inside a slice and a rank; smaller
// ones balance the rounds better. Three lower columns when that still
// leaves at least ChunksPerRank chunks per rank, else two.
int Partition::default_lower_columns(const Geometry& geometry, int ranks) {
    constexpr std::uint64_t ChunksPerRank = 64;
    if (geometry.width() > 3 && geometry.states() / geometry.place_value(3) >= ChunksPerRank * std::uint64_t(ranks))
        return 3;
    return geometry.width() < 2 ? geometry.width() : 2;
}

Partition::Partition(const Geometry& geometry, int ranks, int rank, int lower_columns)
    : geometry_(geometry), ranks_(ranks), rank_(rank),
      lower_columns_(lower_columns > 0 ? std::min(lower_columns, geometry.width())
                                       : default_lower_columns(geometry, ranks)),
      lower_(std::max(lower_columns_ - 1, 0), geometry.height()) {
    if (lower_columns < 0 || lower_columns > MaxLowerColumns)
        throw std::invalid_argument("a partition has 1.." + std::to_string(MaxLowerColumns)
                                    + " lower columns per chunk, not " + std::to_string(lower_columns));
    chunk_size_ = geometry.place_value(lower_columns_);
    chunk_count_ = geometry.states() / chunk_size_;
    owned_chunks_ = std::uint64_t(rank) < chunk_count_ ? (chunk_count_ - rank + ranks - 1) / ranks : 0;
    upper_sums_.resize(owned_chunks_);
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
        upper_sums_[chunk_local] = static_cast<std::uint32_t>(geometry.height_sum(chunk_first(chunk_local)));
}

// The chunks counted by upper sum first, then spread over the lower sums:
// one pass over the chunks (stackgen --plan builds a 9x20 partition).
std::vector<std::uint64_t> Partition::owned_rows_per_round() const {
    std::vector<std::uint64_t> chunks_by_upper_sum(rounds(), 0), rows(rounds(), 0);
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
        ++chunks_by_upper_sum[upper_sums_[chunk_local]];
    for (int upper = 0; upper < rounds(); ++upper)
        if (chunks_by_upper_sum[upper] != 0)
            for (int lower_sum = 0; lower_sum <= lower_.max_sum() && upper + lower_sum < rounds(); ++lower_sum)
                rows[upper + lower_sum] += chunks_by_upper_sum[upper] * lower_.count(lower_sum);
    return rows;
}

PlacementRules::PlacementRules(const Partition& partition, const Rules& rules)
    : rules_(std::size_t(rules.orientation_count()) * MaxWidth) {
    const Geometry& geometry = partition.geometry();
    const std::uint64_t ranks = partition.ranks();
    const std::uint64_t rank = partition.rank();
    const int lower = partition.lower_columns();
    for (int o = 0; o < rules.orientation_count(); ++o) {
        const Orientation& orientation = rules.orientation(o);
        for (int x = 0; x + orientation.width <= geometry.width(); ++x) {
            PlacementRule& rule = rules_[std::size_t(o) * MaxWidth + std::size_t(x)];
            // Split the cells digit by digit: column 0, the lower columns
            // (inside the chunk) and the chunk's own digits.
            std::uint64_t delta = 0;
            for (int k = 0; k < orientation.width; ++k) {
                const int column = x + k;
                if (column == 0)
                    rule.column0_added = orientation.added[k];
                else if (column < lower)
                    rule.lower_added[column - 1] = orientation.added[k];
                else
                    delta += orientation.added[k] * geometry.place_value(column - lower);
                if (column > 0)
                    rule.row_offset += orientation.added[k] * geometry.place_value(column);
            }
            rule.piece = orientation.piece;
            rule.whole_slice = x >= lower && x > 0;
            rule.sum_step = static_cast<std::uint8_t>(rules.cells(orientation.piece) - rule.column0_added);
            rule.successor_owner = static_cast<int>((rank + delta) % ranks);
            rule.predecessor_owner = static_cast<int>((rank + ranks - delta % ranks) % ranks);
            rule.chunk_shift = (rank + delta) / ranks;
        }
    }
}

}  // namespace stack
