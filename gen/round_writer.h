// Writing finished rounds into the table file while the next ones compute.
//
// In the file a round's rows stand in id order (table_format.h), and each
// rank owns every P-th chunk, so a rank's rows are scattered all over the
// round. Rather than ask MPI-IO or HDF5 for one write with a hundred
// thousand pieces per round (HDF5's selections grow quadratically there),
// the writer does the two-phase exchange itself: the round is cut into
// segments of consecutive rows, each rank gathers one segment from every
// rank (MPI_Alltoallv of the values, with a header per piece saying where
// it goes), and writes that one contiguous segment with pwrite at the
// dataset's place in the file. A round larger than ranks x SegmentBytes
// goes in several such groups, which bounds the memory. The writes run on a
// thread of their own, so they overlap the next rounds' compute, and go
// around the page cache (O_DIRECT) where the file system allows: the disk
// then moves the bytes while both cores compute, instead of a core copying
// them into freshly allocated cache pages. Only the partial pages at a
// segment's two ends go through the cache. HDF5 has made the file and
// allocated the dataset before, and adds the last attributes after
// (table_writer.h).
//
// The writer also checksums what it writes: each rank the CRC-32 of its
// segments' pieces of every block, rank 0 folding them into the blocks'
// checksums (table_format.h), and the CRC-64 of each segment, rank 0
// folding them into the table's digest (table/digest.h). Converting and
// checksumming a segment is split over the rank's worker threads.
// Without a file (stackgen --no-output) it does all of that but the
// writing and the blocks' checksums: the digest still comes out. A single
// rank without a file skips the segments too and checksums its runs where
// they lie in the store, each worker thread an equal share (digest_runs). And it tells how far the file is on disk: a
// marker follows each round's segments through the writer thread, so
// written_through() is the last round all of whose bytes this rank wrote.
#pragma once

#include "band.h"
#include "support/communicator.h"
#include "table/digest.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stack {

struct WriteRecord {
    std::uint64_t bytes_written = 0;        // by this rank, for this round
    std::uint64_t bytes_redistributed = 0;  // sent to other ranks
    double seconds = 0;                     // redistributing and queueing (the writes themselves overlap)
};

class RoundWriter {
public:
    static constexpr std::uint64_t SegmentBytes = std::uint64_t(16) << 20;
    // Segments waiting for the writer thread: enough to keep the disk busy;
    // queue() waits while this many are queued.
    static constexpr int QueueDepth = 2;
    // Segments' worth of working memory beside the queue: the segment being
    // assembled and the redistribution's send, receive and header arrays.
    static constexpr int WorkingSegments = 4;
    // The most the writer holds, which the memory checks and --plan allow
    // for (capacity.cpp).
    static constexpr std::uint64_t MostBufferBytes = std::uint64_t(QueueDepth + WorkingSegments) * SegmentBytes;

    // Collective. `data_offset` is the byte offset of /values in `path`;
    // an empty path writes nothing (the digest only). `threads` convert
    // and checksum each segment.
    RoundWriter(const Communicator& comm, const Partition& partition, const RoundLayout& layout, Precision precision,
                const std::string& path, std::uint64_t data_offset, int threads = 1);
    ~RoundWriter();
    RoundWriter(const RoundWriter&) = delete;
    RoundWriter& operator=(const RoundWriter&) = delete;

    // Collective: sends the round's values to the ranks that write them,
    // queues this rank's segments and gathers their checksums on rank 0.
    // `round` is the round's index (0 for the top row sum).
    WriteRecord write(const RoundStore& store, std::size_t round);
    // One rank without a file: round `round` (row sum `sum`), whose CRC in
    // the table was computed elsewhere (a GPU's, GpuRounds::
    // digest_on_device), counts as written.
    WriteRecord digested(int sum, std::size_t round, std::uint64_t crc);
    // Waits for every queued write; throws if any failed. Collective.
    void finish();
    // The last round whose bytes this rank has all written (-1: none yet).
    long written_through() const;
    // Flushes what this rank wrote to the device.
    void sync();
    // Rank 0: the blocks' checksums, complete for the rounds written (a
    // writer with a file).
    ChecksumAssembler& checksums() { return *checksums_; }
    // Rank 0: the table's digest, its rounds' CRCs as they are written.
    ValueDigest& digest() { return *digest_; }
    // Bytes held by queued writes and buffers now.
    std::uint64_t buffer_bytes() const;
    double writer_busy_seconds() const { return busy_seconds_; }

    // A round cut into `count` segments of consecutive file rows: groups of
    // `ranks` segments, as few groups as keep a segment within about
    // SegmentBytes; segment g * ranks + r goes to rank r. The planner
    // (traffic.h) cuts a planned run's rounds the same way.
    // A round's values cut into segments (`values` of `value_bytes` each).
    struct Segments {
        std::uint64_t values;
        std::uint64_t count;
        std::uint64_t first_value(std::uint64_t segment) const { return values * segment / count; }
        static Segments of(std::uint64_t values, std::uint64_t value_bytes, std::uint64_t ranks) {
            const std::uint64_t bytes = values * value_bytes;
            return {values,
                    std::max<std::uint64_t>(1, (bytes + ranks * SegmentBytes - 1) / (ranks * SegmentBytes)) * ranks};
        }
    };

private:
    // Consecutive values that lie together both in the file and in this
    // rank's round store (called a piece of a segment when sent): whole
    // rows, split only where segments cut them.
    struct RowRun {
        std::uint64_t file_value;   // the first value's place in the round in the file
        std::uint64_t local_value;  // its place in this rank's round store
        std::uint64_t values;
    };
    // A segment to write: `length` bytes at file offset `offset`, held at
    // data() in a page-aligned buffer, placed so that the file's page
    // boundaries fall on the buffer's.
    struct Job {
        std::vector<char> buffer;  // DirectAlignment more than needed
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
        long round = -1;      // the round it belongs to
        bool marker = false;  // no bytes: the round's last job
        char* data() {
            const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(buffer.data());
            const std::uintptr_t aligned = (base + DirectAlignment - 1) / DirectAlignment * DirectAlignment;
            return reinterpret_cast<char*>(aligned) + offset % DirectAlignment;
        }
    };
    static constexpr std::uint64_t DirectAlignment = 4096;
    int worker_parts(std::uint64_t items, std::uint64_t grain = 65536) const;
    std::vector<RowRun> file_runs(const RoundStore& round) const;
    std::vector<std::vector<RowRun>> cut_group(const Segments& segments, std::uint64_t group,
                                               const std::vector<RowRun>& runs, std::size_t& next,
                                               std::uint64_t& row_in_run) const;
    void send_pieces(const RoundStore& round, const std::vector<std::vector<RowRun>>& pieces, WriteRecord& record);
    Job assemble_segment(const RoundStore& round, std::uint64_t low, std::uint64_t high,
                         const std::vector<RowRun>& own);
    void digest_runs(const RoundStore& round, const std::vector<RowRun>& runs);
    void gather_checksums(int sum);
    void checksum_segment(const char* data, std::uint64_t position, std::uint64_t count,
                          const std::function<void(std::uint64_t, std::uint64_t)>& fill);
    void write_job(Job& job);
    void queue(Job job);
    void agree_no_failure();
    std::vector<char> spare_bytes();  // a buffer a finished write gave back
    void run_writer();
    void convert(const RoundStore& round, std::uint64_t first, std::uint64_t skip, std::uint64_t count,
                 char* out) const;

    const Communicator& comm_;
    const Partition& partition_;
    const RoundLayout& layout_;
    Precision precision_;
    std::uint64_t data_offset_;
    int descriptor_ = -1;         // buffered
    int direct_descriptor_ = -1;  // O_DIRECT, or -1 where the file system refuses it
    std::string path_;

    std::unique_ptr<ChecksumAssembler> checksums_;  // rank 0
    std::vector<std::uint64_t> pieces_;             // this round's checksum pieces, 4 numbers each
    std::unique_ptr<ValueDigest> digest_;           // rank 0
    std::vector<std::uint64_t> digest_pieces_;      // this round's digest pieces, 3 numbers each
    int threads_ = 1;
    bool file_ = true;  // false: the digest only
    long written_through_ = -1;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Job> jobs_;
    std::vector<std::vector<char>> spare_;  // buffers of finished writes, reused (fresh memory is slow)
    std::vector<std::uint64_t> headers_, headers_received_;
    std::vector<char> values_, values_received_;
    std::uint64_t queued_bytes_ = 0;
    bool stopping_ = false;
    std::exception_ptr failure_;
    double busy_seconds_ = 0;
    std::thread writer_;
};

}  // namespace stack
