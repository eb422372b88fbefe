#include "stacking/distribution.h"

#include "rules/compositions.h"
#include "support/parallel.h"

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
std::uint64_t edges_reserved(std::uint64_t largest, int pieces, int threads) {
    return std::min<std::uint64_t>(largest * std::uint64_t(pieces) / std::uint64_t(threads) + 1024,
                                   (std::uint64_t(1) << 30) / sizeof(Edge));
}

// [piece] -> its probability; unit weights keep the tetrominoes' 1/7 bits.
std::vector<double> piece_probabilities(const Rules& rules) {
    std::vector<double> probability(std::size_t(rules.piece_count()), 1.0 / double(rules.piece_count()));
    if (!rules.unit_weights())
        for (int piece = 0; piece < rules.piece_count(); ++piece)
            probability[std::size_t(piece)] = double(rules.weight(piece)) / double(rules.total_weight());
    return probability;
}

void finish(LengthDistribution& result) {
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.mean += double(k) * result.probability[k];
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.variance += (double(k) - result.mean) * (double(k) - result.mean) * result.probability[k];
}

// A move from a (board, moves) state of the mixed pass: the successor, its
// rank among the boards of its sum, the moves made then, the probability.
struct MixedEdge {
    std::uint64_t rank;
    std::uint64_t moves;
    BoardId successor;
    double probability;
};

// The pass for pieces of different sizes (distribution.h). pending[s mod
// (K+1)] holds the edges into sum s, in the order their sources were
// visited (sums ascending, each sum's states in order, then pieces); when s
// comes, a stable sort by (rank, moves) puts equal states together in that
// order, and their probabilities are added left to right. Parts of a sum's
// states run on threads and their edges are appended part by part, so the
// order, and the bits, do not depend on the number of threads.
LengthDistribution mixed_length_distribution(const StackingPolicy& policy, const Geometry& geometry, BoardId start,
                                             int threads, std::uint64_t memory_limit) {
    const Rules& rules = policy.rules();
    const CompositionCodec ranking(geometry.width(), geometry.height());
    const std::vector<double> piece_probability = piece_probabilities(rules);
    const int most = rules.most_cells();
    std::vector<std::vector<MixedEdge>> pending(std::size_t(most) + 1);
    std::uint64_t pending_edges = 0;
    LengthDistribution result;
    const int start_sum = geometry.height_sum(start);
    pending[std::size_t(start_sum % (most + 1))].push_back(
        {ranking.rank(geometry.decode(start).data()), 0, start, 1.0});
    pending_edges = 1;
    std::vector<BoardId> ids;
    std::vector<std::uint64_t> moves_made;
    std::vector<double> probability, ends;
    // [part][cells - 1] -> the part's edges into the sum `cells` further
    std::vector<std::vector<std::vector<MixedEdge>>> parts(
        static_cast<std::size_t>(threads), std::vector<std::vector<MixedEdge>>(static_cast<std::size_t>(most)));
    for (int sum = start_sum; sum <= ranking.max_sum() && pending_edges > 0; ++sum) {
        std::vector<MixedEdge>& into = pending[std::size_t(sum % (most + 1))];
        pending_edges -= into.size();
        std::stable_sort(into.begin(), into.end(), [](const MixedEdge& a, const MixedEdge& b) {
            return a.rank != b.rank ? a.rank < b.rank : a.moves < b.moves;
        });
        ids.clear(), moves_made.clear(), probability.clear();
        for (const MixedEdge& edge : into) {
            if (!ids.empty() && ids.back() == edge.successor && moves_made.back() == edge.moves) {
                probability.back() += edge.probability;
                continue;
            }
            ids.push_back(edge.successor), moves_made.push_back(edge.moves), probability.push_back(edge.probability);
        }
        into.clear();
        into.shrink_to_fit();
        if (ids.empty())
            continue;
        result.boards += ids.size();
        result.widest_layer = std::max<std::uint64_t>(result.widest_layer, ids.size());
        ends.assign(ids.size(), 0.0);
        const int part_count = int(std::min<std::size_t>(std::size_t(threads), ids.size()));
        parallel_ranges(part_count, ids.size(), [&](int part, std::uint64_t first, std::uint64_t end) {
            for (std::vector<MixedEdge>& edges : parts[std::size_t(part)])
                edges.clear();
            policy.choose_for_each_piece(
                std::span<const BoardId>(ids).subspan(first, end - first), geometry,
                [&](std::size_t index, const Heights& heights, const PieceMoves& moves) {
                    const std::size_t i = first + index;
                    for (int piece = 0; piece < rules.piece_count(); ++piece) {
                        const Move& move = moves[std::size_t(piece)];
                        const double share = probability[i] * piece_probability[std::size_t(piece)];
                        if (move.orientation < 0) {
                            ends[i] += share;
                            continue;
                        }
                        const int cells = rules.cells(piece);
                        const Heights after = policy.placements().after(heights, move.orientation, move.column);
                        parts[std::size_t(part)][std::size_t(cells - 1)].push_back(
                            {ranking.rank(after.data(), sum + cells), moves_made[i] + 1, move.successor, share});
                    }
                });
        });
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (result.probability.size() <= moves_made[i])
                result.probability.resize(moves_made[i] + 1, 0.0);
            result.probability[moves_made[i]] += ends[i];
        }
        for (int cells = 1; cells <= most; ++cells)
            for (int part = 0; part < part_count; ++part) {
                const std::vector<MixedEdge>& edges = parts[std::size_t(part)][std::size_t(cells - 1)];
                std::vector<MixedEdge>& target = pending[std::size_t((sum + cells) % (most + 1))];
                target.insert(target.end(), edges.begin(), edges.end());
                pending_edges += edges.size();
            }
        if (memory_limit > 0 && pending_edges * sizeof(MixedEdge) > memory_limit)
            throw DistributionTooLarge("the pass for pieces of different sizes holds " + std::to_string(pending_edges)
                                       + " pending states, more than the memory limit allows");
    }
    finish(result);
    return result;
}

}  // namespace

std::uint64_t exact_distribution_bytes(const Geometry& geometry, int pieces, int threads) {
    threads = std::max(threads, 1);
    const std::uint64_t largest = largest_class(CompositionCodec(geometry.width(), geometry.height()));
    return largest * (sizeof(double) + sizeof(BoardId))        // the slots
           + 2 * largest * (sizeof(BoardId) + sizeof(double))  // this layer and the next
           + std::uint64_t(threads) * edges_reserved(largest, pieces, threads) * sizeof(Edge);
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
LengthDistribution exact_length_distribution(const StackingPolicy& policy, const Geometry& geometry, BoardId start,
                                             int threads, std::uint64_t memory_limit) {
    if (!policy.deterministic())
        throw std::logic_error("the exact length distribution needs a deterministic policy");
    threads = std::max(threads, 1);
    const Rules& rules = policy.rules();
    if (!rules.equal_cells())
        return mixed_length_distribution(policy, geometry, start, threads, memory_limit);
    const CompositionCodec ranking(geometry.width(), geometry.height());
    const std::uint64_t largest = largest_class(ranking);
    // Buffers live across layers: fresh pages from the kernel cost more
    // than the pass itself.
    std::vector<double> slot_probability(largest, 0.0);  // [rank] -> probability so far
    std::vector<BoardId> slot_id(largest);               // [rank] -> the board, once touched
    // Each part's moves, reserved once, so they never grow by copying.
    std::vector<std::vector<Edge>> parts(threads);
    for (std::vector<Edge>& edges : parts)
        edges.reserve(edges_reserved(largest, rules.piece_count(), threads));
    std::vector<double> ends;  // [board of the layer] -> probability that the game ends on it
    std::vector<std::uint64_t> found(threads + 1);
    LengthDistribution result;
    Layer layer{{start}, {1.0}}, next;
    const int cells = rules.most_cells();
    int next_sum = geometry.height_sum(start) + cells;
    const std::vector<double> piece_probability = piece_probabilities(rules);
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
            const auto record = [&](std::size_t index, const Heights& heights, const PieceMoves& moves) {
                const std::size_t i = first + index;
                for (int piece = 0; piece < rules.piece_count(); ++piece) {
                    const Move& move = moves[std::size_t(piece)];
                    const double share = layer.probability[i] * piece_probability[std::size_t(piece)];
                    if (move.orientation < 0) {
                        ends[i] += share;
                        continue;
                    }
                    const Heights after = policy.placements().after(heights, move.orientation, move.column);
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
        next_sum += cells;
    }
    finish(result);
    return result;
}

}  // namespace stack
