#include "round_writer.h"

#include "support/errors.h"
#include "fault.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace stack {

RoundWriter::RoundWriter(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                         Precision precision, const std::string& path, std::uint64_t data_offset)
    : comm_(comm), partition_(partition), layout_(layout), precision_(precision), data_offset_(data_offset),
      path_(path) {
    if (comm.is_root())
        checksums_ = std::make_unique<ChecksumAssembler>(layout, value_bytes(precision));
    descriptor_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    direct_descriptor_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_DIRECT);
    const bool opened = comm.all_agree(descriptor_ >= 0);
    if (!opened) {
        if (descriptor_ >= 0)
            ::close(descriptor_);
        throw std::runtime_error("cannot open " + path + " for writing on every rank");
    }
    writer_ = std::thread([this] { run_writer(); });
}

RoundWriter::~RoundWriter() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (writer_.joinable())
        writer_.join();
    if (descriptor_ >= 0)
        ::close(descriptor_);
    if (direct_descriptor_ >= 0)
        ::close(direct_descriptor_);
}

void RoundWriter::convert(const double* values, std::uint64_t count, char* out) const {
    if (precision_ == Precision::Float64) {
        std::memcpy(out, values, count * sizeof(double));
        return;
    }
    float* narrow = reinterpret_cast<float*>(out);
    for (std::uint64_t i = 0; i < count; ++i)
        narrow[i] = static_cast<float>(values[i]);  // round to nearest
}

WriteRecord RoundWriter::write(const RoundStore& round, std::size_t round_index) {
    WriteRecord record;
    const double start = MPI_Wtime();
    // A failed write on any rank stops every rank here, before the next
    // collective, so none is left waiting.
    agree_no_failure();
    const int ranks = comm_.size(), me = comm_.rank();
    const int sum = round.sum;
    const std::uint64_t length = std::uint64_t(round.row_length);
    const std::size_t size = value_bytes(precision_);
    const std::uint64_t rows = layout_.rows(sum);
    // Groups of `ranks` segments, each segment at most about SegmentBytes.
    const std::uint64_t round_bytes = rows * length * size;
    const std::uint64_t groups = std::max<std::uint64_t>(1, (round_bytes + ranks * SegmentBytes - 1) / (ranks * SegmentBytes));
    const std::uint64_t segments = groups * std::uint64_t(ranks);
    const auto segment_first = [&](std::uint64_t segment) { return rows * segment / segments; };

    // This rank's slices as runs of file rows, in file order.
    std::vector<Piece> slices;
    for (std::uint64_t chunk = 0; chunk < partition_.owned_chunks(); ++chunk) {
        const std::uint64_t first = round.slice_start[chunk], count = round.slice_start[chunk + 1] - first;
        if (count == 0)
            continue;
        Heights heights = partition_.geometry().decode(partition_.chunk_first(chunk));
        std::uint64_t file_row = 0;
        bool found = false;
        partition_.for_each_row_of_slice(heights, sum - partition_.upper_sum(chunk),
                                         [&](std::uint64_t row, const Heights& row_heights) {
                                             if (row == 0) {
                                                 file_row = layout_.row_rank(row_heights, sum);
                                                 found = true;
                                             }
                                         });
        if (found)
            slices.push_back({file_row, first, count});
    }

    pieces_.clear();
    std::size_t next_slice = 0;
    std::uint64_t next_row_in_slice = 0;
    for (std::uint64_t group = 0; group < groups; ++group) {
        // Pieces of this rank's rows in each segment of the group.
        std::vector<std::vector<Piece>> pieces(ranks);
        for (int destination = 0; destination < ranks; ++destination) {
            const std::uint64_t segment = group * ranks + destination;
            const std::uint64_t low = segment_first(segment), high = segment_first(segment + 1);
            while (next_slice < slices.size()) {
                const Piece& slice = slices[next_slice];
                const std::uint64_t row = slice.file_row + next_row_in_slice;
                if (row >= high)
                    break;
                const std::uint64_t take = std::min(slice.rows - next_row_in_slice, high - row);
                if (row >= low)
                    pieces[destination].push_back({row, slice.local_row + next_row_in_slice, take});
                next_row_in_slice += take;
                if (next_row_in_slice == slice.rows) {
                    ++next_slice;
                    next_row_in_slice = 0;
                }
            }
        }
        // Headers (file row, rows) and values, per destination.
        std::vector<int> header_counts(ranks), header_offsets(ranks), value_counts(ranks), value_offsets(ranks);
        std::vector<std::uint64_t>& headers = headers_;
        std::vector<char>& values = values_;
        headers.clear();
        values.clear();
        for (int destination = 0; destination < ranks; ++destination) {
            header_offsets[destination] = int(headers.size());
            value_offsets[destination] = int(values.size() / size);
            for (const Piece& piece : pieces[destination]) {
                if (destination == me)
                    continue;  // copied straight into the segment below
                headers.push_back(piece.file_row);
                headers.push_back(piece.rows);
                const std::size_t at = values.size();
                values.resize(at + piece.rows * length * size);
                convert(round.row(piece.local_row), piece.rows * length, values.data() + at);
            }
            header_counts[destination] = int(headers.size()) - header_offsets[destination];
            value_counts[destination] = int(values.size() / size) - value_offsets[destination];
            if (destination != me)
                record.bytes_redistributed += std::uint64_t(value_counts[destination]) * size;
        }
        std::vector<int> header_in(ranks), header_in_offsets(ranks), value_in(ranks), value_in_offsets(ranks);
        check_mpi(MPI_Alltoall(header_counts.data(), 1, MPI_INT, header_in.data(), 1, MPI_INT, comm_.get()),
                  "MPI_Alltoall");
        check_mpi(MPI_Alltoall(value_counts.data(), 1, MPI_INT, value_in.data(), 1, MPI_INT, comm_.get()),
                  "MPI_Alltoall");
        std::uint64_t headers_total = 0, values_total = 0;
        for (int source = 0; source < ranks; ++source) {
            header_in_offsets[source] = int(headers_total);
            value_in_offsets[source] = int(values_total);
            headers_total += header_in[source];
            values_total += value_in[source];
        }
        if (values_total > INT_MAX || headers_total > INT_MAX)
            throw std::runtime_error("a segment of the table exceeds 2^31 values; this is a bug in the segment size");
        std::vector<std::uint64_t>& headers_received = headers_received_;
        std::vector<char>& values_received = values_received_;
        headers_received.resize(headers_total);
        values_received.resize(values_total * size);
        const MPI_Datatype value_type = precision_ == Precision::Float64 ? MPI_DOUBLE : MPI_FLOAT;
        check_mpi(MPI_Alltoallv(headers.data(), header_counts.data(), header_offsets.data(), MPI_UINT64_T,
                                headers_received.data(), header_in.data(), header_in_offsets.data(), MPI_UINT64_T,
                                comm_.get()),
                  "MPI_Alltoallv");
        check_mpi(MPI_Alltoallv(values.data(), value_counts.data(), value_offsets.data(), value_type,
                                values_received.data(), value_in.data(), value_in_offsets.data(), value_type,
                                comm_.get()),
                  "MPI_Alltoallv");
        // Assemble this rank's segment of the group.
        const std::uint64_t segment = group * ranks + me;
        const std::uint64_t low = segment_first(segment), high = segment_first(segment + 1);
        Job job;
        job.buffer = spare_bytes();
        job.offset = data_offset_ + (layout_.round_offset(sum) + low * length) * size;
        job.length = (high - low) * length * size;
        job.buffer.resize(job.length + 2 * DirectAlignment);
        char* data = job.data();
        std::uint64_t placed = 0;
        for (const Piece& piece : pieces[me]) {
            convert(round.row(piece.local_row), piece.rows * length, data + (piece.file_row - low) * length * size);
            placed += piece.rows;
        }
        const char* from = values_received.data();
        for (std::size_t h = 0; h + 1 < headers_received.size(); h += 2) {
            const std::uint64_t file_row = headers_received[h], count = headers_received[h + 1];
            if (file_row < low || file_row + count > high)
                throw std::logic_error("a redistributed piece falls outside its segment (a bug: please report it)");
            std::memcpy(data + (file_row - low) * length * size, from, count * length * size);
            from += count * length * size;
            placed += count;
        }
        if (placed != high - low)
            throw std::logic_error("a segment of round " + std::to_string(sum) + " was not filled (a bug: please report it)");
        record.bytes_written += job.length;
        for (const ChecksumPiece& piece : checksum_pieces(layout_, layout_.round_offset(sum) + low * length,
                                                          (high - low) * length, data, size))
            pieces_.insert(pieces_.end(), {piece.block, piece.offset, piece.length, piece.crc});
        job.round = long(round_index);
        if (job.length > 0)
            queue(std::move(job));
    }
    Job marker;
    marker.round = long(round_index);
    marker.marker = true;
    queue(std::move(marker));
    // Rank 0 folds every rank's pieces into the blocks' checksums.
    const int count = int(pieces_.size());
    std::vector<int> counts(comm_.is_root() ? ranks : 0), offsets(comm_.is_root() ? ranks : 0);
    check_mpi(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_.get()), "MPI_Gather");
    std::vector<std::uint64_t> all;
    if (comm_.is_root()) {
        for (int source = 1; source < ranks; ++source)
            offsets[source] = offsets[source - 1] + counts[source - 1];
        all.resize(std::size_t(offsets.back()) + std::size_t(counts.back()));
    }
    check_mpi(MPI_Gatherv(pieces_.data(), count, MPI_UINT64_T, all.data(), counts.data(), offsets.data(),
                          MPI_UINT64_T, 0, comm_.get()),
              "MPI_Gatherv");
    for (std::size_t i = 0; i + 3 < all.size(); i += 4)
        checksums_->add({all[i], all[i + 1], all[i + 2], all[i + 3]});
    record.seconds = MPI_Wtime() - start;
    return record;
}

void RoundWriter::queue(Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    // At most two segments waiting: enough to keep the disk busy.
    changed_.wait(lock, [&] { return jobs_.size() < 2 || failure_; });
    if (failure_)
        return;  // every rank learns of it at the next collective step (agree_no_failure)
    queued_bytes_ += job.buffer.size();
    jobs_.push_back(std::move(job));
    changed_.notify_all();
}

void RoundWriter::run_writer() {
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [&] { return !jobs_.empty() || stopping_; });
            if (jobs_.empty())
                return;
            job = std::move(jobs_.front());
        }
        const auto start = std::chrono::steady_clock::now();
        std::exception_ptr failure;
        try {
            if (!job.marker) {
                inject_fault(comm_.rank(), std::size_t(job.round), Phase::Write);
                write_job(job);
            }
        } catch (const PhaseError&) {
            failure = std::current_exception();
        } catch (const std::exception& error) {
            failure = std::make_exception_ptr(PhaseError(comm_.rank(), Phase::Write, std::size_t(job.round), error.what()));
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            busy_seconds_ += seconds;
            queued_bytes_ -= job.buffer.size();
            jobs_.pop_front();
            if (!job.buffer.empty())
                spare_.push_back(std::move(job.buffer));
            if (failure && !failure_)
                failure_ = failure;
            if (job.marker && !failure_)
                written_through_ = job.round;
        }
        changed_.notify_all();
    }
}

// The whole pages of the segment go straight to the disk, the partial pages
// at its ends through the page cache (a neighbouring segment, or HDF5's
// metadata, shares them).
void RoundWriter::write_job(Job& job) {
    const auto write_all = [&](int descriptor, const char* bytes, std::uint64_t count, std::uint64_t offset) {
        std::uint64_t done = 0;
        while (done < count) {
            const ssize_t wrote = ::pwrite(descriptor, bytes + done, count - done, off_t(offset + done));
            if (wrote < 0 && errno == EINTR)
                continue;
            if (wrote <= 0)
                return false;
            done += std::uint64_t(wrote);
        }
        return true;
    };
    const auto fail = [&] { throw std::system_error(errno, std::generic_category(), "write " + path_); };
    const char* data = job.data();
    const std::uint64_t begin = job.offset, end = job.offset + job.length;
    const std::uint64_t middle_begin = (begin + DirectAlignment - 1) / DirectAlignment * DirectAlignment;
    const std::uint64_t middle_end = end / DirectAlignment * DirectAlignment;
    if (direct_descriptor_ >= 0 && middle_begin < middle_end) {
        if (!write_all(direct_descriptor_, data + (middle_begin - begin), middle_end - middle_begin, middle_begin)) {
            if (errno != EINVAL)
                fail();
            ::close(direct_descriptor_);  // the file system takes no direct writes after all
            direct_descriptor_ = -1;
            if (!write_all(descriptor_, data, job.length, begin))
                fail();
            return;
        }
        if (!write_all(descriptor_, data, middle_begin - begin, begin)
            || !write_all(descriptor_, data + (middle_end - begin), end - middle_end, middle_end))
            fail();
        return;
    }
    if (!write_all(descriptor_, data, job.length, begin))
        fail();
}

// A failed write on any rank stops every rank at the same collective, with
// the failing rank's own message (the lowest failing rank's, if several).
void RoundWriter::agree_no_failure() {
    std::string message;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (failure_) {
            try {
                std::rethrow_exception(failure_);
            } catch (const std::exception& error) {
                message = error.what();
            }
        }
    }
    int failing = message.empty() ? comm_.size() : comm_.rank(), first = comm_.size();
    check_mpi(MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, comm_.get()), "MPI_Allreduce");
    if (first == comm_.size())
        return;
    unsigned long length = message.size();
    check_mpi(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, first, comm_.get()), "MPI_Bcast");
    message.resize(length);
    check_mpi(MPI_Bcast(message.data(), int(length), MPI_CHAR, first, comm_.get()), "MPI_Bcast");
    throw CollectiveError(message);
}

void RoundWriter::finish() {
    {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return jobs_.empty() || failure_; });
    }
    agree_no_failure();
}

long RoundWriter::written_through() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return written_through_;
}

void RoundWriter::sync() {
    if (::fdatasync(descriptor_) != 0)
        throw PhaseError(comm_.rank(), Phase::Write, std::size_t(std::max(written_through(), 0L)),
                         std::string("fdatasync ") + path_ + ": " + std::strerror(errno));
}

std::vector<char> RoundWriter::spare_bytes() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.empty())
        return {};
    std::vector<char> bytes = std::move(spare_.back());
    spare_.pop_back();
    return bytes;
}

std::uint64_t RoundWriter::buffer_bytes() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::uint64_t bytes = queued_bytes_ + headers_.capacity() * 8 + headers_received_.capacity() * 8
                          + values_.capacity() + values_received_.capacity();
    for (const std::vector<char>& spare : spare_)
        bytes += spare.capacity();
    return bytes;
}

}  // namespace stack
