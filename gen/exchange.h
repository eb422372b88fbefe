// The per-round exchange of values between ranks.
//
// Before a round computes the states with height sum in [low, high], each
// rank needs the values of their successors (sums low+4 .. high+4) that other
// ranks own. Both sides derive the same lists independently, so only values
// travel and nothing is stored between rounds:
//   receiver: enumerate the placements of its own round states, collect the
//             distinct remote successor ids, sorted per source rank;
//   sender:   enumerate the predecessors of its own states of sum low+4 ..
//             high+4, and for each rank owning a predecessor append the
//             state once, in increasing id order.
// Both orders are "increasing id per rank pair", so the receive buffer lines
// up with the sorted id lists. One MPI_Alltoallv per round moves the values;
// a preceding MPI_Alltoall of counts checks that both sides agree.
#pragma once

#include "communicator.h"
#include "partition.h"
#include "placement.h"

#include <cstdint>
#include <vector>

namespace stack {

// Values this rank reads but does not own, for one round: an
// open-addressing table from board id to a position in the receive buffer.
class GhostValues {
public:
    void clear();
    void insert(BoardId id);
    std::size_t size() const { return size_; }
    template <class Visit>
    void for_each_id(Visit&& visit) const {
        for (BoardId key : keys_)
            if (key != Empty)
                visit(key);
    }
    void set_position(BoardId id, std::uint32_t position) { positions_[find(id)] = position; }
    double value(BoardId id) const { return received_[positions_[find(id)]]; }
    std::vector<double>& received() { return received_; }
    std::size_t memory_bytes() const;

private:
    static constexpr BoardId Empty = ~BoardId(0);
    std::size_t find(BoardId id) const;  // slot holding id, or the empty slot where it belongs
    void grow();

    std::vector<BoardId> keys_;             // [slot] -> board id or Empty
    std::vector<std::uint32_t> positions_;  // [slot] -> index into received_
    std::vector<double> received_;          // [position] -> value
    std::size_t size_ = 0;
    unsigned shift_ = 64;
};

struct ExchangeTimes {
    double plan_seconds = 0;
    double exchange_seconds = 0;
};

class Exchange {
public:
    Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
             const Routes& routes);

    // Derives both sides of the exchange that precedes computing the owned
    // states with height sum in [low_sum, high_sum].
    void plan(int low_sum, int high_sum);
    // Sends the planned owned values (read from `values`, indexed locally)
    // and receives the ghosts.
    void run(const std::vector<double>& values);

    double ghost(BoardId id) const { return ghosts_.value(id); }
    std::uint64_t values_received() const { return receive_total_; }
    std::uint64_t values_sent() const { return send_local_.size(); }
    std::size_t peak_buffer_bytes() const { return peak_buffer_bytes_; }
    const ExchangeTimes& times() const { return times_; }

private:
    void plan_receive(int low_sum, int high_sum);
    void plan_send(int low_sum, int high_sum);
    void check_counts_agree();

    const Communicator& comm_;
    const Partition& partition_;
    const PlacementTable& placements_;
    // The (orientation, column) pairs whose successor (predecessor) lives on
    // another rank: a route depends on the pair alone, so the plan tests
    // only these. Empty on one rank.
    struct RemoteRule {
        int orientation;
        int column;
        BoardId offset;
        int rank;  // the other rank
    };
    std::vector<RemoteRule> remote_successors_, remote_predecessors_;
    GhostValues ghosts_;
    std::vector<int> send_counts_, send_offsets_;        // [rank]
    std::vector<int> receive_counts_, receive_offsets_;  // [rank]
    std::vector<std::uint64_t> send_local_;              // local indices, grouped by destination rank
    std::vector<double> send_buffer_;
    std::uint64_t receive_total_ = 0;
    std::size_t peak_buffer_bytes_ = 0;
    ExchangeTimes times_;
};

}  // namespace stack
