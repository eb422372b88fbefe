// The table file format, defined here and nowhere else: the names, types
// and meaning of everything in a table file, and the codec from a board id
// to the place of its value. The writers (table_writer.h) and the reader
// (stack_table.h, every tool) go through this module.
//
// Version 4 (stackgen 0.7 on, line-clear tables only): version 3's items,
// and values that are those of the well game (stackgen --clears tetris,
// gen/clears.h): W field columns beside an empty well column, an upright I
// into the well, when every column is 4 or more high, clears four rows. The
// values are a fixed point, found by sweeps; the attributes say how close:
//   clears           string: "tetris" (a version-3 table has none: "none")
//   clears_sweep     int64: the last sweep's number (sweep 0: the no-clear table)
//   clears_change    float64: the largest change of a value in the last sweep
//   clears_previous_change float64: the same in the sweep before (0: none)
//   clears_bound     float64: the bound on any value's distance from the
//                    fixed point, change * r / (1 - r) with r the ratio of
//                    the last two changes (infinity while r >= 1)
//   clears_tolerance float64: the bound the run stopped at
// No-clear tables are still written as version 3, so their digests stay.
//
// Version 3 (stackgen 0.6 on): version 2's items, and
//   mirror           string: "canonical" when /values holds only the boards
//                    with h0 <= h(W-1) (a mirror-closed set, RoundLayout
//                    below: a reader looks a board up by its canonical
//                    form), "none" when it holds every board;
// and values whose equation sums each mirror pair of pieces first (value.h),
// so that a board and its mirror image have the same bits. Version 2
// summed the pieces in the set's order: its values may differ from version
// 3's in the last bit, and a version-2 table is resumed by no stackgen
// that writes version 3.
//
// Version 2 (written by stackgen 0.5): values stored round by round.
//   /values          float64 or float32[stored_states]: round after round, in
//                    increasing row sum S (the height sum of columns
//                    1..W-1); within a round the rows (the boards that
//                    differ only in column 0) in board-id order; within a row
//                    the stored column-0 heights h0 ascending. A row stores
//                    the h0 whose board's height sum is in one of the stored
//                    residue classes (mod the gcd of the set's piece sizes:
//                    4 for the tetrominoes, residues.h).
//   /round_offsets   uint64[rounds + 1]: where round S starts in /values;
//                    the last entry is stored_states
//   /checksums       uint32[blocks]: CRC-32 (zlib's) of the stored bytes of
//                    each block of ChecksumValues values; a round's blocks
//                    start at its first value (its last block may be
//                    shorter), rounds in order
//   rounds_done      int64: rounds written and checksummed, from the top (row
//                    sum (W-1)H down); a finished table has all of them. A
//                    table being written is named <table>.partial.
//   connections_done int64[pieces]: the connections of those rounds, per piece
//   values_crc64     uint64: CRC-64/XZ of the bytes of /values (digest.h), 0
//                    until every round is done; absent in older tables
//   the piece set    in full, in four attributes: piece_set (its name:
//                    tetrominoes, rectangles, pentominoes or "file NAME"),
//                    pieces (every orientation of every piece, in order,
//                    with the weights and letters that are not the
//                    default: rules/piece_set.h), piece_cells (each piece's
//                    cells, drawn) and piece_set_checksum (uint64: the
//                    CRC-32 of piece_set, a newline, pieces and
//                    piece_cells). A table without piece_set (stackgen
//                    0.5 before piece sets) holds the tetrominoes, and its
//                    pieces attribute must say so.
//   attributes       format_version (int64, 2), layout ("rounds"), width,
//                    height (int64), residue_classes (int64[]: the classes
//                    of the height sum mod that gcd stored), precision ("float64" or
//                    "float32": computed in float64, rounded once when
//                    written), states (uint64, (H+1)^W), stored_states
//                    (uint64), connections (uint64, valid placements over
//                    the stored boards), schedule, pieces, generator (strings),
//                    checksum (string: how /checksums is made)
//   The place of board h: round_offsets[S] + rank(h_1..h_{W-1}) * n(S) +
//   index(S, h0), where rank numbers the rows of round S in id order
//   (compositions.h) and n(S) is the row length: O(W) lookups.
//
// Version 1 (stackgen 0.1-0.4; still read): /values float64[(H+1)^W] in id
// order, and the attributes above but layout, residue_classes, precision,
// stored_states and checksum (none of the other items above: its piece set
// is the tetrominoes').
//
// Integers are little-endian, strings variable-length UTF-8, values IEEE-754
// little-endian.
#pragma once

#include "rules/board.h"
#include "rules/compositions.h"
#include "rules/piece_set.h"
#include "rules/residues.h"
#include "table/hdf5_handle.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace stack {

constexpr std::int64_t TableFormatVersion = 3;   // the version stackgen writes for a no-clear table
constexpr std::int64_t ClearsFormatVersion = 4;  // a line-clear table's; the newest read
constexpr std::int64_t OldestTableFormatVersion = 1;
constexpr const char* ValuesDataset = "values";
constexpr const char* RoundOffsetsDataset = "round_offsets";
constexpr const char* DigestAttribute = "values_crc64";  // uint64, table/digest.h
constexpr const char* RoundsLayout = "rounds";
constexpr const char* MirrorAttribute = "mirror";
constexpr const char* MirrorCanonical = "canonical";  // h0 <= h(W-1) stored (version 3)
constexpr const char* MirrorNone = "none";
constexpr const char* ChecksumsDataset = "checksums";
constexpr std::uint64_t ChecksumValues = 4096;  // values per checksummed block
constexpr const char* PartialSuffix = ".partial";

static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559, "values are IEEE-754 binary64");
static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float32 values are IEEE-754 binary32");
static_assert(sizeof(BoardId) == 8, "board ids and positions are 64-bit");

enum class Precision : std::uint8_t { Float64, Float32 };

// Which rows a table's game clears: none (every table before version 4:
// the stack only grows), or four at once by an upright I in the well.
enum class Clears : std::uint8_t { None, Tetris };
std::string clears_name(Clears clears);  // "none", "tetris"
// Throws InputError naming the accepted words.
Clears parse_clears(const std::string& text, const std::string& option = "clears");

// How far a line-clear table's sweeps went (the version-4 attributes).
struct SweepState {
    std::int64_t sweep = 0;
    double change = 0;           // the largest change, at the boards a tetris lands on, in the last sweep
    double previous_change = 0;  // in the sweep before it (0: none)
    double bound = 0;            // on any value's distance from the fixed point
    double tolerance = 0;        // the bound asked for
    // Since the bracket (rules/bracket.h): the bound is proven, not the
    // older estimate from the ratio of the last two changes; with it, the
    // largest value and V(empty)'s bracket (NaN where the table does not
    // hold the empty board's class).
    bool proven = false;  // attribute clears_bound_kind = "proven"
    double largest = 0;
    double empty_low = 0, empty_high = 0;
};

std::string precision_name(Precision precision);  // "float64", "float32"
// Throws InputError naming the accepted words.
Precision parse_precision(const std::string& text, const std::string& option = "precision");
inline std::size_t value_bytes(Precision precision) { return precision == Precision::Float64 ? 8 : 4; }

struct TableInfo {
    int width = 0;
    int height = 0;
    std::int64_t format_version = TableFormatVersion;
    std::string schedule;
    std::uint64_t states = 0;                            // (H+1)^W
    std::uint64_t stored_states = 0;                     // values in /values: (H+1)^W in version 1
    std::uint64_t connections = 0;                       // valid placements over the stored boards
    PieceSet pieces = PieceSet::builtin("tetrominoes");  // the piece set (rules/piece_set.h)
    std::string generator;
    ResidueSet residues;  // version 1: all classes
    Precision precision = Precision::Float64;
    std::int64_t rounds_done = 0;                 // version 2: rounds on disk; all of them when finished
    std::vector<std::uint64_t> connections_done;  // version 2: of those rounds, one count per piece
    bool mirrored = false;                        // version 3: canonical boards only (attribute mirror, RoundLayout)
    std::optional<std::uint64_t> digest;  // values_crc64: CRC-64/XZ of /values (table/digest.h) once every round is
                                          // done (0 before), in tables of a stackgen that records it
    Clears clears = Clears::None;         // version 4: the well game's tables
    SweepState sweeps;                    // version 4
    int piece_count() const { return int(pieces.pieces().size()); }
};

// Where each board's value lives in a version-2 table (see the top of the
// file): the codec from board to position, O(W).
//
// A mirrored layout (format 3, attribute mirror = "canonical") stores only
// the canonical boards, h0 <= h(W-1): a mirror-closed set gives a board and
// its mirror image the same value (value.h), so the other half is read
// mirrored. Rows, rounds and their order stay; a row of top height t
// (column W-1, the most significant digit, so a round's rows come grouped
// by t ascending) stores the h0 <= t of its classes, the first
// row_length(S, t) places of the full row.
class RoundLayout {
public:
    // `mirrored` (only for a width of 2 or more) stores canonical boards alone.
    RoundLayout(const Geometry& geometry, ResidueSet residues, bool mirrored = false);
    // A lower bound of stored_states() that builds nothing: each row stores
    // at least floor((H+1) / modulus) states of each class it holds. The
    // checks of sizes before anything is allocated use it.
    // A mirrored layout stores at least half of them (a board and its
    // mirror image are of one class, and one of the two is canonical).
    static std::uint64_t fewest_stored_states(const Geometry& geometry, const ResidueSet& residues,
                                              bool mirrored = false);

    const Geometry& geometry() const { return geometry_; }
    ResidueSet residues() const { return residues_; }
    bool mirrored() const { return mirrored_; }
    int rounds() const { return int(offsets_.size()) - 1; }         // (W-1)H + 1 row sums
    std::uint64_t rows(int sum) const { return rows_.count(sum); }  // rows of round `sum`
    // The values of a full row of round `sum`: the longest row it has.
    int row_length(int sum) const { return row_length_[sum % residues_.modulus()]; }
    // The values of a row of round `sum` whose column W-1 is `top` high.
    int row_length(int sum, int top) const {
        return mirrored_ ? short_length_[std::size_t(sum % residues_.modulus()) * base() + std::size_t(top)]
                         : row_length(sum);
    }
    // A mirrored layout's rows of round `sum` below top `top`, and their
    // values (top H+1: the whole round).
    std::uint64_t rows_below_top(int sum, int top) const { return top_rows_[std::size_t(sum) * (base() + 1) + top]; }
    std::uint64_t values_below_top(int sum, int top) const {
        return top_values_[std::size_t(sum) * (base() + 1) + top];
    }
    // The board a reader looks up for `heights`: itself, or in a mirrored
    // layout its mirror image when h0 > h(W-1).
    Heights canonical(const Heights& heights) const;
    // The place of h0 within a row of round `sum`, -1 when not stored.
    int index_in_row(int sum, int h0) const { return index_[sum % residues_.modulus()][h0]; }
    // The same for every h0 of a round at once: [h0] -> index, -1.
    const int* row_indices(int sum) const { return index_[sum % residues_.modulus()].data(); }
    // The rank of a row (columns 1..W-1 of `heights`, summing to `row_sum`)
    // among the rows of its round, in id order.
    std::uint64_t row_rank(const Heights& heights, int row_sum) const {
        return rows_.rank(heights.data() + 1, row_sum);
    }
    std::uint64_t round_offset(int sum) const { return offsets_[sum]; }
    // The first position of the row of rank `rank` in round `sum`, whose
    // top (column W-1) is `top`.
    std::uint64_t row_position(int sum, std::uint64_t rank, int top) const {
        if (!mirrored_)
            return offsets_[sum] + rank * std::uint64_t(row_length(sum));
        return offsets_[sum] + values_below_top(sum, top)
               + (rank - rows_below_top(sum, top)) * std::uint64_t(row_length(sum, top));
    }
    std::uint64_t round_values(int sum) const { return offsets_[sum + 1] - offsets_[sum]; }
    const std::vector<std::uint64_t>& offsets() const { return offsets_; }
    std::uint64_t stored_states() const { return offsets_.back(); }

    // Checksummed blocks (see the top of the file).
    struct Block {
        std::uint64_t index;  // among all blocks
        std::uint64_t first;  // its first position
        std::uint64_t count;  // its values
    };
    std::uint64_t checksum_blocks() const { return block_offsets_.back(); }
    std::uint64_t first_block(int sum) const { return block_offsets_[sum]; }
    Block block_at(std::uint64_t position) const;
    Block block(std::uint64_t index) const;

    // Whether the board is stored: its class is, and in a mirrored layout
    // it is canonical.
    bool holds(const Heights& heights) const;
    // Requires holds(heights).
    std::uint64_t position(const Heights& heights) const;
    // The board at a position (< stored_states()): the inverse of position.
    Heights board_at(std::uint64_t position) const;

private:
    Geometry geometry_;
    ResidueSet residues_;
    CompositionCodec rows_;                     // W-1 columns
    std::vector<int> row_length_;               // [sum mod modulus] -> values per row
    std::vector<std::vector<int>> index_;       // [sum mod modulus][h0] -> index in the row, -1
    std::vector<std::uint64_t> offsets_;        // [S] -> first value of round S; [rounds] -> total
    std::vector<std::uint64_t> block_offsets_;  // [S] -> first block of round S; [rounds] -> total
    bool mirrored_ = false;
    std::size_t base() const { return std::size_t(geometry_.height()) + 1; }
    std::vector<int> short_length_;          // [sum mod modulus][top] -> stored h0 <= top
    std::vector<std::uint64_t> top_rows_;    // [S][t], t = 0..H+1: rows of round S whose top is below t
    std::vector<std::uint64_t> top_values_;  // [S][t]: their values
};

// CRC-32 pieces of the stored bytes: the writers checksum what each rank
// wrote, in pieces that never cross a block, and one rank combines them
// (zlib's crc32_combine) into the blocks' checksums.
struct ChecksumPiece {
    std::uint64_t block;   // block index
    std::uint64_t offset;  // bytes into the block
    std::uint64_t length;  // bytes
    std::uint64_t crc;     // CRC-32 of those bytes
};
// The pieces of `count` stored values that start at `position`, held at
// `bytes` (value_bytes(precision) each).
std::vector<ChecksumPiece> checksum_pieces(const RoundLayout& layout, std::uint64_t position, std::uint64_t count,
                                           const char* bytes, std::size_t value_size);
// Folds pieces into checksums[block], which must each be covered exactly
// once, in any order; returns the blocks completed. Throws
// std::logic_error on overlap.
class ChecksumAssembler {
public:
    explicit ChecksumAssembler(const RoundLayout& layout, std::size_t value_size);
    void add(const ChecksumPiece& piece);
    bool complete(std::uint64_t block) const { return covered_[block] == bytes(block); }
    std::vector<std::uint32_t>& checksums() { return checksums_; }
    void set(std::uint64_t block, std::uint32_t crc);  // a block known from before (resuming)

private:
    std::uint64_t bytes(std::uint64_t block) const;
    const RoundLayout& layout_;
    std::size_t value_size_;
    std::vector<std::uint32_t> checksums_;
    std::vector<std::uint64_t> covered_;               // [block] -> bytes folded in so far, from its start
    std::vector<std::vector<ChecksumPiece>> waiting_;  // [block] -> pieces that came before their turn
};
// The CRC-32 of `count` bytes (zlib).
std::uint32_t crc32_of(const char* bytes, std::uint64_t count);

// Writes every attribute of `info` (for its format version) onto `file`.
void write_table_info(hid_t file, const TableInfo& info);

// Reads and checks the attributes: throws InputError naming `path` and the
// problem when one is missing or of the wrong type or shape, when the
// format version is not one this build reads, when the shape is invalid or
// disagrees with the states count, or when the piece set cannot be read or
// does not match its checksum.
TableInfo read_table_info(hid_t file, const std::string& path);
// A line-clear table's sweep attributes: made (`create`), or rewritten.
void write_sweep_attributes(hid_t file, const TableInfo& info, bool create);

// The CRC-32 the piece_set_checksum attribute holds.
std::uint32_t piece_set_checksum(const PieceSet& set);

// The largest value any board can have: every piece placed fills at least
// the fewest cells of one piece of the set, of the W*H cells.
double largest_possible_value(const Geometry& geometry, const PieceSet& pieces);
// The same for a table: a line-clear table's game has no such bound (a
// tetris frees rows), so its values are only checked to be finite.
double largest_possible_value(const TableInfo& info);

// The file a W x H table goes to when none is named: "stack_<W>x<H>.h5" for
// the tetrominoes, "stack_<W>x<H>_<SET>.h5" for another set (SET its name,
// or a piece file's stem); and whether a file name is "stack_*.h5"
// (stackplay's discovery).
constexpr const char* TableNamePrefix = "stack_";
constexpr const char* TableNameSuffix = ".h5";
std::string default_table_name(int width, int height, const PieceSet& pieces);
bool looks_like_table_name(const std::string& name);

}  // namespace stack
