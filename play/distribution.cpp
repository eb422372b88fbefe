#include "distribution.h"

#include "parallel.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace stack {

namespace {

// One layer: board ids ascending and unique, with their probabilities.
struct Layer {
    std::vector<BoardId> ids;
    std::vector<double> probability;
};

// A move of some board of the layer: its successor and the probability it
// carries there.
struct Edge {
    BoardId successor;
    double probability;
};

// Buckets cut the successor ids of a layer into ranges of 2^shift ids, so
// that equal ids meet in one bucket and the buckets, in order, are in id
// order.
struct Buckets {
    BoardId lowest = 0;
    int shift = 0;
    std::size_t count = 1;
    std::size_t of(BoardId id) const { return std::size_t((id - lowest) >> shift); }
};

// About this many moves per bucket, so most buckets sort by insertion.
constexpr std::size_t MovesPerBucket = 8;

Buckets buckets_for(BoardId lowest, BoardId highest, std::size_t moves) {
    Buckets buckets;
    buckets.lowest = lowest;
    const std::size_t target = std::max<std::size_t>(1024, moves / MovesPerBucket);
    while (((highest - lowest) >> buckets.shift) >= target)
        ++buckets.shift;
    buckets.count = std::size_t((highest - lowest) >> buckets.shift) + 1;
    return buckets;
}

// The moves of one part of the layer (a contiguous range of its boards), in
// layer order then piece order, and how many fall in each bucket.
struct PartMoves {
    std::vector<Edge> edges;
    std::vector<std::uint32_t> per_bucket;  // [bucket] -> edges
};

// A stable sort by successor: insertion for the usual few moves, merging
// for the rare crowded bucket.
void sort_bucket(Edge* first, Edge* last) {
    const auto before = [](const Edge& a, const Edge& b) { return a.successor < b.successor; };
    if (last - first > 64) {
        std::stable_sort(first, last, before);
        return;
    }
    for (Edge* next = first + 1; next < last; ++next) {
        const Edge moving = *next;
        Edge* hole = next;
        for (; hole > first && before(moving, hole[-1]); --hole)
            *hole = hole[-1];
        *hole = moving;
    }
}

// Cuts buckets [0, count) into `parts` ranges holding about equal numbers
// of moves: range p is [cuts[p], cuts[p+1]). `start` is the buckets' prefix
// sum, count + 1 entries.
std::vector<std::size_t> balanced_cuts(const std::vector<std::size_t>& start, int parts) {
    const std::size_t count = start.size() - 1;
    std::vector<std::size_t> cuts(parts + 1, count);
    cuts[0] = 0;
    for (int part = 1; part < parts; ++part) {
        const std::size_t wanted = start[count] / parts * part;
        cuts[part] = std::size_t(std::lower_bound(start.begin(), start.end() - 1, wanted) - start.begin());
    }
    return cuts;
}

// Sums each run of equal successors of a sorted bucket from the left, in
// place; returns the number of distinct successors, now at the front.
std::size_t sum_runs(Edge* first, Edge* last) {
    std::size_t kept = 0;
    for (Edge* edge = first; edge != last; ++edge) {
        if (kept > 0 && first[kept - 1].successor == edge->successor)
            first[kept - 1].probability += edge->probability;
        else
            first[kept++] = *edge;
    }
    return kept;
}

}  // namespace

// Each layer goes in three parallel steps whose results do not depend on
// how many threads run them:
//  1. parts (contiguous ranges of the layer) list their moves in layer
//     order, then piece order, and count them per bucket of successor ids;
//  2. the moves are scattered bucket-major, part-minor, which keeps every
//     successor's terms in layer order, and each bucket is stably sorted by
//     successor and summed run by run from the left: the same left fold of
//     the same terms for any number of parts;
//  3. the buckets' distinct successors, joined in bucket order, are the
//     next layer, ids ascending.
LengthDistribution exact_length_distribution(const Policy& policy, const Geometry& geometry, BoardId start,
                                             int threads) {
    if (!policy.deterministic())
        throw std::logic_error("the exact length distribution needs a deterministic policy");
    threads = std::max(threads, 1);
    LengthDistribution result;
    Layer layer{{start}, {1.0}};
    // Buffers live across layers: fresh pages from the kernel cost more
    // than the pass itself.
    Layer next;
    std::vector<double> ends;  // [board of the layer] -> probability that the game ends on it
    std::vector<Edge> scattered;
    std::vector<PartMoves> parts(threads);
    std::vector<std::size_t> bucket_start, distinct, next_start;
    std::vector<std::vector<std::size_t>> cursor(threads);
    constexpr double PieceProbability = 1.0 / double(PieceCount);
    // No move raises an id by more than a vertical I in the last column.
    const BoardId largest_step = geometry.place_value(geometry.width() - 1) * CellsPerPiece;
    while (!layer.ids.empty()) {
        const std::size_t size = layer.ids.size();
        result.boards += size;
        result.widest_layer = std::max<std::uint64_t>(result.widest_layer, size);
        const Buckets buckets =
            buckets_for(layer.ids.front(), std::min(geometry.states() - 1, layer.ids.back() + largest_step),
                        size * PieceCount);

        // 1. Moves, per part.
        const int part_count = int(std::min<std::size_t>(threads, size));
        ends.assign(size, 0.0);
        parallel_ranges(part_count, size, [&](int part, std::uint64_t first, std::uint64_t end) {
            PartMoves& moves_of_part = parts[part];
            moves_of_part.per_bucket.assign(buckets.count, 0);
            moves_of_part.edges.clear();
            const auto record = [&](std::size_t index, const std::array<Move, PieceCount>& moves) {
                const std::size_t i = first + index;
                const double share = layer.probability[i] * PieceProbability;
                for (const Move& move : moves) {
                    if (move.orientation < 0) {
                        ends[i] += share;
                    } else {
                        moves_of_part.edges.push_back({move.successor, share});
                        ++moves_of_part.per_bucket[buckets.of(move.successor)];
                    }
                }
            };
            policy.choose_for_each_piece(std::span<const BoardId>(layer.ids).subspan(first, end - first), geometry,
                                         record);
        });
        result.probability.push_back(std::accumulate(ends.begin(), ends.end(), 0.0));

        // 2. Scatter bucket-major, part-minor; sort and sum each bucket.
        bucket_start.assign(buckets.count + 1, 0);
        for (int part = 0; part < part_count; ++part)
            cursor[part].resize(buckets.count);
        std::size_t total = 0;
        for (std::size_t bucket = 0; bucket < buckets.count; ++bucket) {
            bucket_start[bucket] = total;
            for (int part = 0; part < part_count; ++part) {
                cursor[part][bucket] = total;
                total += parts[part].per_bucket[bucket];
            }
        }
        bucket_start[buckets.count] = total;
        scattered.resize(total);
        parallel_ranges(part_count, part_count, [&](int, std::uint64_t first, std::uint64_t end) {
            for (std::uint64_t part = first; part < end; ++part)
                for (const Edge& edge : parts[part].edges)
                    scattered[cursor[part][buckets.of(edge.successor)]++] = edge;
        });
        distinct.assign(buckets.count + 1, 0);
        const std::vector<std::size_t> cuts = balanced_cuts(bucket_start, threads);
        parallel_ranges(threads, threads, [&](int, std::uint64_t first_part, std::uint64_t end_part) {
            for (std::uint64_t bucket = cuts[first_part]; bucket < cuts[end_part]; ++bucket) {
                Edge* begin = scattered.data() + bucket_start[bucket];
                Edge* finish = scattered.data() + bucket_start[bucket + 1];
                sort_bucket(begin, finish);
                distinct[bucket] = sum_runs(begin, finish);
            }
        });

        // 3. Join the buckets into the next layer.
        next_start.assign(buckets.count + 1, 0);
        for (std::size_t bucket = 0; bucket < buckets.count; ++bucket)
            next_start[bucket + 1] = next_start[bucket] + distinct[bucket];
        next.ids.resize(next_start[buckets.count]);
        next.probability.resize(next_start[buckets.count]);
        parallel_ranges(threads, threads, [&](int, std::uint64_t first_part, std::uint64_t end_part) {
            for (std::uint64_t bucket = cuts[first_part]; bucket < cuts[end_part]; ++bucket)
                for (std::size_t i = 0; i < distinct[bucket]; ++i) {
                    const Edge& edge = scattered[bucket_start[bucket] + i];
                    next.ids[next_start[bucket] + i] = edge.successor;
                    next.probability[next_start[bucket] + i] = edge.probability;
                }
        });
        std::swap(layer, next);
    }
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.mean += double(k) * result.probability[k];
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.variance += (double(k) - result.mean) * (double(k) - result.mean) * result.probability[k];
    return result;
}

}  // namespace stack
