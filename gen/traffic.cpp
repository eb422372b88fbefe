#include "traffic.h"

#include "exchange.h"
#include "partition.h"
#include "round_writer.h"
#include "support/communicator.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <vector>

namespace stack {

namespace {

// Rows the exchange's finder walks at most, over all ranks counted (about a
// second), and the ranks counted one by one at most (each costs the
// finder's arrays of one entry a rank, a few times over).
constexpr double WalkedRows = 1e6;
constexpr int MostExactRanks = 4096;
constexpr int SampledRanks = 4;
// Owned chunks of the ranks sampled at most: each rank's are counted by
// upper sum (Partition::owned_rows_per_round).
constexpr double WalkedChunks = 3e7;
// Slices the redistribution's exact count walks at most.
constexpr double WalkedSlices = 4e6;

struct RankSends {
    std::vector<double> bytes;  // [destination] over the run, from the rows walked
    double rows_walked = 0;
};

// The bytes one rank sends in the exchange over the run, by destination,
// found by the exchange's own finder (Exchange::find_slice and find_row,
// the run's code, reading the planned partition's rank and ranks rather
// than a communicator's) on every round's slice of each owned chunk kept,
// as find_sends_of_slice (solver.cpp) walks it. A row counts its first id
// and row_length values at the band's precision for each destination, as
// Exchange::run sends it. The finder is set up once for each residue of the
// row sum (the rounds of one residue store the same column-0 heights), its
// rows counted and dropped after each round: a row's place in the walk
// stands for its local index, so no row is marked twice, and only the
// destinations some placement reaches are looked at, whatever the ranks.
RankSends exchange_sends(const Communicator& self, const Partition& partition, const RoundLayout& layout,
                         const PlacementTable& placements, int band_value_size, std::uint64_t step) {
    const Geometry& geometry = partition.geometry();
    const Rules& set = placements.rules();
    const PlacementRules rules(partition, set);
    Exchange exchange(self, partition, placements, rules, layout.mirrored());
    std::vector<int> destinations;
    for (int o = 0; o < set.orientation_count(); ++o)
        for (int x = 0; x + set.orientation(o).width <= geometry.width(); ++x) {
            const int owner = rules(o, x).predecessor_owner;
            if (owner != partition.rank()
                && std::find(destinations.begin(), destinations.end(), owner) == destinations.end())
                destinations.push_back(owner);
        }
    RankSends sends;
    sends.bytes.assign(std::size_t(partition.ranks()), 0.0);
    if (destinations.empty())
        return sends;
    // The chunks walked by upper sum, found from their ids: the partition
    // may be a counting one (no list of upper sums).
    std::vector<std::vector<std::uint64_t>> by_upper_sum(std::size_t(partition.rounds()));
    for (std::uint64_t chunk = 0; chunk < partition.owned_chunks(); chunk += step)
        by_upper_sum[std::size_t(geometry.height_sum(partition.chunk_first(chunk)))].push_back(chunk);
    const int lower_most = std::max(partition.lower_columns() - 1, 0) * geometry.height();
    const int modulus = layout.residues().modulus();
    std::uint64_t walked = 0;
    for (int residue = 0; residue < std::min(modulus, partition.rounds()); ++residue) {
        exchange.begin_sends(layout.row_indices(residue));
        Exchange::Finder& finder = exchange.finder(0);
        finder.count_only = true;  // only how many: a huge well's sample holds nothing
        finder.counted.assign(std::size_t(partition.ranks()), 0);
        for (int sum = residue; sum < partition.rounds(); sum += modulus) {
            for (int upper = std::max(sum - lower_most, 0); upper <= sum; ++upper)
                for (const std::uint64_t chunk : by_upper_sum[std::size_t(upper)]) {
                    if (partition.lower_rows(sum - upper) == 0)
                        continue;
                    Heights heights = geometry.decode(partition.chunk_first(chunk));
                    exchange.find_slice(finder, heights);
                    const PlacementTable::Differences differences = placements.differences(heights);
                    partition.for_each_row_of_slice(heights, sum - upper, [&](std::uint64_t, const Heights& row) {
                        PlacementTable::Differences row_differences = differences;
                        set_row_differences(placements, row, partition.lower_columns(), row_differences);
                        exchange.find_row(finder, walked++, 0, layout.row_length(sum), row, row_differences);
                    });
                }
            const double row_bytes = double(sizeof(BoardId)) + double(layout.row_length(sum)) * band_value_size;
            for (const int destination : destinations) {
                sends.bytes[std::size_t(destination)] += double(finder.counted[std::size_t(destination)]) * row_bytes;
                finder.counted[std::size_t(destination)] = 0;
            }
        }
    }
    sends.rows_walked = double(walked);
    return sends;
}

// The exchange over all ranks. With few rows, every rank is walked whole,
// and each node's sends are its ranks'. Else rank 0 and evenly spaced ranks
// (as many as their chunks allow in about a second) are walked on every
// k-th owned chunk, k prime to H+1 so that the sample runs through every
// digit of the chunks' ids; each rank's bytes are scaled by its rows over
// the rows walked. Cyclic dealing makes every rank's sends, seen from it,
// much alike -- rank r sends to r + d what rank 0 sends to d -- so the
// sampled ranks' sends by offset, averaged, stand for every rank's, and a
// node of m ranks sends across what its ranks send to offsets that leave
// the block of m.
void count_exchange(const Geometry& geometry, const Rules& rules, const RoundLayout& layout,
                    const TrafficLayout& planned, const Partition& first, PlannedTraffic& traffic,
                    std::vector<double>& node_sends) {
    const int ranks = planned.ranks, per_node = traffic.ranks_per_node;
    double rows = 0;
    for (int sum = 0; sum < layout.rounds(); ++sum)
        rows += double(layout.rows(sum));
    const bool exact = rows <= WalkedRows && ranks <= MostExactRanks;
    const double chunks = std::max(double(first.owned_chunks()), 1.0);
    // Rank r owns the chunks r mod ranks, whose low digits (base H+1) are
    // those of r mod `alike`, the largest divisor of ranks made of H+1's
    // primes: ranks alike mod `alike` own alike chunks, and the ranks
    // sampled take different classes (all of them when they are few).
    std::uint64_t alike = 1;
    for (std::uint64_t common; (common = std::gcd(std::uint64_t(ranks) / alike, geometry.base())) > 1;)
        alike *= common;
    int sampled = exact ? ranks : std::clamp(int(WalkedChunks / chunks), 1, std::min(ranks, SampledRanks));
    if (!exact && alike > 1)
        sampled = int(std::min<std::uint64_t>(std::uint64_t(sampled), alike));
    const std::uint64_t spread = exact || alike == 1 ? std::uint64_t(ranks) : alike;
    std::uint64_t step = exact ? 1 : std::uint64_t(std::max(1.0, std::ceil(rows / ranks * sampled / WalkedRows)));
    while (step > 1 && std::gcd(step, geometry.base()) != 1)
        ++step;
    const Communicator self(MPI_COMM_SELF);
    const PlacementTable placements(geometry, rules);
    std::vector<double> by_offset(std::size_t(ranks), 0.0);  // [destination - rank mod ranks], the mean rank's
    double walked = 0;
    for (int i = 0; i < sampled; ++i) {
        const int rank = int(std::uint64_t(i) * spread / std::uint64_t(sampled));
        std::optional<Partition> own;
        if (rank != 0)
            own.emplace(Partition::counting(geometry, ranks, rank, first.lower_columns()));
        const Partition& partition = rank == 0 ? first : *own;
        const RankSends sends = exchange_sends(self, partition, layout, placements, planned.band_value_size, step);
        double owned = 0;
        for (const std::uint64_t count : partition.owned_rows_per_round())
            owned += double(count);
        const double scale = sends.rows_walked > 0 ? owned / sends.rows_walked : 0.0;
        walked += sends.rows_walked;
        for (int destination = 0; destination < ranks; ++destination) {
            const double bytes = sends.bytes[std::size_t(destination)] * scale;
            if (bytes == 0)
                continue;
            traffic.exchange += bytes * ranks / sampled;
            by_offset[std::size_t((destination - rank + ranks) % ranks)] += bytes / sampled;
            if (exact && destination / per_node != rank / per_node) {
                traffic.exchange_between_nodes += bytes;
                node_sends[std::size_t(rank / per_node)] += bytes;
            }
        }
    }
    traffic.exchange_exact = exact;
    traffic.sampled_ranks = sampled;
    traffic.sampled_fraction = rows > 0 ? walked / rows : 1.0;
    if (exact)
        return;
    std::vector<int> offsets;
    for (int offset = 1; offset < ranks; ++offset)
        if (by_offset[std::size_t(offset)] > 0)
            offsets.push_back(offset);
    // What a node of m ranks sends to other nodes: its ranks stand at
    // places 0..m-1 of its block, and the one at place p sends offset d
    // across when p + d lands past the block, m <= p + d < ranks (it cannot
    // wrap around into the block: m <= ranks), for min(m, ranks - d) -
    // max(0, m - d) places.
    const auto across = [&](int m) {
        double bytes = 0;
        for (const int offset : offsets)
            bytes +=
                by_offset[std::size_t(offset)] * std::max(0, std::min(m, ranks - offset) - std::max(0, m - offset));
        return bytes;
    };
    const double full = across(per_node);
    for (std::size_t node = 0; node < node_sends.size(); ++node) {
        const int m = std::min(per_node, ranks - int(node) * per_node);
        node_sends[node] = m == per_node ? full : across(m);
        traffic.exchange_between_nodes += node_sends[node];
    }
}

// The redistribution follows the writer's rule (RoundWriter::write): each
// round's rows, in id order, are cut into Segments, segment s written by
// rank s mod ranks; a rank sends the rows of its slices that fall into
// another rank's segment. With few slices, every chunk's slices (its rows
// are a run in the file, its owner the chunk mod ranks) are cut at the
// segments exactly. With many, a segment holds the rows of many chunks
// dealt cyclically, so each rank owns its share 1/ranks of it: a node of m
// ranks then sends m/ranks of every segment, (ranks - m)/ranks of them to
// segments written on other nodes.
void count_redistribution(const Partition& first, const RoundLayout& layout, const TrafficLayout& planned,
                          PlannedTraffic& traffic, std::vector<double>& node_sends) {
    const Geometry& geometry = first.geometry();
    const int ranks = planned.ranks, per_node = traffic.ranks_per_node, rounds = layout.rounds();
    const std::uint64_t size = std::uint64_t(planned.file_value_size);
    std::vector<RoundWriter::Segments> segments;
    for (int sum = 0; sum < rounds; ++sum) {
        segments.push_back(RoundWriter::Segments::of(layout.round_values(sum), size, std::uint64_t(ranks)));
        traffic.redistribute_collectives += 4 * (segments.back().count / std::uint64_t(ranks));
    }
    const int lower_columns = first.lower_columns();
    const CompositionCodec lower(std::max(lower_columns - 1, 0), geometry.height());
    const std::uint64_t chunk_size = geometry.place_value(lower_columns);
    const std::uint64_t chunks = geometry.states() / chunk_size;
    const bool exact = double(chunks) * (lower.max_sum() + 1) <= WalkedSlices && double(ranks) * rounds <= WalkedSlices;
    traffic.redistribute_exact = exact;
    const int nodes = (ranks + per_node - 1) / per_node;
    if (!exact) {
        double bytes = 0;
        for (int sum = 0; sum < rounds; ++sum)
            bytes += double(layout.round_values(sum)) * double(size);
        const double all = double(ranks);
        double own_node = 0;  // the sum of m^2
        for (int node = 0; node < nodes; ++node) {
            const double m = std::min(per_node, ranks - node * per_node);
            own_node += m * m;
            node_sends[std::size_t(node)] = bytes * m * (all - m) / (all * all);
        }
        traffic.redistribute = bytes * (all - 1) / all;
        traffic.redistribute_between_nodes = bytes * (1 - own_node / (all * all));
        return;
    }
    std::vector<std::uint64_t> next_value(std::size_t(rounds), 0), segment(std::size_t(rounds), 0);
    for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
        const int owner = int(chunk % std::uint64_t(ranks));
        const int upper = geometry.height_sum(chunk * chunk_size);
        const int top = geometry.decode(chunk * chunk_size)[geometry.width() - 1];
        for (int lower_sum = 0; lower_sum <= lower.max_sum() && upper + lower_sum < rounds; ++lower_sum) {
            const std::size_t sum = std::size_t(upper + lower_sum);
            const RoundWriter::Segments& cut = segments[sum];
            std::uint64_t from = next_value[sum], s = segment[sum];
            const std::uint64_t to = from + lower.count(lower_sum) * std::uint64_t(layout.row_length(int(sum), top));
            next_value[sum] = to;
            while (from < to) {
                while (cut.first_value(s + 1) <= from)
                    ++s;
                const std::uint64_t end = std::min(to, cut.first_value(s + 1));
                const int writer = int(s % std::uint64_t(ranks));
                if (writer != owner) {
                    const double bytes = double(end - from) * double(size);
                    traffic.redistribute += bytes;
                    if (writer / per_node != owner / per_node) {
                        traffic.redistribute_between_nodes += bytes;
                        node_sends[std::size_t(owner / per_node)] += bytes;
                    }
                }
                from = end;
            }
            segment[sum] = s;
        }
    }
}

}  // namespace

PlannedTraffic planned_traffic(const Partition& first, const Rules& rules, const RoundLayout& layout,
                               const TrafficLayout& planned) {
    const Geometry& geometry = first.geometry();
    PlannedTraffic traffic;
    traffic.ranks_per_node = (planned.ranks + planned.nodes - 1) / planned.nodes;
    if (planned.ranks > MostCountedRanks) {
        traffic.counted = false;
        return traffic;
    }
    if (planned.ranks == 1)
        return traffic;
    traffic.exchange_collectives = 3 * std::uint64_t(layout.rounds());
    const std::size_t nodes = std::size_t((planned.ranks + traffic.ranks_per_node - 1) / traffic.ranks_per_node);
    std::vector<double> exchanged(nodes, 0.0), redistributed(nodes, 0.0);
    count_exchange(geometry, rules, layout, planned, first, traffic, exchanged);
    count_redistribution(first, layout, planned, traffic, redistributed);
    for (std::size_t node = 0; node < nodes; ++node) {
        traffic.node_exchange = std::max(traffic.node_exchange, exchanged[node]);
        traffic.node_redistribute = std::max(traffic.node_redistribute, redistributed[node]);
        traffic.node_total = std::max(traffic.node_total, exchanged[node] + redistributed[node]);
    }
    return traffic;
}

}  // namespace stack
