// stackgen --plan: what a run will need, said before anything is computed.
//
// From the shape, the piece set, the residue classes and the layout (ranks
// x threads, nodes), without allocating the band: the memory of one rank
// by part (capacity.h's rank_memory on rank 0's partition, the largest
// share of the cyclic dealing), the memory of a node, the disk for the
// table, the bytes that cross between ranks and nodes (traffic.h) and the
// time they take on the nodes' links, and a time from a cost model fitted
// on this project's own measurements (results/scale-out.md,
// scripts/scale-out).
#pragma once

#include "generate.h"
#include "support/json.h"

#include <cstdint>
#include <optional>
#include <string>

namespace stack {

struct PlanOptions {
    int ranks = 1;                             // --plan-ranks, or the launch's
    int nodes = 1;                             // --plan-nodes: the ranks spread evenly over them
    std::optional<std::uint64_t> node_memory;  // --plan-memory: bytes a node has (default: this node's available)
    std::optional<std::uint64_t> disk;         // --plan-disk: free bytes for the table (default: beside the output)
    std::optional<int> cores;                  // --plan-cores: cores a node (default: this node's)
    std::optional<std::uint64_t> gpu_memory;   // --plan-gpu-memory: bytes each rank's GPU has (with --gpu)
    // The byte counts as typed (128G), printed so rather than converted.
    std::string node_memory_text, disk_text, gpu_memory_text;
    double link_bits_per_second = 100e9;       // --plan-link: what a node's link carries each way
    double latency_seconds = 2e-6;             // --plan-latency-us: a message's
};

// The compute cost model: core-seconds = RowSeconds x rows + StateSeconds x
// stored states, per worker thread at full speed (scripts/scale-out fits it
// on 1 rank x 1 thread runs of this code; results/scale-out.md).
struct CostModel {
    double row_seconds;
    double state_seconds;
    double write_bytes_per_second;  // the writer thread's rate, which overlaps the rounds
};
CostModel measured_cost_model();

// The plan as JSON (every number it prints), and whether it fits: when not,
// `reason` says why.
Json make_plan(const GenerateOptions& options, const PlanOptions& plan, std::string& reason);
std::string plan_text(const Json& plan);

// Rank 0 prints the plan (text, or JSON with --json); throws InputError
// with the reason when the run would not fit. Collective (rank 0 decides).
void print_plan(const Communicator& comm, const GenerateOptions& options, const PlanOptions& plan);

}  // namespace stack
