// A table's values read on demand: blocks of BlockValues values by
// position in /values, read on first use (straight from the file when the
// dataset is contiguous, else through HDF5), checked against their CRC-32
// (version 2) and for values no game can have, converted to double and
// kept in a cache of at most `memory_limit` bytes, least recently used out
// first. Lookups take a lock, so the player's threads may share it.
#pragma once

#include "table/hdf5_handle.h"
#include "table/table_format.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace stack {

class BlockCache {
public:
    static constexpr std::uint64_t BlockValues = ChecksumValues;

    // Keeps its own copies of what it needs; `checksums` empty for version 1.
    BlockCache(Handle file, Handle dataset, const std::string& path, const TableInfo& info,
               std::optional<RoundLayout> layout, std::vector<std::uint32_t> checksums, std::uint64_t memory_limit);
    ~BlockCache();
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    double value(std::uint64_t position);
    std::uint64_t memory_bytes();

private:
    struct CachedBlock {
        std::vector<double> values;
        std::list<std::uint64_t>::iterator position;  // in recency_
    };
    std::unordered_map<std::uint64_t, CachedBlock>::iterator load(const RoundLayout::Block& block);
    BoardId board_at(std::uint64_t position) const;

    std::mutex mutex_;
    Handle file_, dataset_;
    std::string path_;
    TableInfo info_;
    std::optional<RoundLayout> layout_;
    std::vector<std::uint32_t> checksums_;
    int descriptor_ = -1;
    std::uint64_t data_offset_ = 0;
    std::uint64_t capacity_;
    std::unordered_map<std::uint64_t, CachedBlock> blocks_;
    std::list<std::uint64_t> recency_;  // most recently used first
};

}  // namespace stack
