// The bytes a run moves between ranks, counted for a planned layout
// (stackgen --plan), and how many of them cross between nodes.
//
// Two kinds of bytes cross. After each round, the ghost-row exchange
// (exchange.h): a rank sends each of the round's rows that a placement on
// another rank reads to that rank, once per destination, as its first id (8
// bytes) and its row_length values at the band's precision. And the
// redistribution (round_writer.h): a rank sends the pieces of its rows that
// fall into another rank's file segment, at the file's precision; the run's
// bytes_redistributed counts the values alone, not the pieces' 16-byte
// headers, and so does the plan.
//
// Ranks are placed on nodes in blocks, as mpirun --map-by ppr:N:node places
// them: ranks_per_node = ceil(ranks / nodes) consecutive ranks a node. A
// byte crosses between nodes when its destination's node is not its
// source's.
#pragma once

#include "partition.h"
#include "rules/rules.h"
#include "table/table_format.h"

#include <cstdint>

namespace stack {

struct TrafficLayout {
    int ranks = 1;
    int nodes = 1;
    int band_value_size = 8;  // bytes a value in the band: the exchange's
    int file_value_size = 8;  // bytes a value in the file: the redistribution's
};

struct PlannedTraffic {
    bool counted = true;  // false beyond MostCountedRanks: nothing below is set
    int ranks_per_node = 1;
    // Bytes all ranks send, and those of them that cross between nodes.
    double exchange = 0, exchange_between_nodes = 0;
    double redistribute = 0, redistribute_between_nodes = 0;
    // The most one node sends to other nodes, of each kind and of both.
    double node_exchange = 0, node_redistribute = 0, node_total = 0;
    // Collectives of the run, each a message from every rank to every
    // other: the exchange's three a round (the counts' MPI_Alltoall, the ids'
    // and the values' MPI_Alltoallv), the redistribution's four a group of
    // segments (two counts, headers, values).
    std::uint64_t exchange_collectives = 0, redistribute_collectives = 0;
    // The exchange: every rank's every row walked, or a sample of ranks
    // (rank 0 and evenly spaced ones) and of their chunks, scaled up.
    bool exchange_exact = true;
    int sampled_ranks = 0;
    double sampled_fraction = 1;  // of all ranks' rows, walked
    // The redistribution: every chunk's slices cut at the segments, or every
    // segment assumed to hold each rank's share of its rows.
    bool redistribute_exact = true;
};

// The exchange's and the redistribution's bytes of a run of `layout`'s
// rounds in the planned layout; `first` is rank 0's partition of it. A few
// seconds at most: with many rows the exchange is sampled, and beyond
// MostCountedRanks ranks nothing is counted.
constexpr int MostCountedRanks = 1 << 20;
PlannedTraffic planned_traffic(const Partition& first, const Rules& rules, const RoundLayout& layout,
                               const TrafficLayout& planned);

}  // namespace stack
