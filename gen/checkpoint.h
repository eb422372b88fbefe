// The partial table as a checkpoint.
//
// A run writes <output>.partial (table_writer.h): rank 0 creates it and
// keeps it open; about every checkpoint_seconds, when every rank's writes
// have reached further, it records the rounds finished everywhere with
// their connections and checksums and flushes the file to the device; at
// the end it records the last round and renames the file to <output>.
//
// --resume trusts nothing in the partial: before a board is computed,
//   - the file must be the table asked for (shape, classes, precision),
//     with the layout its shape gives (table_file.h);
//   - rounds_done must lie in 0..rounds;
//   - connections_done must equal the connections of those rounds, counted
//     from the rules (round_connections, rules/placement.h);
//   - every block of those rounds must match its checksum, read back from
//     the file by all ranks, each a share.
// Anything inconsistent is refused as bad input with one line: the partial
// is never published. A finished partial (every round done) resumes with
// its last round computed again, and is published.
#pragma once

#include "partition.h"
#include "rules/rules.h"
#include "support/communicator.h"
#include "table/table_writer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stack {

class Checkpoint {
public:
    // Collective. Creates the partial table (rank 0).
    static Checkpoint create(const Communicator& comm, const std::string& partial, const TableInfo& info,
                             const RoundLayout& layout, const Rules& rules);
    // Collective. Reopens and checks the partial table `asked` describes
    // (above), and says where the run continues.
    static Checkpoint resume(const Communicator& comm, const std::string& partial, const TableInfo& asked,
                             const RoundLayout& layout, const Rules& rules);

    std::uint64_t data_offset() const { return data_offset_; }
    // The first round to compute (rounds before it are on disk).
    std::size_t first_round() const { return first_round_; }
    // The connections of the rounds before first_round(), per piece.
    const PieceCounts& connections_before() const { return connections_before_; }
    // Rank 0: the checksums of the blocks of the rounds before first_round().
    const std::vector<std::uint32_t>& checksums() const { return checksums_; }

    // Rank 0: records that `rounds_done` rounds are on disk, with their
    // connections and checksums (blocks [first_block, last_block) new).
    void record(TableInfo progress, const std::vector<std::uint32_t>& checksums, std::uint64_t first_block,
                std::uint64_t last_block);
    // Rank 0: adds the finished table's digest.
    void record_digest(std::uint64_t digest) { file_->record_digest(digest); }
    // Rank 0: closes the finished table and renames it to `output`.
    void publish(const std::string& output);

private:
    Checkpoint() = default;
    std::string partial_;
    std::optional<RoundTableFile> file_;  // rank 0
    std::uint64_t data_offset_ = 0;
    std::size_t first_round_ = 0;
    PieceCounts connections_before_;
    std::vector<std::uint32_t> checksums_;
};

// The connections of the first `rounds` rounds (from the top row sum).
PieceCounts connections_of_rounds(const Rules& rules, const RoundLayout& layout, std::size_t rounds);

}  // namespace stack
