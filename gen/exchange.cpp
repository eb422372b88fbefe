#include "exchange.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace stack {

// ---- GhostValues -----------------------------------------------------------

void GhostValues::clear() {
    std::fill(keys_.begin(), keys_.end(), Empty);
    size_ = 0;
}

std::size_t GhostValues::find(BoardId id) const {
    const std::size_t mask = keys_.size() - 1;
    std::size_t slot = (id * 0x9E3779B97F4A7C15ull) >> shift_;
    while (keys_[slot] != id && keys_[slot] != Empty)
        slot = (slot + 1) & mask;
    return slot;
}

void GhostValues::insert(BoardId id) {
    if (2 * (size_ + 1) > keys_.size())
        grow();
    const std::size_t slot = find(id);
    if (keys_[slot] == Empty) {
        keys_[slot] = id;
        ++size_;
    }
}

void GhostValues::grow() {
    std::vector<BoardId> old = std::move(keys_);
    const std::size_t capacity = old.empty() ? 1024 : 2 * old.size();
    keys_.assign(capacity, Empty);
    positions_.assign(capacity, 0);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    for (BoardId key : old)
        if (key != Empty)
            keys_[find(key)] = key;
}

std::size_t GhostValues::memory_bytes() const {
    return keys_.capacity() * sizeof(BoardId) + positions_.capacity() * sizeof(std::uint32_t)
           + received_.capacity() * sizeof(double);
}

// ---- Exchange --------------------------------------------------------------

Exchange::Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
                   const Routes& routes)
    : comm_(comm), partition_(partition), placements_(placements),
      send_counts_(comm.size()), send_offsets_(comm.size()), receive_counts_(comm.size()),
      receive_offsets_(comm.size()) {
    for (int o = 0; o < OrientationCount; ++o)
        for (int x = 0; x + Orientations[o].width <= partition.geometry().width(); ++x) {
            const Route& route = routes(o, x);
            if (route.successor_owner != comm.rank())
                remote_successors_.push_back({o, x, placements.offset(o, x), route.successor_owner});
            if (route.predecessor_owner != comm.rank())
                remote_predecessors_.push_back({o, x, placements.offset(o, x), route.predecessor_owner});
        }
}

void Exchange::plan(int low_sum, int high_sum) {
    const double start = MPI_Wtime();
    plan_receive(low_sum, high_sum);
    plan_send(low_sum + CellsPerPiece, high_sum + CellsPerPiece);
    check_counts_agree();
    times_.plan_seconds += MPI_Wtime() - start;
}

namespace {

// Calls visit(i) for every state i of a run (ids differing only in column 0,
// heights[0] = first_height + i) on which `holds(heights)` is true, without
// testing every state: a rule that does not touch column 0 holds for the
// whole run or for none of it, and a rule at column 0 that is wider than one
// column holds at most at the one column-0 height its surface allows
// (`fixed_height`). Only the vertical I at column 0 is tested state by state.
template <class Holds, class Visit>
void for_each_state_in_run(int column, int width, int fixed_height, Heights heights, int count, Holds&& holds,
                           Visit&& visit) {
    const int first_height = heights[0];
    if (column > 0) {
        if (holds(heights))
            for (int i = 0; i < count; ++i)
                visit(i);
        return;
    }
    const int low = width > 1 ? std::max(fixed_height, first_height) : first_height;
    const int high = width > 1 ? std::min(fixed_height, first_height + count - 1) : first_height + count - 1;
    for (int height = low; height <= high; ++height) {
        heights[0] = height;
        if (holds(heights))
            visit(height - first_height);
    }
}

}  // namespace

// Receiver side: the distinct remote successors of this rank's round states,
// laid out by source rank, increasing id within a source.
void Exchange::plan_receive(int low_sum, int high_sum) {
    ghosts_.clear();
    if (!remote_successors_.empty())
        partition_.for_each_run(low_sum, high_sum, [&](BoardId first, std::uint64_t, std::uint64_t count,
                                                       const Heights& heights) {
            for (const RemoteRule& rule : remote_successors_) {
                const Orientation& orientation = Orientations[rule.orientation];
                // fits at column 0 needs h1 - h0 == surface[0]
                const int fixed_height = heights[1] - orientation.surface[0];
                for_each_state_in_run(
                    rule.column, orientation.width, fixed_height, heights, int(count),
                    [&](const Heights& state) { return placements_.fits(state, rule.orientation, rule.column); },
                    [&](int i) { ghosts_.insert(first + i + rule.offset); });
            }
        });
    std::vector<std::vector<BoardId>> by_source(comm_.size());
    ghosts_.for_each_id([&](BoardId id) { by_source[partition_.owner(id)].push_back(id); });
    if (ghosts_.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::runtime_error("one round needs more than 2^32 remote values on one rank; use more ranks");
    std::uint32_t position = 0;
    for (int source = 0; source < comm_.size(); ++source) {
        std::sort(by_source[source].begin(), by_source[source].end());
        receive_offsets_[source] = static_cast<int>(position);
        receive_counts_[source] = static_cast<int>(by_source[source].size());
        for (BoardId id : by_source[source])
            ghosts_.set_position(id, position++);
    }
    receive_total_ = position;
    ghosts_.received().resize(position);
}

// Sender side: every owned state of sum low..high (the successor layer) once
// per other rank that owns one of its predecessors, increasing id order.
void Exchange::plan_send(int low_sum, int high_sum) {
    const int ranks = comm_.size();
    std::vector<std::vector<std::uint64_t>> by_destination(ranks);
    std::vector<std::pair<int, int>> marks;  // (state in run, destination rank) of one run
    if (!remote_predecessors_.empty())
        partition_.for_each_run(low_sum, high_sum, [&](BoardId, std::uint64_t first_local, std::uint64_t count,
                                                       const Heights& heights) {
            marks.clear();
            for (const RemoteRule& rule : remote_predecessors_) {
                const Orientation& orientation = Orientations[rule.orientation];
                // the predecessor's surface at column 0 needs
                // (h1 - added[1]) - (h0 - added[0]) == surface[0]
                const int fixed_height = heights[1] - orientation.added[1] + orientation.added[0]
                                         - orientation.surface[0];
                for_each_state_in_run(
                    rule.column, orientation.width, fixed_height, heights, int(count),
                    [&](const Heights& state) { return placements_.reverses(state, rule.orientation, rule.column); },
                    [&](int i) { marks.push_back({i, rule.rank}); });
            }
            std::sort(marks.begin(), marks.end());
            marks.erase(std::unique(marks.begin(), marks.end()), marks.end());
            for (auto [i, destination] : marks)
                by_destination[destination].push_back(first_local + i);
        });
    send_local_.clear();
    for (int destination = 0; destination < ranks; ++destination) {
        send_offsets_[destination] = static_cast<int>(send_local_.size());
        send_counts_[destination] = static_cast<int>(by_destination[destination].size());
        send_local_.insert(send_local_.end(), by_destination[destination].begin(), by_destination[destination].end());
    }
    peak_buffer_bytes_ = std::max(peak_buffer_bytes_, ghosts_.memory_bytes() + send_local_.size() * 16);
}

// Both sides derived their lists independently; a mismatch would silently
// read wrong values, so it is checked every round (P integers per rank).
void Exchange::check_counts_agree() {
    std::vector<int> announced(comm_.size());
    check_mpi(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, announced.data(), 1, MPI_INT, comm_.get()),
              "MPI_Alltoall");
    const bool agree = announced == receive_counts_;
    if (!comm_.all_agree(agree))
        throw std::logic_error("exchange plan mismatch between ranks (a bug: please report it)");
}

void Exchange::run(const std::vector<double>& values) {
    const double start = MPI_Wtime();
    send_buffer_.resize(send_local_.size());
    for (std::size_t i = 0; i < send_local_.size(); ++i)
        send_buffer_[i] = values[send_local_[i]];
    check_mpi(MPI_Alltoallv(send_buffer_.data(), send_counts_.data(), send_offsets_.data(), MPI_DOUBLE,
                            ghosts_.received().data(), receive_counts_.data(), receive_offsets_.data(), MPI_DOUBLE,
                            comm_.get()),
              "MPI_Alltoallv");
    times_.exchange_seconds += MPI_Wtime() - start;
}

}  // namespace stack
