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

namespace {

// Steps the count of a counting partition's chunks may take (a digit value
// tried at one state of the table, or a digit of a chunk listed): some
// tens of milliseconds. The table is tried first: its steps are the
// cheaper.
constexpr double CountingSteps = 2e7;

}  // namespace

Partition::Partition(const Geometry& geometry, int ranks, int rank, int lower_columns)
    : Partition(geometry, ranks, rank, lower_columns, false) {}

Partition::Partition(const Geometry& geometry, int ranks, int rank, int lower_columns, bool counts_only)
    : geometry_(geometry), ranks_(ranks), rank_(rank),
      lower_columns_(lower_columns > 0 ? std::min(lower_columns, geometry.width())
                                       : default_lower_columns(geometry, ranks)),
      lower_(std::max(lower_columns_ - 1, 0), geometry.height()) {
    if (lower_columns < 0 || lower_columns > MaxLowerColumns)
        throw std::invalid_argument("a partition has 1.." + std::to_string(MaxLowerColumns)
                                    + " lower columns per chunk, not " + std::to_string(lower_columns));
    chunk_size_ = geometry.place_value(lower_columns_);
    chunk_count_ = geometry.states() / chunk_size_;
    if (chunks_fix_top())
        top_divisor_ = geometry.place_value(geometry.width() - 1 - lower_columns_);
    owned_chunks_ = std::uint64_t(rank) < chunk_count_ ? (chunk_count_ - rank + ranks - 1) / ranks : 0;
    counts_only_ = counts_only;
    if (counts_only)
        return;
    upper_sums_.resize(owned_chunks_);
    for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
        upper_sums_[chunk_local] = static_cast<std::uint32_t>(geometry.height_sum(chunk_first(chunk_local)));
}

std::uint64_t Partition::first_chunk_of_top(int top) const {
    if (!chunks_fix_top())
        return top <= 0 ? 0 : owned_chunks_;
    const std::uint64_t first = std::uint64_t(top) * top_divisor_;  // the first global chunk of that top
    const std::uint64_t local =
        first <= std::uint64_t(rank_) ? 0 : (first - std::uint64_t(rank_) + std::uint64_t(ranks_) - 1) / ranks_;
    return std::min(local, owned_chunks_);
}

Partition Partition::counting(const Geometry& geometry, int ranks, int rank, int lower_columns) {
    return Partition(geometry, ranks, rank, lower_columns, true);
}

namespace {

// The two exact ways to count a counting partition's chunks by upper sum,
// and what each costs in digit steps. A chunk is a number k < (H+1)^U, U
// the upper columns, its upper sum the sum of its base-(H+1) digits, and
// rank r owns the k = r mod P. Listing them costs U steps a chunk owned;
// a table over (digit sum, k mod P), filled digit by digit from the most
// significant, costs U x P x (UH+1) x (H+1), whatever the chunks' number.
double listing_steps(std::uint64_t owned, int digits) { return double(owned) * digits; }
double table_steps(int digits, int height, int ranks) {
    return double(digits) * double(ranks) * double(digits * height + 1) * double(height + 1);
}

}  // namespace

bool Partition::rows_counted_exactly() const {
    const int digits = geometry_.width() - lower_columns_;
    return !counts_only_ || listing_steps(owned_chunks_, digits) <= CountingSteps
           || table_steps(digits, geometry_.height(), ranks_) <= CountingSteps;
}

std::vector<std::uint64_t> Partition::owned_chunks_by_upper_sum() const {
    std::vector<std::uint64_t> chunks(std::size_t(rounds()), 0);
    if (!counts_only_) {
        for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
            ++chunks[upper_sums_[chunk_local]];
        return chunks;
    }
    const int digits = geometry_.width() - lower_columns_, height = geometry_.height();
    const std::uint64_t base = geometry_.base(), ranks = std::uint64_t(ranks_);
    if (table_steps(digits, height, ranks_) > CountingSteps && listing_steps(owned_chunks_, digits) <= CountingSteps) {
        for (std::uint64_t chunk_local = 0; chunk_local < owned_chunks_; ++chunk_local)
            ++chunks[std::size_t(geometry_.height_sum(chunk_first(chunk_local)))];
        return chunks;
    }
    if (table_steps(digits, height, ranks_) <= CountingSteps) {
        // ways[s * P + m]: prefixes of digit sum s and value m mod P.
        const int sums = digits * height + 1;
        std::vector<std::uint64_t> ways(std::size_t(sums) * ranks, 0), next(ways.size());
        ways[0] = 1;
        for (int digit = 0; digit < digits; ++digit) {
            std::fill(next.begin(), next.end(), 0);
            for (int sum = 0; sum <= digit * height; ++sum)
                for (std::uint64_t residue = 0; residue < ranks; ++residue) {
                    const std::uint64_t count = ways[std::size_t(sum) * ranks + residue];
                    if (count == 0)
                        continue;
                    for (std::uint64_t value = 0; value < base; ++value)
                        next[std::size_t(sum + int(value)) * ranks + (residue * base + value) % ranks] += count;
                }
            ways.swap(next);
        }
        for (int sum = 0; sum < sums; ++sum)
            chunks[std::size_t(sum)] = ways[std::size_t(sum) * ranks + std::uint64_t(rank_)];
        return chunks;
    }
    // Too many to count: each sum's chunks dealt evenly.
    const CompositionCodec upper(digits, height);
    for (int sum = 0; sum <= upper.max_sum(); ++sum)
        chunks[std::size_t(sum)] = (upper.count(sum) + ranks - 1) / ranks;
    return chunks;
}

// The chunks counted by upper sum first, then spread over the lower sums.
std::vector<std::uint64_t> Partition::owned_rows_per_round() const {
    const std::vector<std::uint64_t> chunks_by_upper_sum = owned_chunks_by_upper_sum();
    std::vector<std::uint64_t> rows(std::size_t(rounds()), 0);
    for (int upper = 0; upper < rounds(); ++upper)
        if (chunks_by_upper_sum[upper] != 0)
            for (int lower_sum = 0; lower_sum <= lower_.max_sum() && upper + lower_sum < rounds(); ++lower_sum)
                rows[upper + lower_sum] += chunks_by_upper_sum[upper] * lower_.count(lower_sum);
    return rows;
}

std::vector<std::uint64_t> Partition::owned_rows_per_round_and_top() const {
    const std::size_t base = std::size_t(geometry_.height()) + 1;
    std::vector<std::uint64_t> chunks(std::size_t(rounds()) * base, 0);  // [upper sum][top]
    for (int top = 0; top <= geometry_.height(); ++top)
        for (std::uint64_t chunk = first_chunk_of_top(top); chunk < first_chunk_of_top(top + 1); ++chunk)
            ++chunks[std::size_t(upper_sums_[chunk]) * base + std::size_t(top)];
    std::vector<std::uint64_t> rows(std::size_t(rounds()) * base, 0);
    for (int upper = 0; upper < rounds(); ++upper)
        for (std::size_t top = 0; top < base; ++top)
            if (const std::uint64_t owned = chunks[std::size_t(upper) * base + top])
                for (int lower_sum = 0; lower_sum <= lower_.max_sum() && upper + lower_sum < rounds(); ++lower_sum)
                    rows[std::size_t(upper + lower_sum) * base + top] += owned * lower_.count(lower_sum);
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
                if (column == geometry.width() - 1)
                    rule.top_added = orientation.added[k];
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
