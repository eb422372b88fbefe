#include "table/block_cache.h"

#include "table/table_file.h"
#include "support/errors.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>

namespace stack {

BlockCache::BlockCache(Handle file, Handle dataset, const std::string& path, const TableInfo& info,
                       std::optional<RoundLayout> layout, std::vector<std::uint32_t> checksums,
                       std::uint64_t memory_limit)
    : file_(std::move(file)), dataset_(std::move(dataset)), path_(path), info_(info), layout_(std::move(layout)),
      checksums_(std::move(checksums)),
      capacity_(std::max<std::uint64_t>(1, memory_limit / (BlockValues * sizeof(double)))) {
    const haddr_t offset = H5Dget_offset(dataset_);
    if (offset != HADDR_UNDEF && std::endian::native == std::endian::little) {
        descriptor_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        data_offset_ = offset;
    }
}

BlockCache::~BlockCache() {
    if (descriptor_ >= 0)
        ::close(descriptor_);
}

double BlockCache::value(std::uint64_t position) {
    const std::lock_guard<std::mutex> lock(mutex_);
    // Version 2: the checksummed block holding the position (blocks start
    // at each round); version 1: blocks from position 0.
    const std::uint64_t first = position / BlockValues * BlockValues;
    const RoundLayout::Block block =
        layout_ ? layout_->block_at(position)
                : RoundLayout::Block{position / BlockValues, first, std::min(BlockValues, info_.stored_states - first)};
    auto found = blocks_.find(block.index);
    if (found == blocks_.end())
        found = load(block);
    else
        recency_.splice(recency_.begin(), recency_, found->second.position);
    return found->second.values[position - block.first];
}

std::uint64_t BlockCache::memory_bytes() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return blocks_.size() * BlockValues * sizeof(double);
}

std::unordered_map<std::uint64_t, BlockCache::CachedBlock>::iterator BlockCache::load(const RoundLayout::Block& block) {
    if (blocks_.size() >= capacity_) {
        blocks_.erase(recency_.back());
        recency_.pop_back();
    }
    const std::uint64_t first = block.first, count = block.count;
    const std::size_t size = value_bytes(info_.precision);
    std::vector<char> raw(count * size);
    if (descriptor_ >= 0) {
        const ssize_t read = ::pread(descriptor_, raw.data(), raw.size(), off_t(data_offset_ + first * size));
        if (read != ssize_t(raw.size()))
            throw InputError("'" + path_ + "' is damaged: values " + std::to_string(first) + ".."
                             + std::to_string(first + count - 1) + " lie past its end");
    } else {
        read_range(dataset_, path_, info_.precision == Precision::Float64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT, first,
                   count, raw.data());
    }
    if (layout_ && crc32_of(raw.data(), raw.size()) != checksums_[block.index])
        throw InputError(damaged_block(path_, *layout_, block.index));
    std::vector<double> values(count);
    convert_and_check(raw.data(), info_.precision, count, values.data(), info_, path_,
                      [&](std::uint64_t i) { return board_at(first + i); });
    recency_.push_front(block.index);
    return blocks_.emplace(block.index, CachedBlock{std::move(values), recency_.begin()}).first;
}

BoardId BlockCache::board_at(std::uint64_t position) const {
    return layout_ ? Geometry(info_.width, info_.height).encode(layout_->board_at(position)) : position;
}

}  // namespace stack
