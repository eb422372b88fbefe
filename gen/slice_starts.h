// Slice starts: where each owned chunk's slice begins in a round's rows.
//
// A round's slice starts are a prefix sum over its owned chunks (partition.h):
// 47.1 million of them a round for 9x18 on one rank, and the band holds K+1
// rounds. Stored as a 64-bit row number a chunk they took 1.9 GB of 9x18's
// band. A slice holds at most H+1 rows, so the rows from the start of a
// block of 2^shift consecutive chunks to one of its chunks fit in 16 bits
// when 2^shift (H+1) does: each chunk keeps that 16-bit offset, and each
// block one 64-bit base. That is 2 bytes a chunk and 8 bytes a block, a
// quarter of the plain array. A well too tall for even one chunk a block
// (H+1 > 65535 / 2, a one- or two-column well: few chunks) keeps the plain
// array, as does the GPU's copy (built by a device scan, gpu_rounds.cu).
#pragma once

#include "support/host_device.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stack {

// The starts as the portable slice work reads them (slice_work.h), on the
// host or a device: a block base plus a chunk's offset, or, with no
// offsets, `base` the plain array indexed by chunk.
struct SliceStartsView {
    const std::uint64_t* base = nullptr;
    const std::uint16_t* offset = nullptr;
    int shift = 0;
    STACK_HD std::uint64_t operator[](std::uint64_t chunk) const {
        return offset ? base[chunk >> shift] + offset[chunk] : base[chunk];
    }
    // The plain array of a device round.
    static SliceStartsView plain(const std::uint64_t* starts) { return {starts, nullptr, 0}; }
};

class SliceStarts {
public:
    // The chunks a block holds: the most that keeps a block's rows within
    // 16 bits (at most 2^10), 0 when not even one chunk does.
    static int block_shift(int height) {
        const std::uint64_t slice_rows = std::uint64_t(height) + 1;
        if (2 * slice_rows > 0xFFFF)
            return -1;
        int shift = 0;
        while (shift < 10 && (slice_rows << (shift + 1)) <= 0xFFFF)
            ++shift;
        return shift;
    }
    // Bytes the starts of `chunks` chunks take in a well of `height` rows,
    // in the caller's integer type (the capacity checks' is 128 bits wide).
    template <class Count>
    static Count bytes(Count chunks, int height) {
        const int shift = block_shift(height);
        if (shift < 0)
            return (chunks + 1) * Count(sizeof(std::uint64_t));
        return (chunks + 1) * Count(sizeof(std::uint16_t)) + ((chunks >> shift) + 1) * Count(sizeof(std::uint64_t));
    }

    // Lays out the starts of `chunks` chunks, the slice of chunk c holding
    // rows(c) rows, on `parts` threads each taking whole blocks (run(part,
    // first, last) must call the given work for each part over [first,
    // last), as parallel_ranges does).
    template <class Rows, class RunParts>
    void lay_out(std::uint64_t chunks, int height, int parts, Rows&& rows, RunParts&& run_parts) {
        chunks_ = chunks;
        shift_ = block_shift(height);
        const bool plain = shift_ < 0;
        const int shift = plain ? 0 : shift_;
        const std::uint64_t blocks = (chunks >> shift) + 1;  // the last holds chunk `chunks`, the end
        base_.resize(plain ? chunks + 1 : blocks);
        offset_.resize(plain ? 0 : chunks + 1);
        std::vector<std::uint64_t> part_rows(std::size_t(parts) + 1, 0);
        // Pass 1: each part's blocks, their bases counted from the part's first.
        run_parts(parts, blocks, [&](int part, std::uint64_t first_block, std::uint64_t last_block) {
            std::uint64_t total = 0;
            for (std::uint64_t block = first_block; block < last_block; ++block) {
                const std::uint64_t begin = block << shift, end = std::min(chunks + 1, (block + 1) << shift);
                if (plain) {
                    for (std::uint64_t chunk = begin; chunk < end; ++chunk) {
                        base_[chunk] = total;
                        total += chunk < chunks ? rows(chunk) : 0;
                    }
                    continue;
                }
                base_[block] = total;
                std::uint64_t within = 0;
                for (std::uint64_t chunk = begin; chunk < end; ++chunk) {
                    offset_[chunk] = std::uint16_t(within);
                    within += chunk < chunks ? rows(chunk) : 0;
                }
                total += within;
            }
            part_rows[std::size_t(part) + 1] = total;
        });
        for (std::size_t part = 1; part < part_rows.size(); ++part)
            part_rows[part] += part_rows[part - 1];
        // Pass 2: the rows of the parts before each.
        if (parts > 1)
            run_parts(parts, blocks, [&](int part, std::uint64_t first_block, std::uint64_t last_block) {
                const std::uint64_t add = part_rows[std::size_t(part)];
                if (plain)
                    for (std::uint64_t chunk = first_block << shift; chunk < std::min(chunks + 1, last_block << shift);
                         ++chunk)
                        base_[chunk] += add;
                else
                    for (std::uint64_t block = first_block; block < last_block; ++block)
                        base_[block] += add;
            });
        rows_ = part_rows.back();
    }

    std::uint64_t operator[](std::uint64_t chunk) const { return view()[chunk]; }
    // Chunks + 1 (the last start is the round's rows).
    std::uint64_t size() const { return chunks_ + 1; }
    std::uint64_t rows() const { return rows_; }
    SliceStartsView view() const {
        return shift_ < 0 ? SliceStartsView::plain(base_.data()) : SliceStartsView{base_.data(), offset_.data(), shift_};
    }
    // Asks for a chunk's start to be fetched ahead (what varies by chunk:
    // the offsets; the bases are a few hundred kilobytes).
    void prefetch(std::uint64_t chunk, int locality) const {
        const void* at = shift_ < 0 ? static_cast<const void*>(base_.data() + chunk) : offset_.data() + chunk;
        if (locality >= 3)
            __builtin_prefetch(at, 0, 3);
        else
            __builtin_prefetch(at, 0, 2);
    }
    std::uint64_t bytes() const {
        return base_.capacity() * sizeof(std::uint64_t) + offset_.capacity() * sizeof(std::uint16_t);
    }
    void reserve(std::uint64_t chunks, int height) {
        const int shift = block_shift(height);
        base_.reserve(shift < 0 ? chunks + 1 : (chunks >> shift) + 1);
        if (shift >= 0)
            offset_.reserve(chunks + 1);
    }

private:
    std::uint64_t chunks_ = 0, rows_ = 0;
    int shift_ = 0;
    std::vector<std::uint64_t> base_;    // [block], or [chunk] when plain
    std::vector<std::uint16_t> offset_;  // [chunk]: rows from its block's base
};

}  // namespace stack
