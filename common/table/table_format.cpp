#include "table/table_format.h"

#include "rules/pieces.h"
#include "rules/piece_set.h"
#include "support/errors.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace stack {

std::string precision_name(Precision precision) { return precision == Precision::Float64 ? "float64" : "float32"; }

Precision parse_precision(const std::string& text, const std::string& option) {
    if (text == "float64")
        return Precision::Float64;
    if (text == "float32")
        return Precision::Float32;
    throw InputError("--" + option + " must be float64 or float32, not '" + text + "'");
}

std::string clears_name(Clears clears) { return clears == Clears::Tetris ? "tetris" : "none"; }

Clears parse_clears(const std::string& text, const std::string& option) {
    if (text == "none")
        return Clears::None;
    if (text == "tetris")
        return Clears::Tetris;
    throw InputError("--" + option + " must be none or tetris, not '" + text + "'");
}

RoundLayout::RoundLayout(const Geometry& geometry, ResidueSet residues, bool mirrored)
    : geometry_(geometry), residues_(residues), rows_(geometry.width() - 1, geometry.height()),
      row_length_(std::size_t(residues.modulus()), 0), index_(std::size_t(residues.modulus())),
      mirrored_(mirrored && geometry.width() >= 2) {
    const int height = geometry.height(), width = geometry.width();
    short_length_.assign(std::size_t(residues.modulus()) * base(), 0);
    for (int sum_class = 0; sum_class < residues.modulus(); ++sum_class) {
        index_[sum_class].assign(height + 1, -1);
        for (int h0 = 0; h0 <= height; ++h0) {
            if (residues.holds_sum(sum_class + h0))
                index_[sum_class][h0] = row_length_[sum_class]++;
            short_length_[std::size_t(sum_class) * base() + std::size_t(h0)] = row_length_[sum_class];
        }
    }
    const int rounds = rows_.max_sum() + 1;
    offsets_.assign(rounds + 1, 0);
    block_offsets_.assign(rounds + 1, 0);
    if (mirrored_) {
        top_rows_.assign(std::size_t(rounds) * (base() + 1), 0);
        top_values_.assign(std::size_t(rounds) * (base() + 1), 0);
    }
    for (int sum = 0; sum < rounds; ++sum) {
        std::uint64_t values = rows_.count(sum) * std::uint64_t(row_length(sum));
        if (mirrored_) {
            // Rows of top t: the other W-2 row columns sum to S - t.
            std::uint64_t rows = 0;
            values = 0;
            for (int top = 0; top <= height; ++top) {
                const std::size_t at = std::size_t(sum) * (base() + 1) + std::size_t(top);
                top_rows_[at] = rows;
                top_values_[at] = values;
                const std::uint64_t of_top = rows_.count(width - 2, sum - top);
                rows += of_top;
                values += of_top * std::uint64_t(row_length(sum, top));
            }
            top_rows_[std::size_t(sum) * (base() + 1) + base()] = rows;
            top_values_[std::size_t(sum) * (base() + 1) + base()] = values;
        }
        offsets_[sum + 1] = offsets_[sum] + values;
        block_offsets_[sum + 1] = block_offsets_[sum] + (round_values(sum) + ChecksumValues - 1) / ChecksumValues;
    }
}

Heights RoundLayout::canonical(const Heights& heights) const {
    const int width = geometry_.width();
    if (!mirrored_ || heights[0] <= heights[width - 1])
        return heights;
    Heights image{};
    for (int column = 0; column < width; ++column)
        image[column] = heights[width - 1 - column];
    return image;
}

std::uint64_t RoundLayout::fewest_stored_states(const Geometry& geometry, const ResidueSet& residues, bool mirrored) {
    const std::uint64_t rows = geometry.states() / geometry.base();  // (H+1)^(W-1)
    const std::uint64_t full =
        rows * (geometry.base() / std::uint64_t(residues.modulus())) * std::uint64_t(residues.count());
    return mirrored && geometry.width() >= 2 ? full / 2 : full;
}

RoundLayout::Block RoundLayout::block_at(std::uint64_t position) const {
    const int sum = int(std::upper_bound(offsets_.begin(), offsets_.end(), position) - offsets_.begin()) - 1;
    const std::uint64_t within = (position - offsets_[sum]) / ChecksumValues;
    const std::uint64_t first = offsets_[sum] + within * ChecksumValues;
    return {block_offsets_[sum] + within, first, std::min(ChecksumValues, offsets_[sum + 1] - first)};
}

RoundLayout::Block RoundLayout::block(std::uint64_t index) const {
    const int sum =
        int(std::upper_bound(block_offsets_.begin(), block_offsets_.end(), index) - block_offsets_.begin()) - 1;
    const std::uint64_t first = offsets_[sum] + (index - block_offsets_[sum]) * ChecksumValues;
    return {index, first, std::min(ChecksumValues, offsets_[sum + 1] - first)};
}

std::uint32_t crc32_of(const char* bytes, std::uint64_t count) {
    return std::uint32_t(crc32_z(0, reinterpret_cast<const Bytef*>(bytes), z_size_t(count)));
}

std::vector<ChecksumPiece> checksum_pieces(const RoundLayout& layout, std::uint64_t position, std::uint64_t count,
                                           const char* bytes, std::size_t value_size) {
    std::vector<ChecksumPiece> pieces;
    const std::uint64_t end = position + count;
    while (position < end) {
        const RoundLayout::Block block = layout.block_at(position);
        const std::uint64_t stop = std::min(end, block.first + block.count);
        const std::uint64_t length = (stop - position) * value_size;
        pieces.push_back({block.index, (position - block.first) * value_size, length, crc32_of(bytes, length)});
        bytes += length;
        position = stop;
    }
    return pieces;
}

ChecksumAssembler::ChecksumAssembler(const RoundLayout& layout, std::size_t value_size)
    : layout_(layout), value_size_(value_size), checksums_(layout.checksum_blocks(), 0),
      covered_(layout.checksum_blocks(), 0), waiting_(layout.checksum_blocks()) {}

std::uint64_t ChecksumAssembler::bytes(std::uint64_t block) const { return layout_.block(block).count * value_size_; }

// Pieces are folded in byte order; one that arrives early waits.
void ChecksumAssembler::add(const ChecksumPiece& piece) {
    std::vector<ChecksumPiece>& waiting = waiting_[piece.block];
    waiting.push_back(piece);
    bool progress = true;
    while (progress) {
        progress = false;
        for (std::size_t i = 0; i < waiting.size(); ++i) {
            if (waiting[i].offset < covered_[piece.block])
                throw std::logic_error("a checksum piece overlaps another (a bug: please report it)");
            if (waiting[i].offset != covered_[piece.block])
                continue;
            checksums_[piece.block] = std::uint32_t(
                crc32_combine(checksums_[piece.block], uLong(waiting[i].crc), z_off_t(waiting[i].length)));
            covered_[piece.block] += waiting[i].length;
            waiting.erase(waiting.begin() + std::ptrdiff_t(i));
            progress = true;
            break;
        }
    }
}

void ChecksumAssembler::set(std::uint64_t block, std::uint32_t crc) {
    checksums_[block] = crc;
    covered_[block] = bytes(block);
}

bool RoundLayout::holds(const Heights& heights) const {
    int sum = 0;
    for (int column = 0; column < geometry_.width(); ++column)
        sum += heights[column];
    return residues_.holds_sum(sum) && (!mirrored_ || heights[0] <= heights[geometry_.width() - 1]);
}

std::uint64_t RoundLayout::position(const Heights& heights) const {
    int row_sum = 0;
    for (int column = 1; column < geometry_.width(); ++column)
        row_sum += heights[column];
    return row_position(row_sum, row_rank(heights, row_sum), heights[geometry_.width() - 1])
           + std::uint64_t(index_in_row(row_sum, heights[0]));
}

Heights RoundLayout::board_at(std::uint64_t position) const {
    const int sum = int(std::upper_bound(offsets_.begin(), offsets_.end(), position) - offsets_.begin()) - 1;
    std::uint64_t within = position - offsets_[sum];
    int length = row_length(sum);
    std::uint64_t rank = within / length;
    if (mirrored_) {
        const std::uint64_t* tops = top_values_.data() + std::size_t(sum) * (base() + 1);
        const int top = int(std::upper_bound(tops, tops + base() + 1, within) - tops) - 1;
        length = row_length(sum, top);
        within -= tops[top];
        rank = rows_below_top(sum, top) + within / length;
    }
    Heights heights{};
    rows_.unrank(sum, rank, heights.data() + 1);
    const int index = int(within % length);
    const std::vector<int>& indices = index_[sum % residues_.modulus()];
    heights[0] = int(std::find(indices.begin(), indices.end(), index) - indices.begin());
    return heights;
}

void write_table_info(hid_t file, const TableInfo& info) {
    write_attribute(file, "format_version", info.format_version);
    write_attribute(file, "width", std::int64_t(info.width));
    write_attribute(file, "height", std::int64_t(info.height));
    write_attribute(file, "schedule", info.schedule);
    write_attribute(file, "states", info.states);
    write_attribute(file, "connections", info.connections);
    write_attribute(file, "pieces", info.pieces.attribute_text());
    write_attribute(file, "generator", info.generator);
    if (info.format_version >= 2) {
        write_attribute(file, "layout", RoundsLayout);
        write_attribute(file, "residue_classes", info.residues.list());
        write_attribute(file, "precision", precision_name(info.precision));
        write_attribute(file, "stored_states", info.stored_states);
        write_attribute(file, "checksum",
                        std::string("crc32 (zlib) of each block of ") + std::to_string(ChecksumValues)
                            + " values; blocks start at each round's first value");
        write_attribute(file, "rounds_done", info.rounds_done);
        write_attribute(file, "connections_done",
                        std::vector<std::int64_t>(info.connections_done.begin(), info.connections_done.end()));
        write_attribute(file, "piece_set", info.pieces.name());
        write_attribute(file, "piece_cells", info.pieces.cells_text());
        write_attribute(file, "piece_set_checksum", std::uint64_t(piece_set_checksum(info.pieces)));
        // 0 until the last round is done; made now, so that a table resumed
        // in another process has the same bytes as one written at once.
        write_attribute(file, DigestAttribute, info.digest.value_or(0));
    }
    if (info.format_version >= 3)
        write_attribute(file, MirrorAttribute, std::string(info.mirrored ? MirrorCanonical : MirrorNone));
    if (info.format_version >= ClearsFormatVersion)
        write_sweep_attributes(file, info, true);
}

void write_sweep_attributes(hid_t file, const TableInfo& info, bool create) {
    if (create) {
        write_attribute(file, "clears", clears_name(info.clears));
        write_attribute(file, "clears_sweep", info.sweeps.sweep);
        write_attribute(file, "clears_change", info.sweeps.change);
        write_attribute(file, "clears_previous_change", info.sweeps.previous_change);
        write_attribute(file, "clears_bound", info.sweeps.bound);
        write_attribute(file, "clears_tolerance", info.sweeps.tolerance);
        write_attribute(file, "clears_bound_kind", std::string(info.sweeps.proven ? "proven" : "none"));
        write_attribute(file, "clears_largest_value", info.sweeps.largest);
        write_attribute(file, "clears_empty_low", info.sweeps.empty_low);
        write_attribute(file, "clears_empty_high", info.sweeps.empty_high);
        return;
    }
    rewrite_attribute(file, "clears_sweep", info.sweeps.sweep);
    rewrite_attribute(file, "clears_change", info.sweeps.change);
    rewrite_attribute(file, "clears_previous_change", info.sweeps.previous_change);
    rewrite_attribute(file, "clears_bound", info.sweeps.bound);
    rewrite_attribute(file, "clears_tolerance", info.sweeps.tolerance);
    rewrite_attribute(file, "clears_bound_kind", std::string(info.sweeps.proven ? "proven" : "none"));
    rewrite_attribute(file, "clears_largest_value", info.sweeps.largest);
    rewrite_attribute(file, "clears_empty_low", info.sweeps.empty_low);
    rewrite_attribute(file, "clears_empty_high", info.sweeps.empty_high);
}

namespace {

// The piece set the table was built with: stored in full (with its
// checksum) by stackgen since piece sets are stored, else the tetrominoes,
// which the pieces attribute of an older table must hold.
PieceSet read_piece_set(hid_t file, const std::string& path) {
    const std::string orientations = read_string_attribute(file, "pieces");
    if (!has_attribute(file, "piece_set")) {
        if (orientations != TetrominoTable)
            throw InputError("'" + path + "' was built with another piece set than the tetrominoes and does not "
                             "store it");
        return PieceSet::builtin("tetrominoes");
    }
    const std::string name = read_string_attribute(file, "piece_set");
    const std::string cells = read_string_attribute(file, "piece_cells");
    const std::uint64_t checksum = read_unsigned_attribute(file, "piece_set_checksum");
    if (checksum
        != crc32_of((name + "\n" + orientations + cells).data(), name.size() + 1 + orientations.size() + cells.size()))
        throw InputError("'" + path + "' is damaged: its piece set does not match its checksum");
    try {
        return PieceSet::from_attribute(orientations, cells, name);
    } catch (const InputError& error) {
        throw InputError("'" + path + "': its piece set cannot be read: " + error.what());
    }
}

// The version-2 attributes: layout, classes, precision, progress.
void read_round_attributes(hid_t file, const std::string& path, TableInfo& info, int modulus) {
    const std::string layout = read_string_attribute(file, "layout");
    if (layout != RoundsLayout)
        throw InputError("'" + path + "' has layout '" + layout + "', this build reads '" + RoundsLayout + "'");
    try {
        info.residues =
            ResidueSet::of(modulus, read_integer_array_attribute(file, "residue_classes", ResidueSet::MostClasses));
    } catch (const InputError& error) {
        throw InputError("'" + path + "': attribute 'residue_classes': " + error.what());
    }
    const std::string precision = read_string_attribute(file, "precision");
    if (precision != precision_name(Precision::Float64) && precision != precision_name(Precision::Float32))
        throw InputError("'" + path + "': attribute 'precision' is '" + precision + "', not float64 or float32");
    info.precision = parse_precision(precision);
    info.stored_states = read_unsigned_attribute(file, "stored_states");
    info.rounds_done = read_integer_attribute(file, "rounds_done");
    const std::vector<std::int64_t> done =
        read_integer_array_attribute(file, "connections_done", std::size_t(info.piece_count()));
    if (done.size() != std::size_t(info.piece_count()))
        throw InputError("'" + path + "': attribute 'connections_done' does not hold one count per piece");
    for (const std::int64_t count : done)
        if (count < 0)
            throw InputError("'" + path + "': attribute 'connections_done' holds a negative count");
    info.connections_done.assign(done.begin(), done.end());
    if (info.format_version >= 3) {
        const std::string mirror = read_string_attribute(file, MirrorAttribute);
        if (mirror != MirrorCanonical && mirror != MirrorNone)
            throw InputError("'" + path + "': attribute 'mirror' is '" + mirror + "', not " + MirrorCanonical + " or "
                             + MirrorNone);
        info.mirrored = mirror == MirrorCanonical;
        if (info.mirrored && info.width < 2)
            throw InputError("'" + path + "': a mirrored table must be 2 or more columns wide");
    }
    if (info.format_version >= ClearsFormatVersion) {
        const std::string clears = read_string_attribute(file, "clears");
        if (clears != "tetris")
            throw InputError("'" + path + "': attribute 'clears' is '" + clears + "', not tetris");
        info.clears = Clears::Tetris;
        info.sweeps.sweep = read_integer_attribute(file, "clears_sweep");
        info.sweeps.change = read_real_attribute(file, "clears_change");
        info.sweeps.previous_change = read_real_attribute(file, "clears_previous_change");
        info.sweeps.bound = read_real_attribute(file, "clears_bound");
        info.sweeps.tolerance = read_real_attribute(file, "clears_tolerance");
        // The bracket's attributes, from stackgen 0.7 on (older tables' bound
        // is the ratio's estimate).
        if (has_attribute(file, "clears_bound_kind")) {
            const std::string kind = read_string_attribute(file, "clears_bound_kind");
            if (kind != "proven" && kind != "none")
                throw InputError("'" + path + "': attribute 'clears_bound_kind' is '" + kind + "', not proven or none");
            info.sweeps.proven = kind == "proven";
            info.sweeps.largest = read_real_attribute(file, "clears_largest_value");
            info.sweeps.empty_low = read_real_attribute(file, "clears_empty_low");
            info.sweeps.empty_high = read_real_attribute(file, "clears_empty_high");
            if (!(info.sweeps.largest >= 0))
                throw InputError("'" + path + "': attribute 'clears_largest_value' is not a value >= 0");
        }
        if (info.sweeps.sweep < 0 || !(info.sweeps.change >= 0) || !(info.sweeps.previous_change >= 0)
            || !(info.sweeps.bound >= 0) || !(info.sweeps.tolerance >= 0))
            throw InputError("'" + path + "': its clears_* attributes are not a count of sweeps and distances >= 0");
    }
}

}  // namespace

TableInfo read_table_info(hid_t file, const std::string& path) {
    TableInfo info;
    try {
        if (!has_attribute(file, "format_version"))
            throw InputError("'" + path + "' is not a stacking table: attribute 'format_version' is missing");
        info.format_version = read_integer_attribute(file, "format_version");
        if (info.format_version < OldestTableFormatVersion || info.format_version > ClearsFormatVersion)
            throw InputError("'" + path + "' has table format version " + std::to_string(info.format_version)
                             + ", this build reads versions " + std::to_string(OldestTableFormatVersion) + " to "
                             + std::to_string(ClearsFormatVersion));
        const std::int64_t width = read_integer_attribute(file, "width");
        const std::int64_t height = read_integer_attribute(file, "height");
        if (width < 1 || width > MaxWidth || height < 1 || height > MaxHeight
            || checked_state_count(int(width), int(height)) == 0)
            throw InputError("'" + path + "' has an invalid shape " + std::to_string(width) + "x"
                             + std::to_string(height));
        info.width = static_cast<int>(width);
        info.height = static_cast<int>(height);
        info.schedule = read_string_attribute(file, "schedule");
        info.states = read_unsigned_attribute(file, "states");
        info.connections = read_unsigned_attribute(file, "connections");
        info.generator = read_string_attribute(file, "generator");
        info.pieces = read_piece_set(file, path);
        const int modulus = info.pieces.cell_gcd();
        info.residues = ResidueSet::all(modulus);
        info.stored_states = info.states;
        if (info.format_version >= 2)
            read_round_attributes(file, path, info, modulus);
        if (has_attribute(file, DigestAttribute))
            info.digest = read_unsigned_attribute(file, DigestAttribute);
    } catch (const Hdf5Error& error) {
        throw InputError("'" + path + "' is not a valid stacking table: " + error.what());
    }
    if (info.states != checked_state_count(info.width, info.height))
        throw InputError("'" + path + "': its states attribute (" + std::to_string(info.states)
                         + ") does not match its width and height");
    return info;
}

double largest_possible_value(const Geometry& geometry, const PieceSet& pieces) {
    return double(geometry.width()) * geometry.height() / pieces.smallest_piece_cells();
}

double largest_possible_value(const TableInfo& info) {
    if (info.clears != Clears::None)
        return std::numeric_limits<double>::max();
    return largest_possible_value(Geometry(info.width, info.height), info.pieces);
}

std::uint32_t piece_set_checksum(const PieceSet& set) {
    const std::string text = set.name() + "\n" + set.attribute_text() + set.cells_text();
    return crc32_of(text.data(), text.size());
}

std::string default_table_name(int width, int height, const PieceSet& pieces) {
    std::string set;
    if (pieces.name() != "tetrominoes") {
        // "rectangles", or a piece file's stem kept to letters, digits, '-' and '_'
        const std::string& name = pieces.name();
        const std::string stem =
            name.rfind("file ", 0) == 0 ? std::filesystem::path(name.substr(5)).stem().string() : name;
        for (char c : stem)
            set += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
        set = "_" + set;
    }
    return TableNamePrefix + std::to_string(width) + "x" + std::to_string(height) + set + TableNameSuffix;
}

bool looks_like_table_name(const std::string& name) {
    const std::string prefix = TableNamePrefix, suffix = TableNameSuffix;
    return name.size() > prefix.size() + suffix.size() && name.compare(0, prefix.size(), prefix) == 0
           && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace stack
