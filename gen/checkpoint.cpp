#include "checkpoint.h"

#include "rules/placement.h"
#include "support/cli.h"
#include "support/errors.h"
#include "table/table_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace stack {

PieceCounts connections_of_rounds(const Rules& rules, const RoundLayout& layout, std::size_t rounds) {
    const Geometry& geometry = layout.geometry();
    const CompositionCodec columns(geometry.width() - 1, geometry.height());
    PieceCounts total(std::size_t(rules.piece_count()), 0);
    for (std::size_t round = 0; round < rounds; ++round) {
        const PieceCounts counts = round_connections(rules, geometry, columns, layout.residues(),
                                                     layout.rounds() - 1 - int(round), layout.mirrored());
        for (std::size_t piece = 0; piece < total.size(); ++piece)
            total[piece] += counts[piece];
    }
    return total;
}

Checkpoint Checkpoint::create(const Communicator& comm, const std::string& partial, const TableInfo& info,
                              const RoundLayout& layout, const Rules& rules) {
    Checkpoint checkpoint;
    checkpoint.partial_ = partial;
    checkpoint.connections_before_.assign(std::size_t(rules.piece_count()), 0);
    comm.on_root([&] {
        checkpoint.file_.emplace(RoundTableFile::create(partial, info, layout));
        checkpoint.data_offset_ = checkpoint.file_->data_offset();
    });
    comm.broadcast(checkpoint.data_offset_);
    return checkpoint;
}

namespace {

std::string counts_text(const std::vector<std::uint64_t>& counts) {
    std::string text;
    for (const std::uint64_t count : counts)
        text += (text.empty() ? "" : ", ") + std::to_string(count);
    return text;
}

// Rank 0: the partial must be the table asked for, with counters that its
// own rounds bear out.
void check_counters(const RoundTableFile& file, const std::string& partial, const TableInfo& asked,
                    const RoundLayout& layout, const Rules& rules) {
    const TableInfo& found = file.info();
    if (found.width != asked.width || found.height != asked.height || !(found.residues == asked.residues)
        || found.precision != asked.precision || found.pieces.attribute_text() != asked.pieces.attribute_text())
        throw InputError("'" + partial + "' holds a " + std::to_string(found.width) + "x" + std::to_string(found.height)
                         + " table of " + found.pieces.name() + ", classes {" + found.residues.text() + "} in "
                         + precision_name(found.precision) + ", not the one asked for");
    if (found.rounds_done < 0 || found.rounds_done > layout.rounds())
        throw InputError("'" + partial + "': its rounds_done attribute (" + std::to_string(found.rounds_done)
                         + ") is outside 0.." + std::to_string(layout.rounds()) + ": it cannot be resumed");
    const PieceCounts expected = connections_of_rounds(rules, layout, std::size_t(found.rounds_done));
    if (found.connections_done != std::vector<std::uint64_t>(expected.begin(), expected.end()))
        throw InputError("'" + partial + "': its connections_done attribute (" + counts_text(found.connections_done)
                         + ") is not the count of its " + std::to_string(found.rounds_done) + " rounds ("
                         + counts_text({expected.begin(), expected.end()}) + "): it cannot be resumed");
}

// Every rank reads back a share of the blocks of the rounds on disk and
// checks them against their checksums: [first_block, blocks) of the file.
void check_rounds_on_disk(const Communicator& comm, const std::string& partial, const RoundLayout& layout,
                          const std::vector<std::uint32_t>& checksums, std::uint64_t first_block,
                          std::uint64_t data_offset) {
    const std::uint64_t blocks = layout.checksum_blocks() - first_block;
    const std::uint64_t begin = first_block + blocks * std::uint64_t(comm.rank()) / std::uint64_t(comm.size());
    const std::uint64_t end = first_block + blocks * std::uint64_t(comm.rank() + 1) / std::uint64_t(comm.size());
    comm.on_every_rank([&] {
        if (begin == end)
            return;
        const int descriptor = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0)
            throw InputError("cannot read '" + partial + "' to resume it: " + std::strerror(errno));
        std::vector<char> bytes(ChecksumValues * sizeof(double));
        std::string refusal;
        for (std::uint64_t index = begin; index < end && refusal.empty(); ++index) {
            const RoundLayout::Block block = layout.block(index);
            const std::uint64_t length = block.count * sizeof(double);
            const ssize_t got =
                ::pread(descriptor, bytes.data(), length, off_t(data_offset + block.first * sizeof(double)));
            if (got != ssize_t(length) || crc32_of(bytes.data(), length) != checksums[index])
                refusal = damaged_block(partial, layout, index);
        }
        ::close(descriptor);
        if (!refusal.empty())
            throw InputError(refusal + ": it cannot be resumed (--force discards it)");
    });
}

}  // namespace

Checkpoint Checkpoint::resume(const Communicator& comm, const std::string& partial, const TableInfo& asked,
                              const RoundLayout& layout, const Rules& rules) {
    Checkpoint checkpoint;
    checkpoint.partial_ = partial;
    std::int64_t rounds_done = 0;
    comm.on_root([&] {
        checkpoint.file_.emplace(RoundTableFile::reopen(partial));
        check_counters(*checkpoint.file_, partial, asked, layout, rules);
        rounds_done = checkpoint.file_->info().rounds_done;
        checkpoint.data_offset_ = checkpoint.file_->data_offset();
        checkpoint.checksums_ = checkpoint.file_->checksums();
    });
    comm.broadcast(rounds_done);
    comm.broadcast(checkpoint.data_offset_);
    comm.broadcast(checkpoint.checksums_);
    const int lowest_done = layout.rounds() - int(rounds_done);  // the row sum of the last round on disk
    check_rounds_on_disk(comm, partial, layout, checkpoint.checksums_, layout.first_block(lowest_done),
                         checkpoint.data_offset_);
    // A finished partial computes its last round again (it is the one row
    // of sum 0) and is published.
    checkpoint.first_round_ = std::min<std::size_t>(std::size_t(rounds_done), std::size_t(layout.rounds() - 1));
    checkpoint.connections_before_ = connections_of_rounds(rules, layout, checkpoint.first_round_);
    return checkpoint;
}

void Checkpoint::record(TableInfo progress, const std::vector<std::uint32_t>& checksums, std::uint64_t first_block,
                        std::uint64_t last_block) {
    file_->record(progress, checksums, first_block, last_block);
}

void Checkpoint::publish(const std::string& output) {
    file_->close();
    if (std::rename(partial_.c_str(), output.c_str()) != 0)
        throw std::runtime_error("cannot rename " + partial_ + " to " + output + ": " + std::strerror(errno));
}

}  // namespace stack
