#include "round_writer.h"

#include "support/errors.h"
#include "fault.h"
#include "support/parallel.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <system_error>

namespace stack {

RoundWriter::RoundWriter(const Communicator& comm, const Partition& partition, const RoundLayout& layout,
                         Precision precision, const std::string& path, std::uint64_t data_offset, int threads)
    : comm_(comm), partition_(partition), layout_(layout), precision_(precision), data_offset_(data_offset),
      path_(path), threads_(std::max(threads, 1)), file_(!path.empty()) {
    if (comm.is_root())
        digest_ = std::make_unique<ValueDigest>(layout, value_bytes(precision));
    if (!file_)
        return;
    if (comm.is_root())
        checksums_ = std::make_unique<ChecksumAssembler>(layout, value_bytes(precision));
    descriptor_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    const int open_error = errno;
    direct_descriptor_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_DIRECT);
    try {
        comm.on_every_rank([&] {
            if (descriptor_ < 0)
                throw std::runtime_error("cannot open " + path + " for writing on rank " + std::to_string(comm.rank())
                                         + ": " + std::strerror(open_error));
        });
    } catch (...) {
        for (const int descriptor : {descriptor_, direct_descriptor_})
            if (descriptor >= 0)
                ::close(descriptor);
        throw;
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

// The worker threads for `items` items of work: one per `grain` items
// (65536 values; ChunkGrain chunks, each a decode and a walk of its
// rows), at least 1 and at most the writer's threads, so that a small
// round does not pay for starting threads.
int RoundWriter::worker_parts(std::uint64_t items, std::uint64_t grain) const {
    return int(std::clamp<std::uint64_t>(items / grain, 1, std::uint64_t(threads_)));
}

// `count` values from value `first` + `skip` of the round's store into the
// file's precision: a copy when the band holds that precision, else rounded
// to nearest (or widened exactly).
void RoundWriter::convert(const RoundStore& round, std::uint64_t first, std::uint64_t skip, std::uint64_t count,
                          char* out) const {
    if (std::size_t(round.value_size) == value_bytes(precision_)) {
        std::memcpy(out, round.bytes_at(first + skip), count * value_bytes(precision_));
    } else if (round.value_size == sizeof(double)) {
        const double* values = round.at_as<double>(first + skip);
        float* narrow = reinterpret_cast<float*>(out);
        for (std::uint64_t i = 0; i < count; ++i)
            narrow[i] = static_cast<float>(values[i]);
    } else {
        const float* values = round.at_as<float>(first + skip);
        double* wide = reinterpret_cast<double*>(out);
        for (std::uint64_t i = 0; i < count; ++i)
            wide[i] = values[i];
    }
}

// This rank's slices of a round as runs of file rows, in file order (a
// slice's rows are consecutive in the file, partition.h), a run that
// continues the one before in the file and in the store joined to it: a
// rank that owns consecutive chunks (a single rank owns them all) has one
// run a round, not one a chunk. The chunks are shared among the worker
// threads: a 9x20 class-0 round has 85.8 million of them.
std::vector<RoundWriter::RowRun> RoundWriter::file_runs(const RoundStore& round) const {
    const std::uint64_t chunks = partition_.owned_chunks();
    // A chunk costs about 9 values' conversion and checksum (7x20 class 0
    // on one thread: 7.5 ns a chunk here, 0.85 ns a value). At the values'
    // grain a 7x20 round's 194,481 chunks took 2 threads of 16.
    constexpr std::uint64_t ChunkGrain = 8192;
    const int parts = worker_parts(chunks, ChunkGrain);
    std::vector<std::vector<RowRun>> found(static_cast<std::size_t>(parts));
    const auto add = [](std::vector<RowRun>& runs, const RowRun& run) {
        if (!runs.empty() && runs.back().file_value + runs.back().values == run.file_value
            && runs.back().local_value + runs.back().values == run.local_value)
            runs.back().values += run.values;
        else
            runs.push_back(run);
    };
    run_workers(parts, [&](int part) {
        std::vector<RowRun>& runs = found[std::size_t(part)];
        for (std::uint64_t chunk = chunks * std::uint64_t(part) / std::uint64_t(parts);
             chunk < chunks * std::uint64_t(part + 1) / std::uint64_t(parts); ++chunk) {
            const std::uint64_t first = round.slice_start[chunk], count = round.slice_start[chunk + 1] - first;
            if (count == 0)
                continue;
            Heights heights = partition_.geometry().decode(partition_.chunk_first(chunk));
            const int top = layout_.mirrored() ? heights[partition_.geometry().width() - 1] : 0;
            const std::uint64_t start = round.slice_value(chunk, top),
                                values = count * std::uint64_t(round.length(top));
            if (values == 0)  // rows below every stored h0 (a mirrored layout's, of a class not held low)
                continue;
            partition_.for_each_row_of_slice(
                heights, round.sum - partition_.upper_sum(chunk), [&](std::uint64_t row, const Heights& row_heights) {
                    if (row == 0)
                        add(runs, {layout_.row_position(round.sum, layout_.row_rank(row_heights, round.sum), top)
                                       - layout_.round_offset(round.sum),
                                   start, values});
                });
        }
    });
    std::vector<RowRun> runs = std::move(found[0]);
    for (int part = 1; part < parts; ++part)
        for (const RowRun& run : found[std::size_t(part)])
            add(runs, run);
    return runs;
}

// Cuts the next runs into the segments of one group, one list of pieces per
// destination rank; `next` and `row_in_run` say where the runs stand.
std::vector<std::vector<RoundWriter::RowRun>> RoundWriter::cut_group(const Segments& segments, std::uint64_t group,
                                                                     const std::vector<RowRun>& runs, std::size_t& next,
                                                                     std::uint64_t& row_in_run) const {
    const int ranks = comm_.size();
    std::vector<std::vector<RowRun>> pieces(static_cast<std::size_t>(ranks));
    for (int destination = 0; destination < ranks; ++destination) {
        const std::uint64_t segment = group * std::uint64_t(ranks) + std::uint64_t(destination);
        const std::uint64_t low = segments.first_value(segment), high = segments.first_value(segment + 1);
        while (next < runs.size()) {
            const RowRun& run = runs[next];
            const std::uint64_t value = run.file_value + row_in_run;
            if (value >= high)
                break;
            const std::uint64_t take = std::min(run.values - row_in_run, high - value);
            if (value >= low)
                pieces[std::size_t(destination)].push_back({value, run.local_value + row_in_run, take});
            row_in_run += take;
            if (row_in_run == run.values) {
                ++next;
                row_in_run = 0;
            }
        }
    }
    return pieces;
}

// Sends every piece that another rank writes (a header of two numbers,
// file row and rows, then the values converted to the file's precision);
// what arrives lands in headers_received_ and values_received_.
void RoundWriter::send_pieces(const RoundStore& round, const std::vector<std::vector<RowRun>>& pieces,
                              WriteRecord& record) {
    const int ranks = comm_.size(), me = comm_.rank();
    const std::size_t size = value_bytes(precision_);
    const std::size_t count = static_cast<std::size_t>(ranks);
    std::vector<int> header_counts(count), header_offsets(count), value_counts(count), value_offsets(count);
    headers_.clear();
    values_.clear();
    for (int destination = 0; destination < ranks; ++destination) {
        header_offsets[destination] = int(headers_.size());
        value_offsets[destination] = int(values_.size() / size);
        if (destination != me)  // this rank's own pieces are copied straight into its segment
            for (const RowRun& piece : pieces[std::size_t(destination)]) {
                headers_.push_back(piece.file_value);
                headers_.push_back(piece.values);
                const std::size_t at = values_.size();
                values_.resize(at + piece.values * size);
                convert(round, piece.local_value, 0, piece.values, values_.data() + at);
            }
        header_counts[destination] = int(headers_.size()) - header_offsets[destination];
        value_counts[destination] = int(values_.size() / size) - value_offsets[destination];
        if (destination != me)
            record.bytes_redistributed += std::uint64_t(value_counts[destination]) * size;
    }
    const std::vector<int> header_in = comm_.all_to_all(header_counts), value_in = comm_.all_to_all(value_counts);
    std::uint64_t headers_total = 0, values_total = 0;
    const std::vector<int> header_in_offsets = offsets_of(header_in, &headers_total);
    const std::vector<int> value_in_offsets = offsets_of(value_in, &values_total);
    if (values_total > INT_MAX || headers_total > INT_MAX)
        throw std::runtime_error("a segment of the table exceeds 2^31 values; this is a bug in the segment size");
    headers_received_.resize(headers_total);
    values_received_.resize(values_total * size);
    comm_.all_to_all(headers_.data(), header_counts, header_offsets, headers_received_.data(), header_in,
                     header_in_offsets);
    comm_.all_to_all(values_.data(), value_counts, value_offsets, values_received_.data(), value_in, value_in_offsets,
                     precision_ == Precision::Float64 ? MPI_DOUBLE : MPI_FLOAT);
}

// This rank's segment [low, high) of the round, from its own pieces and
// the ones received, as a job for the writer thread; its checksum pieces go
// to pieces_.
//
// The segment is cut into one equal share of values per worker thread, and
// each worker fills its share (its parts of this rank's own rows,
// converted, and of the rows received, copied) and then checksums it while
// it is still in its cache. One pass, every thread busy: with a single rank
// the whole segment is one own piece, which a split by pieces would leave
// to one thread (a 9x20 run on the GPU spent 420 s of its 479 s of rounds
// there, at 3.8 GB/s).
RoundWriter::Job RoundWriter::assemble_segment(const RoundStore& round, std::uint64_t low, std::uint64_t high,
                                               const std::vector<RowRun>& own) {
    const std::size_t size = value_bytes(precision_);
    Job job;
    job.buffer = spare_bytes();
    job.offset = data_offset_ + (layout_.round_offset(round.sum) + low) * size;
    job.length = (high - low) * size;
    // A buffer only grows: growing zero-fills the new bytes, which a
    // buffer shrunk for a small segment and regrown for the next would pay
    // on every segment (a third of the writer's time on a 7x16 well).
    if (job.buffer.size() < job.length + 2 * DirectAlignment)
        job.buffer.resize(job.length + 2 * DirectAlignment);
    char* data = job.data();
    // Where each piece lands, in values from the segment's start, in order.
    struct Source {
        std::uint64_t at, count;
        const RowRun* own;     // this rank's rows (converted), or
        const char* received;  // rows received (copied)
    };
    std::vector<Source> sources;
    sources.reserve(own.size() + headers_received_.size() / 2);
    std::uint64_t placed = 0;
    for (const RowRun& piece : own) {
        if (piece.values == 0)
            continue;  // an empty source at a real one's place would hide it from fill's search
        sources.push_back({piece.file_value - low, piece.values, &piece, nullptr});
        placed += piece.values;
    }
    const char* from = values_received_.data();
    for (std::size_t h = 0; h + 1 < headers_received_.size(); h += 2) {
        const std::uint64_t file_value = headers_received_[h], count = headers_received_[h + 1];
        if (file_value < low || file_value + count > high)
            throw std::logic_error("a redistributed piece falls outside its segment (a bug: please report it)");
        sources.push_back({file_value - low, count, nullptr, from});
        from += count * size;
        placed += count;
    }
    if (placed != high - low)
        throw std::logic_error("a segment of round " + std::to_string(round.sum)
                               + " was not filled (a bug: please report it)");
    std::sort(sources.begin(), sources.end(), [](const Source& a, const Source& b) { return a.at < b.at; });
    const auto fill = [&](std::uint64_t begin, std::uint64_t end) {
        auto source = std::upper_bound(sources.begin(), sources.end(), begin,
                                       [](std::uint64_t value, const Source& s) { return value < s.at; });
        if (source != sources.begin())
            --source;
        for (; source != sources.end() && source->at < end; ++source) {
            const std::uint64_t first = std::max(begin, source->at);
            const std::uint64_t last = std::min(end, source->at + source->count);
            if (first >= last)
                continue;
            const std::uint64_t skip = first - source->at;
            if (source->own)
                convert(round, source->own->local_value, skip, last - first, data + first * size);
            else
                std::memcpy(data + first * size, source->received + skip * size, (last - first) * size);
        }
    };
    checksum_segment(data, layout_.round_offset(round.sum) + low, high - low, fill);
    return job;
}

// Fills (fill(begin, end), in values from `data`) and checksums `count`
// values from file position `position`, each worker thread taking one
// equal part: the blocks' checksum pieces (with a file) and the part's
// CRC-64, the parts' CRCs combined in order into the segment's.
void RoundWriter::checksum_segment(const char* data, std::uint64_t position, std::uint64_t count,
                                   const std::function<void(std::uint64_t, std::uint64_t)>& fill) {
    const std::size_t size = value_bytes(precision_);
    const int parts = worker_parts(count);
    const std::size_t count_of_parts = static_cast<std::size_t>(parts);
    std::vector<std::vector<ChecksumPiece>> blocks(count_of_parts);
    std::vector<std::uint64_t> crcs(count_of_parts), lengths(count_of_parts);
    run_workers(parts, [&](int part) {
        const std::uint64_t begin = count * std::uint64_t(part) / std::uint64_t(parts);
        const std::uint64_t end = count * std::uint64_t(part + 1) / std::uint64_t(parts);
        fill(begin, end);
        const char* bytes = data + begin * size;
        if (file_)
            blocks[std::size_t(part)] = checksum_pieces(layout_, position + begin, end - begin, bytes, size);
        crcs[std::size_t(part)] = crc64(bytes, (end - begin) * size);
        lengths[std::size_t(part)] = (end - begin) * size;
    });
    std::uint64_t crc = 0;
    for (int part = 0; part < parts; ++part) {
        crc = crc64_combine(crc, crcs[std::size_t(part)], lengths[std::size_t(part)]);
        for (const ChecksumPiece& piece : blocks[std::size_t(part)])
            pieces_.insert(pieces_.end(), {piece.block, piece.offset, piece.length, piece.crc});
    }
    digest_pieces_.insert(digest_pieces_.end(), {position * size, count * size, crc});
}

// The digest alone, from the runs where they lie in the store: each worker
// thread takes an equal share of the values, converts them a block at a
// time where the band's precision is not the file's, and checksums them;
// its pieces join wherever the runs continue in the file. For a single rank
// without a file, which has nothing to send or write, this saves a pass
// over the round and a start of the threads per segment.
void RoundWriter::digest_runs(const RoundStore& round, const std::vector<RowRun>& runs) {
    const std::size_t size = value_bytes(precision_);
    const std::uint64_t round_start = layout_.round_offset(round.sum);
    std::vector<std::uint64_t> first_value(runs.size() + 1, 0);  // [run] -> its first value among this rank's
    for (std::size_t r = 0; r < runs.size(); ++r)
        first_value[r + 1] = first_value[r] + runs[r].values;
    const std::uint64_t total = first_value.back();
    const int parts = worker_parts(total);
    std::vector<std::vector<DigestPiece>> found(static_cast<std::size_t>(parts));
    run_workers(parts, [&](int part) {
        constexpr std::uint64_t Block = 65536;  // values converted at a time
        std::vector<char> buffer;
        const std::uint64_t begin = total * std::uint64_t(part) / std::uint64_t(parts);
        const std::uint64_t end = total * std::uint64_t(part + 1) / std::uint64_t(parts);
        std::vector<DigestPiece>& pieces = found[std::size_t(part)];
        std::size_t r =
            std::size_t(std::upper_bound(first_value.begin(), first_value.end(), begin) - first_value.begin()) - 1;
        for (std::uint64_t value = begin; value < end; ++r) {
            const std::uint64_t skip = value - first_value[r];
            const std::uint64_t take = std::min(end, first_value[r + 1]) - value;
            const std::uint64_t position = (round_start + runs[r].file_value + skip) * size;
            if (pieces.empty() || pieces.back().offset + pieces.back().length != position)
                pieces.push_back({position, 0, 0});
            DigestPiece& piece = pieces.back();
            for (std::uint64_t done = 0; done < take; done += Block) {
                const std::uint64_t count = std::min(Block, take - done);
                const char* bytes = round.bytes_at(runs[r].local_value + skip + done);
                if (std::size_t(round.value_size) != size) {
                    buffer.resize(count * size);
                    convert(round, runs[r].local_value, skip + done, count, buffer.data());
                    bytes = buffer.data();
                }
                piece.crc = crc64(bytes, count * size, piece.crc);
                piece.length += count * size;
            }
            value += take;
        }
    });
    for (const std::vector<DigestPiece>& pieces : found)
        for (const DigestPiece& piece : pieces)
            digest_pieces_.insert(digest_pieces_.end(), {piece.offset, piece.length, piece.crc});
}

// Rank 0 folds every rank's checksum pieces of the round into the blocks'
// checksums, and its digest pieces into the round's CRC.
void RoundWriter::gather_checksums(int sum) {
    if (file_) {
        const std::vector<std::uint64_t> all = comm_.gather(pieces_);
        for (std::size_t i = 0; i + 3 < all.size(); i += 4)
            checksums_->add({all[i], all[i + 1], all[i + 2], all[i + 3]});
    }
    const std::vector<std::uint64_t> all = comm_.gather(digest_pieces_);
    if (!comm_.is_root())
        return;
    std::vector<DigestPiece> pieces;
    for (std::size_t i = 0; i + 2 < all.size(); i += 3)
        pieces.push_back({all[i], all[i + 1], all[i + 2]});
    digest_->add_round(sum, std::move(pieces));
}

WriteRecord RoundWriter::digested(int sum, std::size_t round, std::uint64_t crc) {
    if (file_ || comm_.size() != 1)
        throw std::logic_error("a round digested elsewhere with a file or several ranks (a bug: please report it)");
    digest_->set_round(sum, crc);
    const std::lock_guard<std::mutex> lock(mutex_);
    written_through_ = long(round);
    return {};
}

// The round is cut into groups of `ranks` segments of consecutive rows,
// each at most about SegmentBytes; segment g * ranks + r goes to rank r.
WriteRecord RoundWriter::write(const RoundStore& round, std::size_t round_index) {
    WriteRecord record;
    const double start = MPI_Wtime();
    // A failed write on any rank stops every rank here, before the next
    // collective, so none is left waiting.
    agree_no_failure();
    const std::uint64_t ranks = std::uint64_t(comm_.size());
    const Segments segments = Segments::of(layout_.round_values(round.sum), value_bytes(precision_), ranks);
    const std::uint64_t groups = segments.count / ranks;
    const std::vector<RowRun> runs = file_runs(round);
    pieces_.clear();
    digest_pieces_.clear();
    std::size_t next = 0;
    std::uint64_t row_in_run = 0;
    const bool digest_only = !file_ && ranks == 1;  // nothing to send or to write
    if (digest_only)
        digest_runs(round, runs);
    for (std::uint64_t group = 0; !digest_only && group < groups; ++group) {
        const std::vector<std::vector<RowRun>> pieces = cut_group(segments, group, runs, next, row_in_run);
        send_pieces(round, pieces, record);
        const std::uint64_t segment = group * ranks + std::uint64_t(comm_.rank());
        Job job = assemble_segment(round, segments.first_value(segment), segments.first_value(segment + 1),
                                   pieces[std::size_t(comm_.rank())]);
        job.round = long(round_index);
        if (!file_) {  // the digest only: the buffer serves the next segment
            const std::lock_guard<std::mutex> lock(mutex_);
            spare_.push_back(std::move(job.buffer));
            continue;
        }
        record.bytes_written += job.length;
        if (job.length > 0)
            queue(std::move(job));
    }
    if (file_) {
        Job marker;
        marker.round = long(round_index);
        marker.marker = true;
        queue(std::move(marker));
    } else {
        const std::lock_guard<std::mutex> lock(mutex_);
        written_through_ = long(round_index);
    }
    gather_checksums(round.sum);
    record.seconds = MPI_Wtime() - start;
    return record;
}

void RoundWriter::queue(Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return jobs_.size() < std::size_t(QueueDepth) || failure_; });
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
            failure =
                std::make_exception_ptr(PhaseError(comm_.rank(), Phase::Write, std::size_t(job.round), error.what()));
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
    std::exception_ptr failure;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        failure = failure_;
    }
    comm_.agree(failure);
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
    if (!file_)
        return;
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
