#include "band.h"

#include "support/parallel.h"

#include "support/errors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace stack {

void RoundArray::release() {
    if (mapped_)
        ::munmap(mapped_, mapped_capacity_ * sizeof(double));
    mapped_ = nullptr;
    mapped_size_ = mapped_capacity_ = 0;
    memory_ = HugeVector<double>();
}

void RoundArray::resize(std::size_t words) {
    reserve(words);
    if (spilled())
        mapped_size_ = words;
    else
        memory_.resize(words);
}

// A spilled array's file: made unnamed in the directory where the file
// system can (O_TMPFILE), else named and unlinked at once; its blocks
// reserved, then mapped shared. The descriptor is closed: the mapping
// keeps the file.
void RoundArray::reserve(std::size_t words) {
    if (capacity() >= words)
        return;
    if (!spilled()) {
        memory_ = HugeVector<double>();
        memory_.reserve(words);
        return;
    }
    release();
    if (words == 0)
        return;
    const std::size_t bytes = words * sizeof(double);
    const auto fail = [&](const char* what, int error) {
        throw InputError("cannot spill the band to " + spill_ + ": " + what + " (" + std::strerror(error) + ")");
    };
    int fd = ::open(spill_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        std::string name = spill_ + "/stackgen-band-XXXXXX";
        fd = ::mkstemp(name.data());
        if (fd < 0)
            fail("making a file there", errno);
        ::unlink(name.c_str());
    }
    if (const int error = ::posix_fallocate(fd, 0, off_t(bytes)); error != 0) {
        ::close(fd);
        fail(("reserving " + std::to_string(bytes) + " bytes of disk").c_str(), error);
    }
    void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int error = errno;
    ::close(fd);
    if (memory == MAP_FAILED)
        fail("mapping its file", error);
    mapped_ = static_cast<double*>(memory);
    mapped_capacity_ = words;
}

// The slice starts are a prefix sum over the owned chunks (85.8 million a
// round for 9x20 on one rank): each thread sums a contiguous range of
// blocks of chunks, then adds the rows of the ranges before it
// (slice_starts.h). Small rounds stay on one thread.
RoundStore::RoundStore(const Partition& partition, const RoundLayout& layout, int round_sum, int bytes_a_value,
                       RoundStore reused, int threads)
    : sum(round_sum), row_length(layout.row_length(round_sum)), value_size(bytes_a_value),
      slice_start(std::move(reused.slice_start)), values(std::move(reused.values)),
      top_rows(std::move(reused.top_rows)), top_values(std::move(reused.top_values)),
      top_length(std::move(reused.top_length)) {
    const std::uint64_t chunks = partition.owned_chunks();
    const int parts = chunks >= (std::uint64_t(1) << 20) ? std::max(threads, 1) : 1;
    slice_start.lay_out(
        chunks, partition.geometry().height(), parts,
        [&](std::uint64_t chunk) { return partition.slice_rows(chunk, round_sum); },
        [](int count, std::uint64_t blocks, auto&& work) { parallel_ranges(count, blocks, work); });
    const std::uint64_t rows = slice_start.rows();
    const int height = partition.geometry().height();
    top_rows.assign(std::size_t(height) + 2, 0);
    top_values.assign(std::size_t(height) + 2, 0);
    top_length.assign(std::size_t(height) + 1, row_length);
    if (layout.mirrored()) {
        for (int top = 0; top <= height + 1; ++top) {
            top_rows[std::size_t(top)] = slice_start[partition.first_chunk_of_top(top)];
            if (top > 0)
                top_values[std::size_t(top)] = top_values[std::size_t(top) - 1]
                                               + (top_rows[std::size_t(top)] - top_rows[std::size_t(top) - 1])
                                                     * std::uint64_t(top_length[std::size_t(top) - 1]);
            if (top <= height)
                top_length[std::size_t(top)] = layout.row_length(round_sum, top);
        }
    } else {
        top_rows.back() = rows;
        top_values.back() = rows * std::uint64_t(row_length);
    }
    // Every value is written before it is read. An array too small is
    // freed before the new one is allocated, of exactly the round's size:
    // growing it would copy dead values and hold both at once.
    const std::uint64_t words = (value_count() * std::uint64_t(value_size) + sizeof(double) - 1) / sizeof(double);
    values.resize(words);
}

Band::Band(const Partition& partition, const RoundLayout& layout, int most_rounds, int value_size, int threads,
           std::string spill)
    : partition_(partition), layout_(layout), rounds_(partition.rounds()), most_rounds_(std::max(most_rounds, 1)),
      value_size_(value_size), threads_(threads), spill_(std::move(spill)) {
    const std::vector<std::uint64_t> values = round_values(partition, layout);
    round_bytes_.reserve(values.size());
    for (const std::uint64_t count : values)
        round_bytes_.push_back(values_bytes(count, value_size));
    peak_ = peak(partition, values, most_rounds_, value_size);
}

std::vector<std::uint64_t> Band::round_values(const Partition& partition, const RoundLayout& layout) {
    std::vector<std::uint64_t> values(std::size_t(partition.rounds()), 0);
    if (layout.mirrored() && !partition.counts_only()) {  // exact, top by top
        const std::vector<std::uint64_t> rows = partition.owned_rows_per_round_and_top();
        const std::size_t base = std::size_t(partition.geometry().height()) + 1;
        for (int sum = 0; sum < partition.rounds(); ++sum)
            for (std::size_t top = 0; top < base; ++top)
                values[std::size_t(sum)] +=
                    rows[std::size_t(sum) * base + top] * std::uint64_t(layout.row_length(sum, int(top)));
        return values;
    }
    const std::vector<std::uint64_t> rows = partition.owned_rows_per_round();
    for (int sum = 0; sum < partition.rounds(); ++sum) {
        std::uint64_t& round = values[std::size_t(sum)];
        round = rows[std::size_t(sum)] * std::uint64_t(layout.row_length(sum));
        if (layout.mirrored() && layout.rows(sum) > 0) {
            // A counting partition (--plan): the rank's share of the round's
            // rows holds about that share of its values (chunks are dealt
            // cyclically): exact on one rank, and a margin of a percent and
            // a full slice's rows elsewhere.
            const long double share = (long double)rows[std::size_t(sum)] / (long double)layout.rows(sum);
            round = std::uint64_t(share * (long double)layout.round_values(sum));
            if (partition.ranks() > 1)
                round = std::min(rows[std::size_t(sum)] * std::uint64_t(layout.row_length(sum)),
                                 round + round / 100 + std::uint64_t(layout.row_length(sum)) * 64);
        }
    }
    return values;
}

std::uint64_t Band::largest_round_values(const Partition& partition, const RoundLayout& layout) {
    const std::vector<std::uint64_t> values = round_values(partition, layout);
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

// What RoundStore::bytes counts beside the values: the slice starts, one a
// chunk and one more, and the top tables' first rows and values.
std::uint64_t Band::slice_bytes(const Partition& partition) {
    return SliceStarts::bytes(partition.owned_chunks(), partition.geometry().height())
           + 2 * (std::uint64_t(partition.geometry().height()) + 2) * sizeof(std::uint64_t);
}

BandPeak Band::peak(const Partition& partition, const std::vector<std::uint64_t>& round_values, int most_rounds,
                    int value_size) {
    const int rounds = int(round_values.size());
    const std::uint64_t slices = slice_bytes(partition);
    BandPeak best;
    std::uint64_t best_bytes = 0;
    for (int first = 0; first < rounds; ++first) {
        const int last = std::min(first + most_rounds, rounds);
        std::uint64_t bytes = 0;
        for (int sum = first; sum < last; ++sum)
            bytes += values_bytes(round_values[std::size_t(sum)], value_size) + slices;
        if (first == 0 || bytes > best_bytes) {
            best_bytes = bytes;
            best.first_sum = first;
        }
    }
    const int last = std::min(best.first_sum + most_rounds, rounds);
    for (int sum = best.first_sum; sum < last; ++sum) {
        best.round_bytes.push_back(values_bytes(round_values[std::size_t(sum)], value_size));
        best.values_bytes += best.round_bytes.back();
        best.slice_bytes += slices;
    }
    return best;
}

// Round `sum` is held in the bands of rounds sum - K..sum (K = most_rounds
// - 1), which also hold the rounds above it still open then: of those held
// now, sum + 1..first + K for the band from `first`. Rounds below `sum`
// are laid out later, each checked in turn, so their spare room is known
// to be nothing yet.
bool Band::fits_peak(int sum, std::uint64_t capacity) const {
    const int rounds = int(round_bytes_.size());
    const std::uint64_t spare_room = capacity - round_bytes_[std::size_t(sum)];
    const std::uint64_t slices = slice_bytes(partition_);
    for (int first = std::max(0, sum - (most_rounds_ - 1)); first <= sum; ++first) {
        std::uint64_t bytes = spare_room;
        for (int held = first; held < std::min(first + most_rounds_, rounds); ++held) {
            bytes += round_bytes_[std::size_t(held)] + slices;
            if (held > sum && holds(held))
                bytes +=
                    rounds_[std::size_t(held)].values.capacity() * sizeof(double) - round_bytes_[std::size_t(held)];
        }
        if (bytes > peak_.bytes())
            return false;
    }
    return true;
}

RoundStore& Band::open(int sum) {
    // The smallest spare array that holds the round and fits the peak; the
    // other spares are freed before anything is allocated.
    std::size_t chosen = spare_.size();
    for (std::size_t i = 0; i < spare_.size(); ++i) {
        const std::uint64_t capacity = spare_[i].values.capacity() * sizeof(double);
        if (capacity >= round_bytes_[std::size_t(sum)] && fits_peak(sum, capacity)
            && (chosen == spare_.size() || capacity < spare_[chosen].values.capacity() * sizeof(double)))
            chosen = i;
    }
    RoundStore reused;
    if (!spare_.empty()) {
        reused = std::move(spare_[chosen < spare_.size() ? chosen : 0]);
        if (chosen == spare_.size())
            reused.values = RoundArray(spill_);
        spare_.clear();
    } else {
        reused.values = RoundArray(spill_);
        reused.slice_start.reserve(partition_.owned_chunks(), partition_.geometry().height());
    }
    rounds_[sum] = RoundStore(partition_, layout_, sum, value_size_, std::move(reused), threads_);
    return rounds_[sum];
}

void Band::close(int sum) {
    if (!holds(sum))
        return;
    spare_.push_back(std::move(rounds_[sum]));
    rounds_[sum] = RoundStore();
}

std::uint64_t Band::bytes() const {
    std::uint64_t bytes = 0;
    for (const RoundStore& round : rounds_)
        bytes += round.sum >= 0 ? round.bytes() : 0;
    for (const RoundStore& round : spare_)
        bytes += round.bytes();
    return bytes;
}

}  // namespace stack
