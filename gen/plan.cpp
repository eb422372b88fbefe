#include "plan.h"

#include "band.h"
#include "capacity.h"
#include "checkpoint.h"
#include "gpu_rounds.h"
#include "output.h"
#include "support/cli.h"
#include "support/errors.h"
#include "support/parallel.h"
#include "traffic.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace stack {

namespace {

// A worker thread's own arrays: its kernel's best-successor rows and its
// ring of prepared slices (well under this for every built-in set).
constexpr double ThreadBytes = 1 << 20;

// A number as short as it reads: 2, 0.5, 2.5.
std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// Seconds to two digits at least: 1661, 14, 4.1, 0.0067.
std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, seconds >= 10 ? "%.0f" : "%.2g", seconds);
    return text;
}

// 100e9 -> "100 Gbit/s".
std::string bit_rate(double bits) {
    static const char* const units[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s", "Pbit/s"};
    int unit = 0;
    while (bits >= 1000 && unit < 5) {
        bits /= 1000;
        ++unit;
    }
    return number(bits) + " " + units[unit];
}

// A byte count in the unit the user typed its limit in (--plan-memory 128G:
// 140.2G, G being 2^30 as parse_bytes_option reads it), else human_bytes.
std::string bytes_as_typed(double bytes, const std::string& typed) {
    if (typed.empty())
        return human_bytes(bytes);
    const int shift = byte_unit_shift(typed.back());
    if (shift == 0)
        return with_commas(std::uint64_t(std::llround(bytes))) + " bytes";
    char text[32];
    const double value = std::ldexp(bytes, -shift);
    std::snprintf(text, sizeof text, value >= 100 ? "%.0f%c" : "%.3g%c", value, typed.back());
    return text;
}

}  // namespace

// Fitted by scripts/scale-out on 1 x 1 runs of this code on the 2-core
// development machine, least squares on the relative error over six wells
// from 6x20 to 9x10 (within 15% of each); the writer's rate is its median
// on 7x20 class 0 there (results/scale-out.md gives the runs and the fit).
CostModel measured_cost_model() { return {90.3e-9, 8.3e-9, 1.5e9}; }

namespace {

// What the model was fitted on, and how the walls of whole runs compared
// with it there: the fit is within 15% of the compute of 1 x 1 runs, but a
// run's wall adds start-up (0.6 s) and the table's checks, and a second
// thread on a 2-core machine is not a whole core: walls of 1 x 1 and 1 x 2
// runs of 6x20 and 7x16 class 0 were 1.27 to 2.62 times the plan, and
// issue 38 saw 1.5 to 2.5 (results/scale-out.md, "The plan against whole
// runs"). The plan prints its time as that range.
constexpr const char* ModelFittedOn =
    "1 rank x 1 thread runs of 6x20 to 9x10 on this project's 2-core machine (results/scale-out.md)";
constexpr double ModelWallsLow = 1.2, ModelWallsHigh = 2.6;

}  // namespace

// The plan runs the run's own checks first: the options among themselves
// and the output on disk (generate.h), then the shape's lower bounds
// (capacity.h), which refuse a well far too large from formulas alone, as
// the run does. Only then is anything counted, and from a counting
// partition (partition.h) that lists nothing: any well answers at once.
Json make_plan(const GenerateOptions& options, const PlanOptions& plan, std::string& reason) {
    check_options(options);
    check_sweep_ranks(options, plan.ranks);
    const Geometry geometry(options.width, options.height);
    const Rules rules(options.pieces);
    rules.check_fits(geometry);
    const ResidueSet residues = options.residues ? *options.residues : ResidueSet::all(rules.modulus());
    if (residues.modulus() != rules.modulus())
        throw InputError("the residue classes are taken mod " + std::to_string(rules.modulus()) + " for "
                         + rules.set().name());
    const std::string output = output_path(options);
    if (!options.no_output)
        check_output_state(
            options, output,
            options.resume || (options.resume_if_partial && ::access(partial_name(output).c_str(), F_OK) == 0));
    const int ranks_per_node = (plan.ranks + plan.nodes - 1) / plan.nodes;
    // The planned node's cores, and --threads 0 resolved on them: a rank
    // bound to its share of the node, as docs/scale.md binds.
    const int cores = plan.cores ? *plan.cores : node_cores();
    const int threads = options.threads > 0 ? options.threads : std::max(1, cores / ranks_per_node);
    const double thread_bytes = ThreadBytes * threads;
    const double available = plan.node_memory ? double(*plan.node_memory) : double(available_memory_bytes());
    const double disk = options.no_output ? -1.0 : plan.disk ? double(*plan.disk) : free_disk_bytes(output);
    const auto memory_text = [&](double bytes) { return bytes_as_typed(bytes, plan.node_memory_text); };
    const auto disk_text = [&](double bytes) { return bytes_as_typed(bytes, plan.disk_text); };
    Json head = {{"width", geometry.width()},
                 {"height", geometry.height()},
                 {"pieces", rules.set().name()},
                 {"residue_classes", residues.list()},
                 {"residue_modulus", residues.modulus()},
                 {"precision", precision_name(options.precision)},
                 {"band_precision", precision_name(options.band_precision)},
                 {"ranks", plan.ranks},
                 {"threads", threads},
                 {"nodes", plan.nodes},
                 {"cores_per_node", cores},
                 {"this_node",
                  {{"cores", !plan.cores.has_value()},
                   {"memory", !plan.node_memory.has_value()},
                   {"disk", !options.no_output && !plan.disk.has_value()}}},
                 {"node_memory_typed", plan.node_memory_text.empty() ? Json(nullptr) : Json(plan.node_memory_text)},
                 {"disk_typed", plan.disk_text.empty() ? Json(nullptr) : Json(plan.disk_text)},
                 {"states", geometry.states()},
                 {"node_available_bytes", available},
                 {"output", options.no_output ? Json(nullptr) : Json(output)},
                 {"disk_free_bytes", disk >= 0 ? Json(disk) : Json(nullptr)}};

    // The run's first check, from the shape alone.
    const bool mirrored = mirrored_table(options, rules);
    const CapacityBounds bounds =
        capacity_lower_bounds(geometry, rules, residues, mirrored, plan.ranks, options.precision,
                              options.band_precision, options.gpu, !options.spill.empty());
    const double least_node = bounds.rank_bytes * ranks_per_node;
    const bool memory_short = available > 0 && least_node > available;
    const bool disk_short = disk >= 0 && bounds.file_bytes > disk;
    if (memory_short || disk_short) {
        reason = memory_short
                     ? "a node needs at least " + memory_text(least_node) + " (" + std::to_string(ranks_per_node)
                           + (ranks_per_node == 1 ? " rank x " : " ranks x ") + memory_text(bounds.rank_bytes)
                           + ") but has " + memory_text(available)
                           + ": use more nodes, fewer residue classes, or a smaller well"
                     : "the table needs at least " + disk_text(bounds.file_bytes) + " of disk but " + disk_text(disk)
                           + " is free for " + output + ": use --no-output, or free some disk";
        head["lower_bounds"] = {{"rank_bytes", bounds.rank_bytes},
                                {"node_bytes", least_node},
                                {"file_bytes", options.no_output ? 0.0 : bounds.file_bytes}};
        head["fits"] = false;
        head["reason"] = reason;
        return head;
    }

    const RoundLayout layout(geometry, residues, mirrored);
    const Partition partition =
        Partition::counting(geometry, plan.ranks, 0, run_lower_columns(geometry, plan.ranks, mirrored));
    const RankMemory memory =
        rank_memory(partition, layout, rules, options.band_precision, options.gpu, options.clears,
                    !options.spill.empty());
    const double rank_bytes = memory.total() + thread_bytes;
    const double node_bytes = rank_bytes * ranks_per_node;
    const double file_bytes = options.no_output ? 0.0 : run_disk_bytes(layout, options.precision, options.clears);

    std::uint64_t rows = 0;
    for (int sum = 0; sum < layout.rounds(); ++sum)
        rows += layout.round_values(sum) > 0 ? layout.rows(sum) : 0;
    const CostModel model = measured_cost_model();
    const double core_seconds = model.row_seconds * double(rows) + model.state_seconds * double(layout.stored_states());
    // Threads beyond a node's cores wait for one.
    const double workers = double(plan.nodes) * std::min(double(ranks_per_node) * threads, double(cores));
    const double compute_seconds = core_seconds / workers;
    const double write_seconds = file_bytes / model.write_bytes_per_second / plan.nodes;

    // The network (traffic.h). The redistribution moves on each rank's main
    // thread between its rounds' compute; the exchange is posted after a
    // round and travels while the next computes where the rules allow
    // (Exchange::next_round_reads_none), but on a network-bound run the two
    // share the links and the overlap hides at most the compute (2-17% of
    // the rounds on the test cluster, results/cluster.md). So the model adds
    // the network's whole time to compute, an upper bound (only the writer
    // thread's disk writes are taken to overlap the rounds). The busiest node's link carries what that node
    // sends to other nodes at --plan-link bits a second (and, the traffic
    // being symmetric, receives as much the other way), and each collective
    // costs every rank one message to each other rank, --plan-latency-us
    // apiece, one after another (an upper bound: MPI overlaps some): three
    // collectives a round for the exchange, four a group of segments for
    // the redistribution. Ranks of one node talk through shared memory,
    // which the model takes as free: on one node the network costs nothing.
    const TrafficLayout traffic_layout{plan.ranks, plan.nodes, int(value_bytes(options.band_precision)),
                                       int(value_bytes(options.precision))};
    const PlannedTraffic traffic = planned_traffic(partition, rules, layout, traffic_layout);
    const bool crossing = plan.nodes > 1 && traffic.counted;
    const double link_bytes = plan.link_bits_per_second / 8;
    const double messages = double(plan.ranks - 1) * plan.latency_seconds;
    const double exchange_seconds =
        crossing ? traffic.node_exchange / link_bytes + double(traffic.exchange_collectives) * messages : 0.0;
    const double redistribute_seconds =
        crossing ? traffic.node_redistribute / link_bytes + double(traffic.redistribute_collectives) * messages : 0.0;
    const double network_seconds = exchange_seconds + redistribute_seconds;
    const auto whole = [](double bytes) { return std::uint64_t(std::llround(bytes)); };
    Json network = nullptr;
    if (traffic.counted)
        network = {{"exact", traffic.exchange_exact && traffic.redistribute_exact},
                   {"exchange_exact", traffic.exchange_exact},
                   {"sampled_ranks", traffic.sampled_ranks},
                   {"sampled_fraction", traffic.sampled_fraction},
                   {"redistribute_exact", traffic.redistribute_exact},
                   {"ranks_per_node", traffic.ranks_per_node},
                   {"exchange_bytes", whole(traffic.exchange)},
                   {"exchange_bytes_between_nodes", whole(traffic.exchange_between_nodes)},
                   {"redistribute_bytes", whole(traffic.redistribute)},
                   {"redistribute_bytes_between_nodes", whole(traffic.redistribute_between_nodes)},
                   {"bytes_between_nodes", whole(traffic.exchange_between_nodes + traffic.redistribute_between_nodes)},
                   {"bytes_per_node_between_nodes", whole(traffic.node_total)},
                   {"link_bits_per_second", plan.link_bits_per_second},
                   {"latency_seconds", plan.latency_seconds},
                   {"exchange_seconds", exchange_seconds},
                   {"redistribute_seconds", redistribute_seconds},
                   {"seconds", network_seconds}};

    // A GPU run: the device's band, and what its kernel and copies move
    // (every placement reads its successor's value once, every state is
    // written once, and every round comes back to the host; on one rank
    // without a file only the row sum 0 round does: the digest is the
    // device's, GpuRounds::digest_on_device).
    Json gpu = nullptr;
    std::string gpu_reason;
    if (options.gpu) {
        const int value_size = int(value_bytes(options.band_precision));
        const GpuMemory device =
            gpu_memory(partition, layout, rules, value_size, memory.ghosts, GpuPlannedBlockShared, options.clears);
        std::uint64_t connections = 0;
        for (const std::uint64_t count : connections_of_rounds(rules, layout, std::size_t(layout.rounds())))
            connections += count;
        const double kernel_bytes = double(connections + layout.stored_states()) * value_size;
        // A sweep also keeps each round (a copy: read and write) and reads
        // it and the last sweep's for the change: 4 reads or writes a value.
        const double sweep_bytes =
            options.clears != Clears::None ? 4.0 * double(layout.stored_states()) * sizeof(double) : 0.0;
        // A GPU's sweep (--clears) digests on the device too: only the
        // sweeps written come back, and the figures are one sweep's.
        const bool digest_on_device = (options.no_output || options.clears != Clears::None) && plan.ranks == 1;
        const double copy_bytes =
            double(digest_on_device ? layout.round_values(0) : layout.stored_states()) * value_size;
        const SliceBlockShape shape = slice_block_shape(partition, rules, layout, value_size);
        gpu = {{"bytes",
                {{"band", device.band},
                 {"ghosts", device.ghosts},
                 {"chunks", device.chunks},
                 {"scratch", device.scratch},
                 {"sweeps", device.sweeps},
                 {"total", device.total()}}},
               {"memory_bytes", plan.gpu_memory ? Json(*plan.gpu_memory) : Json(nullptr)},
               {"memory_typed", plan.gpu_memory_text.empty() ? Json(nullptr) : Json(plan.gpu_memory_text)},
               {"kernel_bytes", kernel_bytes},
               {"sweep_bytes", sweep_bytes},
               {"copy_bytes", copy_bytes},
               {"block_shared_bytes", shape.bytes()},
               {"kernel_seconds_at_1TBps", kernel_bytes / plan.ranks / 1e12},
               {"copy_seconds_at_20GBps", copy_bytes / plan.ranks / 20e9}};
        if (plan.gpu_memory && device.total() + GpuMarginBytes > double(*plan.gpu_memory))
            gpu_reason = "each rank's GPU needs " + human_bytes(device.total()) + " (band " + human_bytes(device.band)
                         + ") and " + human_bytes(GpuMarginBytes) + " to spare but has "
                         + bytes_as_typed(double(*plan.gpu_memory), plan.gpu_memory_text) + ": use "
                         + std::string(value_size == int(sizeof(double)) ? "--band-precision float32, " : "")
                         + "more ranks (GPUs), fewer residue classes, or a smaller well";
    }

    reason.clear();
    if (!gpu_reason.empty())
        reason = gpu_reason;
    else if (available > 0 && node_bytes > available)
        reason = "a node needs " + memory_text(node_bytes) + " (" + std::to_string(ranks_per_node)
                 + (ranks_per_node == 1 ? " rank x " : " ranks x ") + memory_text(rank_bytes) + ") but has "
                 + memory_text(available) + ": use more nodes, fewer residue classes, or a smaller well";
    else if (disk >= 0 && file_bytes > disk)
        reason = "the table needs " + disk_text(file_bytes) + " of disk but " + disk_text(disk) + " is free for "
                 + output + ": use --no-output, or free some disk";
    else if (const double spill_free = options.spill.empty() ? -1.0 : free_disk_bytes(options.spill + "/band");
             spill_free >= 0 && memory.spilled * ranks_per_node > spill_free)
        reason = "the band spilled to " + options.spill + " needs " + human_bytes(memory.spilled * ranks_per_node)
                 + " of disk a node but " + human_bytes(spill_free)
                 + " is free there: free some disk, or spill elsewhere";
    const double estimate = std::max(compute_seconds + network_seconds, write_seconds);
    Json body = {{"workers", workers},
                 {"stored_states", layout.stored_states()},
                 {"rows", rows},
                 {"rounds", layout.rounds()},
                 {"band_rounds", host_rounds(rules, options.gpu)},
                 {"band",
                  {{"first_sum", memory.band_peak.first_sum >= 0 ? Json(memory.band_peak.first_sum) : Json(nullptr)},
                   {"round_bytes", memory.band_peak.round_bytes},
                   {"values", memory.band_peak.values_bytes},
                   {"slice_starts", memory.band_peak.slice_bytes},
                   {"total", memory.band},
                   {"spill", options.spill.empty() ? Json(nullptr) : Json(options.spill)},
                   {"spilled", memory.spilled}}},
                 {"rank_counts_exact", partition.rows_counted_exactly()},
                 {"rank_bytes",
                  {{"band", memory.band},
                   {"ghosts", memory.ghosts},
                   {"writer", memory.writer},
                   {"process", memory.process},
                   {"chunks", memory.chunks},
                   {"targets", memory.targets},
                   {"floor", memory.floor},
                   {"threads", thread_bytes},
                   {"total", rank_bytes}}},
                 {"node_bytes", node_bytes},
                 {"file_bytes", file_bytes},
                 {"model",
                  {{"row_ns", model.row_seconds * 1e9},
                   {"state_ns", model.state_seconds * 1e9},
                   {"write_bytes_per_second", model.write_bytes_per_second},
                   {"fitted_on", ModelFittedOn},
                   {"walls_over_model", {ModelWallsLow, ModelWallsHigh}}}},
                 {"network", network},
                 {"seconds",
                  {{"compute", compute_seconds},
                   {"network", network_seconds},
                   {"write", write_seconds},
                   {"estimate", estimate},
                   {"range", {estimate * ModelWallsLow, estimate * ModelWallsHigh}}}},
                 {"gpu", gpu},
                 {"fits", reason.empty()},
                 {"reason", reason.empty() ? Json(nullptr) : Json(reason)}};
    for (auto& [key, value] : body.items())
        head[key] = value;
    return head;
}

std::string plan_text(const Json& p) {
    std::string text;
    char line[512];
    const auto bytes = [](const Json& value) { return human_bytes(value.get<double>()); };
    // Memory and disk in the unit the limit was typed in, when typed.
    const auto typed = [&](const char* key) { return p[key].is_null() ? std::string() : p[key].get<std::string>(); };
    const auto memory = [&](const Json& value) {
        return bytes_as_typed(value.get<double>(), typed("node_memory_typed"));
    };
    const auto disk = [&](const Json& value) { return bytes_as_typed(value.get<double>(), typed("disk_typed")); };
    const auto box = [&](const char* part) { return p["this_node"][part].get<bool>() ? " on this node" : ""; };
    std::string classes;
    for (const Json& residue : p["residue_classes"])
        classes += (classes.empty() ? "" : ",") + std::to_string(residue.get<int>());
    std::snprintf(line, sizeof line, "stackgen --plan: %dx%d well, %s, %d rank%s x %d thread%s on %d node%s\n",
                  p["width"].get<int>(), p["height"].get<int>(), p["pieces"].get<std::string>().c_str(),
                  p["ranks"].get<int>(), p["ranks"].get<int>() == 1 ? "" : "s", p["threads"].get<int>(),
                  p["threads"].get<int>() == 1 ? "" : "s", p["nodes"].get<int>(),
                  p["nodes"].get<int>() == 1 ? "" : "s");
    text += line;
    if (p.contains("lower_bounds")) {
        // Refused from the shape alone, before anything was counted.
        const Json& least = p["lower_bounds"];
        std::snprintf(line, sizeof line, "  states            %s (height sum mod %d in {%s})\n",
                      with_commas(p["states"].get<std::uint64_t>()).c_str(), p["residue_modulus"].get<int>(),
                      classes.c_str());
        text += line;
        std::snprintf(line, sizeof line, "  memory per node   at least %s (%s a rank) of %s available%s\n",
                      memory(least["node_bytes"]).c_str(), memory(least["rank_bytes"]).c_str(),
                      memory(p["node_available_bytes"]).c_str(), box("memory"));
        text += line;
        if (!p["output"].is_null()) {
            std::snprintf(line, sizeof line, "  disk              at least %s for %s, %s free%s\n",
                          disk(least["file_bytes"]).c_str(), p["output"].get<std::string>().c_str(),
                          p["disk_free_bytes"].is_null() ? "unknown" : disk(p["disk_free_bytes"]).c_str(), box("disk"));
            text += line;
        }
        return text + "  fits              no: " + p["reason"].get<std::string>() + "\n";
    }
    const Json& rank = p["rank_bytes"];
    std::snprintf(line, sizeof line,
                  "  states            %s stored (height sum mod %d in {%s}) of %s, in %s rows, %d rounds\n",
                  with_commas(p["stored_states"].get<std::uint64_t>()).c_str(), p["residue_modulus"].get<int>(),
                  classes.c_str(), with_commas(p["states"].get<std::uint64_t>()).c_str(),
                  with_commas(p["rows"].get<std::uint64_t>()).c_str(), p["rounds"].get<int>());
    text += line;
    std::snprintf(line, sizeof line,
                  "  memory per rank   %s: band %s (%d rounds, %s), ghosts %s, writer %s, chunk lists %s, process %s, "
                  "threads %s\n",
                  memory(rank["total"]).c_str(), memory(rank["band"]).c_str(), p["band_rounds"].get<int>(),
                  p["band_precision"].get<std::string>().c_str(), memory(rank["ghosts"]).c_str(),
                  memory(rank["writer"]).c_str(), memory(rank["chunks"]).c_str(), memory(rank["process"]).c_str(),
                  memory(rank["threads"]).c_str());
    text += line;
    // The band's parts: the rounds at its largest, each sized for itself
    // (a GPU's host: its rounds, each at most the largest).
    const Json& band = p["band"];
    std::string rounds;
    for (const Json& round : band["round_bytes"])
        rounds += (rounds.empty() ? "" : " + ") + memory(round);
    const int held = int(band["round_bytes"].size());
    if (band["first_sum"].is_null())
        std::snprintf(line, sizeof line,
                      "  band              %s: %d rounds each sized for the largest, values %s, "
                      "slice starts %s\n",
                      memory(band["total"]).c_str(), held, rounds.c_str(), memory(band["slice_starts"]).c_str());
    else
        std::snprintf(line, sizeof line,
                      "  band              %s at its largest, row sums %d..%d: values %s = %s, slice starts %s\n",
                      memory(band["total"]).c_str(), band["first_sum"].get<int>(),
                      band["first_sum"].get<int>() + held - 1, memory(band["values"]).c_str(), rounds.c_str(),
                      memory(band["slice_starts"]).c_str());
    text += line;
    if (!band["spill"].is_null()) {
        std::snprintf(line, sizeof line,
                      "  spilled           the band's values, %s a rank at their largest, in files in %s "
                      "(--spill): the page cache holds what memory allows, the rest is read back from disk, "
                      "which the time below leaves out (results/spill.md)\n",
                      memory(band["spilled"]).c_str(), band["spill"].get<std::string>().c_str());
        text += line;
    }
    if (rank["floor"].get<double>() > 0 && !p["gpu"].is_null()) {
        std::snprintf(line, sizeof line,
                      "  the whole table   live (--clears --gpu): the last sweep's table and this one's on the GPU "
                      "(below), a round %s on the host to write or resume a sweep through; the times below are "
                      "one sweep's, the disk the last sweep's table beside the one being written\n",
                      memory(rank["floor"]).c_str());
        text += line;
    } else if (rank["targets"].get<double>() > 0) {
        std::snprintf(line, sizeof line,
                      "  the whole table   live (--clears): the values the tetrises read %s a rank (the boards "
                      "at most H - 4 high), tetris successors %s; the times below are one sweep's, the disk the "
                      "last sweep's table beside the one being written\n",
                      memory(rank["targets"]).c_str(), memory(rank["floor"]).c_str());
        text += line;
    }
    std::snprintf(line, sizeof line, "  memory per node   %s of %s available%s\n", memory(p["node_bytes"]).c_str(),
                  memory(p["node_available_bytes"]).c_str(), box("memory"));
    text += line;
    if (p["output"].is_null())
        std::snprintf(line, sizeof line, "  disk              none (--no-output)\n");
    else
        std::snprintf(line, sizeof line, "  disk              %s for %s (%s table), %s free%s\n",
                      disk(p["file_bytes"]).c_str(), p["output"].get<std::string>().c_str(),
                      p["precision"].get<std::string>().c_str(),
                      p["disk_free_bytes"].is_null() ? "unknown" : disk(p["disk_free_bytes"]).c_str(), box("disk"));
    text += line;
    const Json& model = p["model"];
    const Json& network = p["network"];
    const bool nodes = p["nodes"].get<int>() > 1;
    std::string between_rounds;
    if (nodes && !network.is_null())
        between_rounds = ", network " + seconds_text(p["seconds"]["network"].get<double>()) + " s between rounds";
    std::snprintf(
        line, sizeof line,
        "  time              %s to %s s, the model's %s s x %s to %s: compute %s s on %.0f cores at full speed (%d a "
        "node%s; %.1f ns a row + %.1f ns a stored state, a core)%s, writing %s s overlapping it\n",
        seconds_text(p["seconds"]["range"][0].get<double>()).c_str(),
        seconds_text(p["seconds"]["range"][1].get<double>()).c_str(),
        seconds_text(p["seconds"]["estimate"].get<double>()).c_str(),
        number(model["walls_over_model"][0].get<double>()).c_str(),
        number(model["walls_over_model"][1].get<double>()).c_str(),
        seconds_text(p["seconds"]["compute"].get<double>()).c_str(), p["workers"].get<double>(),
        p["cores_per_node"].get<int>(), p["this_node"]["cores"].get<bool>() ? ", this node's" : "",
        model["row_ns"].get<double>(), model["state_ns"].get<double>(), between_rounds.c_str(),
        seconds_text(p["seconds"]["write"].get<double>()).c_str());
    text += line;
    std::snprintf(
        line, sizeof line, "  time model        fitted on %s, where whole runs took %s to %s times its time\n",
        model["fitted_on"].get<std::string>().c_str(), number(model["walls_over_model"][0].get<double>()).c_str(),
        number(model["walls_over_model"][1].get<double>()).c_str());
    text += line;
    if (nodes && network.is_null()) {
        text += "  network           not counted beyond " + with_commas(MostCountedRanks) + " ranks\n";
    } else if (nodes) {
        std::snprintf(line, sizeof line,
                      "  network           %s between nodes (exchange %s, redistribution %s), %s a node; %s s at "
                      "%s and %s us a message\n",
                      bytes(network["bytes_between_nodes"]).c_str(),
                      bytes(network["exchange_bytes_between_nodes"]).c_str(),
                      bytes(network["redistribute_bytes_between_nodes"]).c_str(),
                      bytes(network["bytes_per_node_between_nodes"]).c_str(),
                      seconds_text(network["seconds"].get<double>()).c_str(),
                      bit_rate(network["link_bits_per_second"].get<double>()).c_str(),
                      number(network["latency_seconds"].get<double>() * 1e6).c_str());
        text += line;
    }
    if (!p["gpu"].is_null()) {
        const Json& gpu = p["gpu"];
        std::snprintf(
            line, sizeof line, "  GPU memory        %s a rank: band %s, ghosts %s, chunk lists %s, scratch %s%s; %s\n",
            bytes(gpu["bytes"]["total"]).c_str(), bytes(gpu["bytes"]["band"]).c_str(),
            bytes(gpu["bytes"]["ghosts"]).c_str(), bytes(gpu["bytes"]["chunks"]).c_str(),
            bytes(gpu["bytes"]["scratch"]).c_str(),
            gpu["bytes"]["sweeps"].get<double>() > 0 ? (", two sweeps' tables " + bytes(gpu["bytes"]["sweeps"])).c_str()
                                                     : "",
            gpu["memory_bytes"].is_null()
                ? "not checked (give --plan-gpu-memory)"
                : ("the GPU has "
                   + bytes_as_typed(gpu["memory_bytes"].get<double>(), gpu["memory_typed"].is_null()
                                                                           ? std::string()
                                                                           : gpu["memory_typed"].get<std::string>()))
                      .c_str());
        text += line;
        std::snprintf(line, sizeof line,
                      "  GPU traffic       the kernel reads and writes %s (%.1f s a GPU at 1 TB/s achieved)%s; %s "
                      "come back to the host (%.1f s at 20 GB/s); a block a slice takes %s of shared memory\n",
                      bytes(gpu["kernel_bytes"]).c_str(), gpu["kernel_seconds_at_1TBps"].get<double>(),
                      gpu["sweep_bytes"].get<double>() > 0
                          ? (", keeping the sweep and its change " + bytes(gpu["sweep_bytes"])).c_str()
                          : "",
                      bytes(gpu["copy_bytes"]).c_str(), gpu["copy_seconds_at_20GBps"].get<double>(),
                      bytes(gpu["block_shared_bytes"]).c_str());
        text += line;
    }
    text += p["fits"].get<bool>() ? "  fits              yes\n"
                                  : "  fits              no: " + p["reason"].get<std::string>() + "\n";
    return text;
}

void print_plan(const Communicator& comm, const GenerateOptions& options, const PlanOptions& plan) {
    std::string reason;
    comm.on_root([&] {
        const Json document = make_plan(options, plan, reason);
        std::fputs(options.json ? json_text(document).c_str() : plan_text(document).c_str(), stdout);
        std::fflush(stdout);
    });
    comm.broadcast(reason);
    if (!reason.empty())
        throw InputError("the run does not fit: " + reason);
}

}  // namespace stack
