#include "exchange.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stack {

void GhostCursor::missing(BoardId id) {
    throw std::logic_error("row " + std::to_string(id) + " was not received from its owner: the exchange plan "
                           "missed a placement (a bug: please report it)");
}

Exchange::Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
                   const RowRules& rules)
    : comm_(comm), partition_(partition), placements_(placements), rules_(rules),
      row_length_(partition.geometry().base()), sends_(partition.max_row_sum() + 1),
      receives_(partition.max_row_sum() + 1), slots_(CellsPerPiece), value_counts_(comm.size()),
      value_offsets_(comm.size()), receive_value_counts_(comm.size()), receive_value_offsets_(comm.size()) {
    const double start = MPI_Wtime();
    for (std::vector<RowLists>* lists : {&sends_, &receives_})
        for (RowLists& list : *lists) {
            list.counts.assign(comm.size(), 0);
            list.offsets.assign(comm.size(), 0);
        }
    if (comm.size() > 1) {
        plan_sends();
        share_plan();
    }
    plan_seconds_ = MPI_Wtime() - start;
}

// For every owned row, the other ranks owning a row that places a piece
// onto it: the row rule (partition.h) run in reverse, on the columns where
// some predecessor lives elsewhere.
void Exchange::plan_sends() {
    const int ranks = comm_.size(), me = comm_.rank();
    const int width = partition_.geometry().width();
    std::vector<std::vector<std::uint64_t>> by_destination(ranks);
    std::vector<std::uint64_t> marked_row(ranks, ~std::uint64_t(0));  // [rank] -> last row listed for it
    // Only columns where some placement comes from another rank are tested
    // (on 2 ranks, for instance, a piece wholly in the upper columns adds an
    // even amount to the chunk index and never changes rank).
    std::array<bool, MaxWidth> remote_column{};  // [column] -> some predecessor lives elsewhere
    for (int o = 0; o < OrientationCount; ++o)
        for (int x = 0; x + Orientations[o].width <= width; ++x)
            remote_column[x] = remote_column[x] || rules_(o, x).predecessor_owner != me;
    std::uint64_t row_number = 0;
    for (int sum = 0; sum <= partition_.max_row_sum(); ++sum) {
        for (auto& rows : by_destination)
            rows.clear();
        partition_.for_each_row(sum, [&](BoardId, std::uint64_t first_local, const Heights& heights) {
            ++row_number;
            for_each_row_placement<true>(
                placements_, heights,
                [&](int o, int x, int) {
                    const int destination = rules_(o, x).predecessor_owner;
                    if (destination != me && marked_row[destination] != row_number) {
                        marked_row[destination] = row_number;
                        by_destination[destination].push_back(first_local);
                    }
                },
                remote_column);
        });
        RowLists& list = sends_[sum];
        for (int destination = 0; destination < ranks; ++destination) {
            list.offsets[destination] = static_cast<int>(list.rows.size());
            list.counts[destination] = static_cast<int>(by_destination[destination].size());
            list.rows.insert(list.rows.end(), by_destination[destination].begin(), by_destination[destination].end());
        }
        if ((list.rows.size() + 1) * row_length_ > INT_MAX)
            throw std::runtime_error("one round sends more than 2^31 values from one rank; use more ranks");
    }
}

// Tells every receiver which rows it gets: the row counts per (rank, sum),
// then the first ids, in one MPI_Alltoall and one MPI_Alltoallv.
void Exchange::share_plan() {
    const int ranks = comm_.size();
    const int sums = partition_.max_row_sum() + 1;
    std::vector<int> counts_out(std::size_t(ranks) * sums), counts_in(std::size_t(ranks) * sums);  // [rank][sum]
    std::vector<int> ids_out_count(ranks), ids_out_offset(ranks), ids_in_count(ranks), ids_in_offset(ranks);
    std::vector<BoardId> ids_out;
    for (int destination = 0; destination < ranks; ++destination) {
        ids_out_offset[destination] = static_cast<int>(ids_out.size());
        for (int sum = 0; sum < sums; ++sum) {
            const RowLists& list = sends_[sum];
            counts_out[std::size_t(destination) * sums + sum] = list.counts[destination];
            for (int i = 0; i < list.counts[destination]; ++i) {
                const std::uint64_t local = list.rows[list.offsets[destination] + i];
                ids_out.push_back(partition_.board_id(local));
            }
        }
        ids_out_count[destination] = static_cast<int>(ids_out.size() - ids_out_offset[destination]);
        if (ids_out.size() > INT_MAX)
            throw std::runtime_error("the exchange plan lists more than 2^31 rows on one rank; use more ranks");
    }
    check_mpi(MPI_Alltoall(counts_out.data(), sums, MPI_INT, counts_in.data(), sums, MPI_INT, comm_.get()),
              "MPI_Alltoall");
    int total_in = 0;
    for (int source = 0; source < ranks; ++source) {
        ids_in_offset[source] = total_in;
        for (int sum = 0; sum < sums; ++sum)
            ids_in_count[source] += counts_in[std::size_t(source) * sums + sum];
        total_in += ids_in_count[source];
    }
    std::vector<BoardId> ids_in(total_in);
    check_mpi(MPI_Alltoallv(ids_out.data(), ids_out_count.data(), ids_out_offset.data(), MPI_UINT64_T,
                            ids_in.data(), ids_in_count.data(), ids_in_offset.data(), MPI_UINT64_T, comm_.get()),
              "MPI_Alltoallv");
    // ids_in holds, per source, the sums in order; regroup per sum.
    std::size_t position = 0;
    for (int source = 0; source < ranks; ++source)
        for (int sum = 0; sum < sums; ++sum) {
            RowLists& list = receives_[sum];
            const int count = counts_in[std::size_t(source) * sums + sum];
            list.offsets[source] = static_cast<int>(list.rows.size());
            list.counts[source] = count;
            list.rows.insert(list.rows.end(), ids_in.begin() + position, ids_in.begin() + position + count);
            position += count;
        }
    for (const RowLists& list : receives_)
        if ((list.rows.size() + 1) * row_length_ > INT_MAX)
            throw std::runtime_error("one round receives more than 2^31 values on one rank; use more ranks");
}

ExchangeRecord Exchange::run(int sum, const HugeVector<double>& values) {
    ExchangeRecord record;
    if (comm_.size() == 1)
        return record;
    const double start = MPI_Wtime();
    const RowLists& send = sends_[sum];
    const RowLists& receive = receives_[sum];
    send_buffer_.resize(send.rows.size() * row_length_);
    for (std::size_t i = 0; i < send.rows.size(); ++i)
        std::memcpy(&send_buffer_[i * row_length_], &values[send.rows[i]], row_length_ * sizeof(double));
    const int length = static_cast<int>(row_length_);
    for (int rank = 0; rank < comm_.size(); ++rank) {
        value_counts_[rank] = send.counts[rank] * length;
        value_offsets_[rank] = send.offsets[rank] * length;
        receive_value_counts_[rank] = receive.counts[rank] * length;
        receive_value_offsets_[rank] = receive.offsets[rank] * length;
    }
    std::vector<double>& slot = slots_[sum % CellsPerPiece];
    slot.resize(receive.rows.size() * row_length_);
    check_mpi(MPI_Alltoallv(send_buffer_.data(), value_counts_.data(), value_offsets_.data(), MPI_DOUBLE,
                            slot.data(), receive_value_counts_.data(), receive_value_offsets_.data(), MPI_DOUBLE,
                            comm_.get()),
              "MPI_Alltoallv");
    record.rows_sent = send.rows.size();
    record.rows_received = receive.rows.size();
    record.seconds = MPI_Wtime() - start;
    return record;
}

GhostCursor Exchange::cursor(int sum, int source) const {
    if (sum > partition_.max_row_sum() || comm_.size() == 1)
        return {};
    const RowLists& list = receives_[sum];
    const BoardId* first = list.rows.data() + list.offsets[source];
    return GhostCursor(first, first + list.counts[source], slots_[sum % CellsPerPiece].data()
                                                               + std::size_t(list.offsets[source]) * row_length_,
                       row_length_);
}

std::size_t Exchange::buffer_bytes() const {
    std::size_t bytes = send_buffer_.capacity() * sizeof(double);
    for (const std::vector<double>& slot : slots_)
        bytes += slot.capacity() * sizeof(double);
    for (const std::vector<RowLists>* lists : {&sends_, &receives_})
        for (const RowLists& list : *lists)
            bytes += list.rows.capacity() * sizeof(std::uint64_t);
    return bytes;
}

}  // namespace stack
