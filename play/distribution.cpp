#include "distribution.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace stack {

namespace {

using Layer = std::vector<std::pair<BoardId, double>>;  // (board id, probability), ids ascending and unique

// Sorts by id, keeping the order in which equal ids arrived, and sums them.
void merge_equal_boards(Layer& layer) {
    std::stable_sort(layer.begin(), layer.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < layer.size(); ++i) {
        if (kept > 0 && layer[kept - 1].first == layer[i].first)
            layer[kept - 1].second += layer[i].second;
        else
            layer[kept++] = layer[i];
    }
    layer.resize(kept);
}

}  // namespace

LengthDistribution exact_length_distribution(const Policy& policy, const Geometry& geometry, BoardId start) {
    if (!policy.deterministic())
        throw std::logic_error("the exact length distribution needs a deterministic policy");
    LengthDistribution result;
    Layer layer{{start, 1.0}}, next;
    constexpr double PieceProbability = 1.0 / double(PieceCount);
    while (!layer.empty()) {
        result.boards += layer.size();
        result.widest_layer = std::max<std::uint64_t>(result.widest_layer, layer.size());
        double ends_here = 0;
        next.clear();
        for (const auto& [id, probability] : layer) {
            const Heights heights = geometry.decode(id);
            const double share = probability * PieceProbability;
            for (int piece = 0; piece < PieceCount; ++piece) {
                const Move move = policy.choose(Turn{heights, id, Piece(piece), {}, nullptr});
                if (move.orientation < 0)
                    ends_here += share;
                else
                    next.emplace_back(move.successor, share);
            }
        }
        result.probability.push_back(ends_here);
        merge_equal_boards(next);
        std::swap(layer, next);
    }
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.mean += double(k) * result.probability[k];
    for (std::size_t k = 0; k < result.probability.size(); ++k)
        result.variance += (double(k) - result.mean) * (double(k) - result.mean) * result.probability[k];
    return result;
}

}  // namespace stack
