#include "distribution.h"

#include "rules/compositions.h"
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

// A move of some board of the layer: its successor, the successor's rank
// among the boards of the next layer's height sum, and the probability it
// carries there.
struct Edge {
    std::uint64_t rank;
    BoardId successor;
    double probability;
};

std::uint64_t largest_class(const CompositionCodec& ranking) {
    std::uint64_t largest = 0;
    for (int sum = 0; sum <= ranking.max_sum(); ++sum)
        largest = std::max(largest, ranking.count(sum));
    return largest;
}

// Each part's moves are reserved once for the largest layer there can be,
// at most 1 GB each.
std::uint64_t edges_reserved(std::uint64_t largest, int threads) {
    return std::min<std::uint64_t>(largest * PieceCount / threads + 1024, (std::uint64_t(1) << 30) / sizeof(Edge));
}

}  // namespace

std::uint64_t exact_distribution_bytes(const Geometry& geometry, int threads) {
    threads = std::max(threads, 1);
    const std::uint64_t largest = largest_class(CompositionCodec(geometry.width(), geometry.height()));
    return largest * (sizeof(double) + sizeof(BoardId))                  // the slots
           + 2 * largest * (sizeof(BoardId) + sizeof(double))            // this layer and the next
           + std::uint64_t(threads) * edges_reserved(largest, threads) * sizeof(Edge);
}

// Every board of a layer has the same height sum, so the next layer's
// boards are ranked densely by CompositionCodec, in id order. Each layer
// goes in three parallel steps whose results do not depend on the number of
// threads:
//  1. parts (contiguous ranges of the layer) list their moves in layer order,
//     then piece order;
//  2. each thread owns a range of ranks and adds, in that same order (part
//     by part), every move landing in its range to the successor's slot: so
//     each successor's probability is the same left fold of the same terms
//     for any number of threads (0 + a is exactly a);
//  3. the touched slots, read in rank order, are the next layer, ids
//     ascending; reading a slot clears it for the next layer.
LengthDistribution exact_length_distribution(const Policy& policy, const Geometry& geometry, BoardId start,
                                             int threads) {
    if (!policy.deterministic())
        throw std::logic_error("the exact length distribution needs a deterministic policy");
    threads = std::max(threads, 1);
    const CompositionCodec ranking(geometry.width(), geometry.height());
    const std::uint64_t largest = largest_class(ranking);
    // Buffers live across layers: fresh pages from the kernel cost more
    // than the pass itself.
    std::vector<double> slot_probability(largest, 0.0);  // [rank] -> probability so far
    std::vector<BoardId> slot_id(largest);                // [rank] -> the board, once touched
    // Each part's moves, reserved once, so they never grow by copying.
    std::vector<std::vector<Edge>> parts(threads);
    for (std::vector<Edge>& edges : parts)
        edges.reserve(edges_reserved(largest, threads));
    std::vector<double> ends;  // [board of the layer] -> probability that the game ends on it
    std::vector<std::uint64_t> found(threads + 1);
    LengthDistribution result;
    Layer layer{{start}, {1.0}}, next;
    int next_sum = geometry.height_sum(start) + CellsPerPiece;
    constexpr double PieceProbability = 1.0 / double(PieceCount);
    while (!layer.ids.empty()) {
        const std::size_t size = layer.ids.size();
        result.boards += size;
        result.widest_layer = std::max<std::uint64_t>(result.widest_layer, size);

        // 1. Moves, per part.
        const int part_count = int(std::min<std::size_t>(threads, size));
        ends.assign(size, 0.0);
        parallel_ranges(part_count, size, [&](int part, std::uint64_t first, std::uint64_t end) {
            std::vector<Edge>& edges = parts[part];
            edges.clear();
            const auto record = [&](std::size_t index, const Heights& heights,
                                    const std::array<Move, PieceCount>& moves) {
                const std::size_t i = first + index;
                const double share = layer.probability[i] * PieceProbability;
                for (const Move& move : moves) {
                    if (move.orientation < 0) {
                        ends[i] += share;
                        continue;
                    }
                    const Heights after = heights_after(heights, move.orientation, move.column);
                    const std::uint64_t rank = ranking.rank(after.data(), next_sum);
                    edges.push_back({rank, move.successor, share});
                }
            };
            policy.choose_for_each_piece(std::span<const BoardId>(layer.ids).subspan(first, end - first), geometry,
                                         record);
        });
        result.probability.push_back(std::accumulate(ends.begin(), ends.end(), 0.0));

        // 2. Each thread adds the moves into its range of ranks, in order.
        const std::uint64_t ranks = ranking.count(next_sum);
        parallel_ranges(threads, ranks, [&](int, std::uint64_t low, std::uint64_t high) {
            for (int part = 0; part < part_count; ++part)
                for (const Edge& edge : parts[part])
                    if (edge.rank >= low && edge.rank < high) {
                        slot_probability[edge.rank] += edge.probability;
                        slot_id[edge.rank] = edge.successor;
                    }
        });

        // 3. The touched slots in rank order: count per range, then copy.
        const int range_count = int(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(ranks, 1)));
        std::fill(found.begin(), found.end(), 0);
        parallel_ranges(range_count, ranks, [&](int range, std::uint64_t low, std::uint64_t high) {
            for (std::uint64_t rank = low; rank < high; ++rank)
                found[range + 1] += slot_probability[rank] > 0.0;
        });
        std::partial_sum(found.begin(), found.end(), found.begin());
        next.ids.resize(found[range_count]);
        next.probability.resize(found[range_count]);
        parallel_ranges(range_count, ranks, [&](int range, std::uint64_t low, std::uint64_t high) {
            std::uint64_t out = found[range];
            for (std::uint64_t rank = low; rank < high; ++rank)
                if (slot_probability[rank] > 0.0) {
                    next.ids[out] = slot_id[rank];
                    next.probability[out++] = slot_probability[rank];
                    slot_probability[rank] = 0.0;
                }
        });
        std::swap(layer, next);
        next_sum += CellsPerPiece;
    }
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.mean += double(k) * result.probability[k];
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.variance += (double(k) - result.mean) * (double(k) - result.mean) * result.probability[k];
    return result;
}

}  // namespace stack
