#include "rules/placement.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace stack {

// The step d[x+k] orientation o needs: its surface for placements, or the
// surface seen after the piece landed for predecessors.
int PlacementTable::step(int o, int k, bool reverse) const {
    const Orientation& orientation = rules_->orientation(o);
    return orientation.surface[k] + (reverse ? orientation.added[k + 1] - orientation.added[k] : 0);
}

PlacementTable::PlacementTable(const Geometry& geometry, const Rules& rules)
    : geometry_(geometry), rules_(&rules), offsets_(std::size_t(rules.orientation_count()) * MaxWidth, 0) {
    // L: one more than the largest step of either direction, so that the
    // clipped value L (and the wall's) matches no step.
    int largest = 0;
    for (int o = 0; o < rules.orientation_count(); ++o)
        for (int k = 0; k + 1 < rules.orientation(o).width; ++k)
            for (bool reverse : {false, true})
                largest = std::max(largest, std::abs(step(o, k, reverse)));
    limit_ = largest + 1;
    values_ = 2 * limit_ + 1;
    for (int o = 0; o < rules.orientation_count(); ++o) {
        const Orientation& orientation = rules.orientation(o);
        Candidate candidate{orientation.width, std::min(orientation.width - 1, 3), orientation.added, {}};
        for (int k = 0; k + 1 < orientation.width; ++k)
            for (bool reverse : {false, true})
                candidate.step[reverse][k] = std::int8_t(step(o, k, reverse));
        has_tails_ = has_tails_ || candidate.tail_from < candidate.width - 1;
        candidates_.push_back(candidate);
        for (int x = 0; x + orientation.width <= geometry.width(); ++x)
            offsets_[std::size_t(o) * MaxWidth + std::size_t(x)] = orientation.id_offset(geometry, x);
    }
    // The key's clipped differences, from its index.
    const auto difference = [this](int key, int k) {
        for (int i = k; i < 2; ++i)
            key /= values_;
        return key % values_ - limit_;
    };
    for (bool reverse : {false, true}) {
        std::vector<int> order;
        for (int o = 0; o < rules.orientation_count(); ++o)
            order.push_back(o);
        std::set<int> steps;
        for (int o = 0; o < rules.orientation_count(); ++o)
            if (rules.orientation(o).width > 1)
                steps.insert(step(o, 0, reverse));
        first_steps_[reverse].assign(steps.begin(), steps.end());
        // Any column: the first three steps (as many as o has) equal the key's.
        tables_[reverse] = build_table(values_ * values_ * values_, order, [&](int key, int o) {
            for (int k = 0; k + 1 < rules.orientation(o).width && k < 3; ++k)
                if (difference(key, k) != step(o, k, reverse))
                    return false;
            return true;
        });
    }
    most_at_one_column_ = tables_[0].stride - 1;
}

template <class Matches>
PlacementTable::MatchTable PlacementTable::build_table(int keys, const std::vector<int>& order, Matches&& matches) {
    std::vector<std::vector<std::uint16_t>> lists(static_cast<std::size_t>(keys));
    MatchTable built;
    for (int key = 0; key < keys; ++key) {
        for (const int o : order)
            if (matches(key, o))
                lists[std::size_t(key)].push_back(std::uint16_t(o));
        built.stride = std::max(built.stride, int(lists[std::size_t(key)].size()) + 1);
    }
    built.entries.assign(std::size_t(keys) * std::size_t(built.stride), 0);
    for (int key = 0; key < keys; ++key) {
        std::uint16_t* list = built.entries.data() + std::size_t(key) * std::size_t(built.stride);
        list[0] = std::uint16_t(lists[std::size_t(key)].size());
        std::copy(lists[std::size_t(key)].begin(), lists[std::size_t(key)].end(), list + 1);
    }
    return built;
}

PieceCounts round_connections(const Rules& rules, const Geometry& geometry, const CompositionCodec& columns,
                              const ResidueSet& residues, int sum, bool mirrored) {
    const int width = geometry.width(), height = geometry.height();
    std::uint64_t stored_h0 = 0;  // column-0 heights of a stored class, for this sum
    std::vector<std::uint64_t> stored_below(std::size_t(height) + 1, 0);  // [t] -> of them, those <= t
    for (int h0 = 0; h0 <= height; ++h0) {
        stored_h0 += residues.holds_sum(sum + h0);
        stored_below[std::size_t(h0)] = stored_h0;
    }
    mirrored = mirrored && width >= 2;
    PieceCounts counts(std::size_t(rules.piece_count()), 0);
    for (const Orientation& orientation : rules.orientations()) {
        const int w = orientation.width;
        std::array<int, MostPieceColumns> d{};  // column x+k stands at b + d[k]
        int low = 0, high = height;
        for (int k = 0; k < w; ++k) {
            if (k > 0)
                d[k] = d[k - 1] + orientation.surface[k - 1];
            low = std::max(low, -d[k]);
            high = std::min(high, height - d[k] - orientation.added[k]);
        }
        for (int x = 0; x + w <= width; ++x) {
            const int free = (width - 1) - (w - (x == 0 ? 1 : 0));  // columns 1..W-1 the piece leaves free
            for (int b = low; b <= high; ++b) {
                int fixed = 0;  // the piece's columns' share of the row sum
                for (int k = x == 0 ? 1 : 0; k < w; ++k)
                    fixed += b + d[k];
                std::uint64_t& count = counts[std::size_t(orientation.piece)];
                if (mirrored) {
                    // h0 <= t, t = h(W-1): each fixed by the piece or free.
                    const bool covers_top = x + w == width;
                    if (x == 0 && !residues.holds_sum(sum + b))
                        continue;
                    if (covers_top) {
                        const int top = b + d[std::size_t(w - 1)];
                        const std::uint64_t boards = columns.count(free, sum - fixed);
                        count += x > 0 ? boards * stored_below[std::size_t(top)] : (b <= top ? boards : 0);
                    } else {
                        for (int top = x > 0 ? 0 : b; top <= height; ++top) {
                            const std::uint64_t boards = columns.count(free - 1, sum - fixed - top);
                            count += x > 0 ? boards * stored_below[std::size_t(top)] : boards;
                        }
                    }
                    continue;
                }
                const std::uint64_t boards = columns.count(free, sum - fixed);
                if (x > 0)
                    count += boards * stored_h0;
                else if (residues.holds_sum(sum + b))
                    count += boards;
            }
        }
    }
    return counts;
}

}  // namespace stack
