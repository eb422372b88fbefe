#include "exchange.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stack {

void GhostCursor::missing(BoardId id) {
    throw std::logic_error("row " + std::to_string(id) + " was not received from its owner: the exchange "
                           "missed a placement (a bug: please report it)");
}

Exchange::Exchange(const Communicator& comm, const Partition& partition, const PlacementTable& placements,
                   const PlacementRules& rules, bool mirrored)
    : comm_(comm), partition_(partition), placements_(placements), rules_(rules), ghosts_(partition.rounds()),
      finders_(1), mirrored_(mirrored) {
    const int width = partition.geometry().width();
    const Rules& set = placements.rules();
    remote_.assign(std::size_t(set.orientation_count()) * MaxWidth, 0);
    for (int o = 0; o < set.orientation_count(); ++o)
        for (int x = 0; x + set.orientation(o).width <= width; ++x) {
            remote_[std::size_t(o) * MaxWidth + std::size_t(x)] = rules(o, x).predecessor_owner != partition.rank();
            remote_column_[x] = remote_column_[x] || remote_[std::size_t(o) * MaxWidth + std::size_t(x)];
        }
    for (int x = 0; x < std::min(partition.lower_columns(), width); ++x)
        lower_remote_ = lower_remote_ || remote_column_[x];
    next_round_reads_none_ = true;
    for (int o = 0; o < set.orientation_count(); ++o) {
        const Orientation& orientation = set.orientation(o);
        for (int x = 0; x + orientation.width <= width; ++x) {
            const bool changes_chunk = x + orientation.width > partition.lower_columns();
            const int step = orientation.cells() - (x == 0 ? orientation.added[0] : 0);
            if (changes_chunk && step < 2)
                next_round_reads_none_ = false;
        }
    }
    // What taking orientation o off at column 0 subtracts from a board's
    // chunk (the cells it held in columns L..W-1, as digits).
    mirror_chunk_taken_.assign(std::size_t(set.orientation_count()), 0);
    for (int o = 0; o < set.orientation_count(); ++o) {
        const Orientation& orientation = set.orientation(o);
        for (int column = partition.lower_columns(); column < std::min(orientation.width, width); ++column)
            mirror_chunk_taken_[std::size_t(o)] += std::uint64_t(orientation.added[std::size_t(column)])
                                                   * partition.geometry().place_value(column - partition.lower_columns());
    }
    // A mirror image's row can be one round up (its row sum is S + cells
    // - (the successor's h0 - its top), at least S + 1).
    if (mirrored_)
        next_round_reads_none_ = false;
}

// The owned rows of the round that some placement on another rank reads:
// placements wholly in upper columns test a whole slice at once, the others
// each row (only columns where a predecessor can live elsewhere).
void Exchange::begin_sends(const int* stored_index, int workers) {
    stored_index_ = stored_index;
    finders_.resize(std::size_t(workers));
    for (Finder& finder : finders_) {
        finder.rows.resize(std::size_t(partition_.ranks()));
        for (std::vector<SendRow>& rows : finder.rows)
            rows.clear();
        finder.marked.assign(std::size_t(partition_.ranks()), ~std::uint64_t(0));
    }
}

void Exchange::find_slice(Finder& finder, const Heights& upper_heights) const {
    finder.slice_destinations.clear();
    if (partition_.ranks() == 1)
        return;
    const int width = partition_.geometry().width();
    const PlacementTable::Differences differences = placements_.differences(upper_heights);
    for (int x = std::max(partition_.lower_columns(), 1); x < width; ++x)
        if (remote_column_[x])
            placements_.for_each_predecessor_at(
                upper_heights, differences, x,
                [&](int o, int, BoardId) { finder.slice_destinations.push_back(rules_(o, x).predecessor_owner); },
                [&](int o) { return remote_[std::size_t(o) * MaxWidth + std::size_t(x)] != 0; });
}

// A canonical board m of the row (m0 <= t, t its top) whose mirror image b
// = (t, m(W-2), .., m1, m0) is not canonical (m0 < t) is read, mirrored, by
// every canonical board p that a column-0 placement turns into b: those
// placements are b's column-0 predecessors, each of which p is found by
// taking the piece off again. A one-column orientation's p lies in b's own
// row. The images of one row differ only in column W-1 (m0): their
// differences are patched there, and a predecessor's owner follows from
// the image's chunk (its columns L..W-1 as digits) less the cells the piece
// took from those columns, without encoding a board. `done()` says every
// other rank is marked already, and the search stops.
template <class Mark, class Done>
void Exchange::find_mirror_readers(Mark&& mark, Done&& done, const Heights& row_heights) const {
    const Geometry& geometry = partition_.geometry();
    const int width = geometry.width(), top = row_heights[width - 1], lower = partition_.lower_columns();
    const std::uint64_t ranks = std::uint64_t(partition_.ranks());
    const Rules& set = placements_.rules();
    Heights image{};
    for (int column = 1; column < width; ++column)
        image[column] = row_heights[width - 1 - column];
    image[0] = top;
    image[width - 1] = 0;
    // The image's chunk with m0 = 0, and what one unit of m0 adds to it.
    std::uint64_t chunk = 0;
    for (int column = width - 1; column >= lower; --column)
        chunk = chunk * std::uint64_t(geometry.height() + 1) + std::uint64_t(image[column]);
    const std::uint64_t m0_unit = width - 1 >= lower ? geometry.place_value(width - 1 - lower) : 0;
    PlacementTable::Differences differences = placements_.differences(image);
    for (int m0 = 0; m0 < top; ++m0) {
        if (stored_index_[m0] < 0)
            continue;
        image[width - 1] = m0;
        if (width >= 2)
            differences[std::size_t(width) - 2] = placements_.clipped_difference(m0 - image[width - 2]);
        const std::uint64_t image_chunk = chunk + std::uint64_t(m0) * m0_unit;
        placements_.for_each_predecessor_at(
            image, differences, 0,
            [&](int o, int, BoardId) {
                const Orientation& orientation = set.orientation(o);
                const int before0 = image[0] - orientation.added[0];
                const int before_top = width - 1 < orientation.width ? m0 - orientation.added[std::size_t(width) - 1]
                                                                     : m0;
                if (before0 <= before_top)
                    mark(int((image_chunk - mirror_chunk_taken_[std::size_t(o)]) % ranks));
            },
            [&](int o) { return placements_.width(o) > 1; });
        for (const int o : set.one_column()) {
            const int before = top - set.orientation(o).added[0];
            if (before >= 0 && before <= m0)
                mark(int(image_chunk % ranks));  // column 0 is in no chunk digit
        }
        if (done())
            return;
    }
}

void Exchange::find_row(Finder& finder, std::uint64_t local_row, std::uint64_t first_value, int length,
                        const Heights& row_heights, const PlacementTable::Differences& differences) const {
    if (partition_.ranks() == 1)
        return;
    const int me = partition_.rank();
    // Once every other rank reads the row there is nothing left to find.
    const int others = partition_.ranks() - 1;
    int marked = 0;
    bool encoded = false;
    BoardId id = 0;
    const auto mark = [&](int destination) {
        if (destination != me && finder.marked[destination] != local_row) {
            if (!encoded) {
                id = partition_.geometry().encode(row_heights);
                encoded = true;
            }
            finder.marked[destination] = local_row;
            ++marked;
            if (finder.count_only)
                ++finder.counted[destination];
            else
                finder.rows[destination].push_back({local_row, id, first_value, length});
        }
    };
    const auto done = [&] { return marked == others; };
    for (const int destination : finder.slice_destinations)
        mark(destination);
    // Only the (orientation, column) pairs whose predecessor lives elsewhere
    // are tested (at 2 ranks and an odd H+1: the placements that put an odd
    // number of cells into the upper columns).
    if (lower_remote_ && !done())
        for_each_row_placement<true>(
            placements_, row_heights, differences, 0, partition_.lower_columns(),
            [&](int o, int x, int) { mark(rules_(o, x).predecessor_owner); },
            [&](int h0) { return stored_index_[h0] >= 0; },
            [&](int o, int x) { return remote_[std::size_t(o) * MaxWidth + std::size_t(x)]; });
    if (mirrored_ && !done())
        find_mirror_readers(mark, done, row_heights);
}

ExchangeRecord Exchange::run(const RoundStore& round) {
    ExchangeRecord record = start(round);
    record.seconds += finish();
    return record;
}

ExchangeRecord Exchange::start(const RoundStore& round) {
    ExchangeRecord record;
    if (comm_.size() == 1)
        return record;
    if (pending_)
        throw std::logic_error("an exchange started while another is in flight");
    const double start = MPI_Wtime();
    const int ranks = comm_.size();
    const std::size_t length = round.row_length, row_bytes = length * std::size_t(round.value_size);
    const MPI_Datatype type = round.value_size == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
    std::vector<int>& send_counts = id_counts_;
    std::vector<int>& send_offsets = id_offsets_;
    send_counts.assign(ranks, 0);
    send_offsets.assign(ranks, 0);
    std::vector<BoardId>& send_ids = send_ids_;
    std::vector<char>& send_values = send_values_;
    send_ids.clear();
    send_values.clear();
    for (int destination = 0; destination < ranks; ++destination) {
        // Each worker's rows ascend, and a row is one worker's: sorting the
        // union puts them in id order, whatever the number of workers.
        merged_.clear();
        for (const Finder& finder : finders_)
            merged_.insert(merged_.end(), finder.rows[destination].begin(), finder.rows[destination].end());
        if (finders_.size() > 1)
            std::sort(merged_.begin(), merged_.end(),
                      [](const SendRow& a, const SendRow& b) { return a.local < b.local; });
        send_offsets[destination] = int(send_ids.size());
        send_counts[destination] = int(merged_.size());
        for (const SendRow& row : merged_) {
            send_ids.push_back(row.id);
            // A short row (a mirrored layout's) padded with zeros to a full one.
            const std::size_t bytes = std::size_t(row.length) * std::size_t(round.value_size);
            send_values.insert(send_values.end(), round.bytes_at(row.value), round.bytes_at(row.value) + bytes);
            send_values.resize(send_values.size() + (row_bytes - bytes), 0);
        }
    }
    if ((send_ids.size() * length + 1) > INT_MAX)
        throw std::runtime_error("one round sends more than 2^31 values from one rank; use more ranks");
    id_receive_counts_ = comm_.all_to_all(send_counts);
    std::uint64_t received = 0;
    id_receive_offsets_ = offsets_of(id_receive_counts_, &received);
    if ((received * length + 1) > INT_MAX)
        throw std::runtime_error("one round receives more than 2^31 values on one rank; use more ranks");
    Ghosts& ghosts = ghosts_[round.sum];
    if (!spare_.empty()) {
        ghosts = std::move(spare_.back());
        spare_.pop_back();
    }
    ghosts.counts.assign(id_receive_counts_.begin(), id_receive_counts_.end());
    ghosts.offsets.assign(id_receive_offsets_.begin(), id_receive_offsets_.end());
    ghosts.row_bytes = row_bytes;
    ghosts.ids.resize(received);
    ghosts.values.resize(received * row_bytes);
    check_mpi(MPI_Ialltoallv(send_ids.data(), send_counts.data(), send_offsets.data(), mpi_type<BoardId>(),
                             ghosts.ids.data(), id_receive_counts_.data(), id_receive_offsets_.data(),
                             mpi_type<BoardId>(), comm_.get(), &requests_[0]),
              "MPI_Ialltoallv");
    value_counts_.resize(ranks);
    value_offsets_.resize(ranks);
    value_receive_counts_.resize(ranks);
    value_receive_offsets_.resize(ranks);
    for (int rank = 0; rank < ranks; ++rank) {
        value_counts_[rank] = send_counts[rank] * int(length);
        value_offsets_[rank] = send_offsets[rank] * int(length);
        value_receive_counts_[rank] = id_receive_counts_[rank] * int(length);
        value_receive_offsets_[rank] = id_receive_offsets_[rank] * int(length);
    }
    check_mpi(
        MPI_Ialltoallv(send_values.data(), value_counts_.data(), value_offsets_.data(), type, ghosts.values.data(),
                       value_receive_counts_.data(), value_receive_offsets_.data(), type, comm_.get(), &requests_[1]),
        "MPI_Ialltoallv");
    pending_ = true;
    pending_sum_ = round.sum;
    bytes_ += ghosts.ids.size() * sizeof(BoardId) + ghosts.values.size();
    record.rows_sent = send_ids.size();
    record.rows_received = received;
    record.bytes_sent = send_ids.size() * sizeof(BoardId) + send_values.size();
    record.seconds = MPI_Wtime() - start;
    return record;
}

void Exchange::progress() {
    if (!pending_)
        return;
    int done = 0;
    check_mpi(MPI_Testall(2, requests_, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
}

double Exchange::finish() {
    if (!pending_)
        return 0.0;
    const double start = MPI_Wtime();
    check_mpi(MPI_Waitall(2, requests_, MPI_STATUSES_IGNORE), "MPI_Waitall");
    pending_ = false;
    build_index(ghosts_[std::size_t(pending_sum_)]);
    return MPI_Wtime() - start;
}

// About two rows a bucket: the shift is the smallest that puts a source's
// id span into at most half as many buckets as it has rows.
void Exchange::build_index(Ghosts& ghosts) const {
    const std::size_t sources = ghosts.counts.size();
    ghosts.index.assign(sources, SourceIndex{});
    ghosts.bucket_rows.clear();
    for (std::size_t source = 0; source < sources; ++source) {
        SourceIndex& index = ghosts.index[source];
        index.start = ghosts.bucket_rows.size();
        const std::uint64_t count = std::uint64_t(ghosts.counts[source]);
        if (count == 0)
            continue;
        const BoardId* ids = ghosts.ids.data() + ghosts.offsets[source];
        index.first = ids[0];
        const BoardId span = ids[count - 1] - ids[0];
        const std::uint64_t wanted = std::max<std::uint64_t>(1, count / 2);
        while ((span >> index.shift) >= wanted)
            ++index.shift;
        index.buckets = (span >> index.shift) + 1;
        ghosts.bucket_rows.resize(index.start + index.buckets + 1);
        std::uint32_t* rows = ghosts.bucket_rows.data() + index.start;
        std::uint64_t row = 0;
        for (std::uint64_t bucket = 0; bucket <= index.buckets; ++bucket) {
            while (row < count && ((ids[row] - index.first) >> index.shift) < bucket)
                ++row;
            rows[bucket] = std::uint32_t(row);
        }
    }
}

const char* Exchange::find_ghost(int sum, int source, BoardId id) const {
    if (sum > partition_.max_row_sum() || comm_.size() == 1)
        return nullptr;
    const Ghosts& ghosts = ghosts_[std::size_t(sum)];
    if (ghosts.index.empty() || ghosts.counts[std::size_t(source)] == 0)
        return nullptr;
    const SourceIndex& index = ghosts.index[std::size_t(source)];
    if (id < index.first || ((id - index.first) >> index.shift) >= index.buckets)
        return nullptr;
    const std::uint32_t* rows = ghosts.bucket_rows.data() + index.start + ((id - index.first) >> index.shift);
    const BoardId* ids = ghosts.ids.data() + ghosts.offsets[std::size_t(source)];
    const BoardId* found = std::lower_bound(ids + rows[0], ids + rows[1], id);
    if (found == ids + rows[1] || *found != id)
        return nullptr;
    return ghosts.values.data() + (std::size_t(ghosts.offsets[std::size_t(source)]) + std::size_t(found - ids))
                                      * ghosts.row_bytes;
}

GhostCursor Exchange::cursor(int sum, int source) const {
    if (sum > partition_.max_row_sum() || comm_.size() == 1 || ghosts_[sum].counts.empty())
        return {};
    const Ghosts& ghosts = ghosts_[sum];
    const BoardId* first = ghosts.ids.data() + ghosts.offsets[source];
    return GhostCursor(first, first + ghosts.counts[source],
                       ghosts.values.data() + std::size_t(ghosts.offsets[source]) * ghosts.row_bytes, ghosts.row_bytes);
}

GhostRows Exchange::ghost_rows(int sum) const {
    if (sum > partition_.max_row_sum() || comm_.size() == 1 || ghosts_[sum].counts.empty())
        return {};
    const Ghosts& ghosts = ghosts_[sum];
    return {ghosts.ids.data(),    ghosts.values.data(), ghosts.offsets.data(),
            ghosts.counts.data(), ghosts.ids.size(),    ghosts.row_bytes};
}

void Exchange::drop(int sum) {
    if (sum < 0 || sum > partition_.max_row_sum())
        return;
    Ghosts& ghosts = ghosts_[sum];
    bytes_ -= ghosts.ids.size() * sizeof(BoardId) + ghosts.values.size();
    ghosts.counts.clear();
    ghosts.index.clear();
    spare_.push_back(std::move(ghosts));
    ghosts = Ghosts();
}

}  // namespace stack
