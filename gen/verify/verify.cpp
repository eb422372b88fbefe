#include "verify.h"

#include "support/cli.h"
#include "rules/compositions.h"
#include "support/errors.h"
#include "support/json.h"
#include "table/digest.h"
#include "table/stack_table.h"
#include "rules/bracket.h"
#include "rules/value.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace stack {

namespace {

// A float32 table is derived again from its own rounded values: the two
// sides may differ by a few roundings of one value (2^-24 each).
constexpr double Float32Tolerance = 1.0 / (1 << 21);

// Where the values of a table lie, row by row: version 1 in id order,
// version 2 by round (table_format.h).
class RowPlaces {
public:
    explicit RowPlaces(const StackTable& table) : table_(table), geometry_(table.geometry()) {}

    // The position of the value of h0 = 0's place in the row of `heights`
    // (columns 1..W-1), and the row's index table: value at place(row) +
    // index[h0], index -1 where the row does not store h0.
    std::uint64_t row_start(const Heights& heights, int row_sum) const {
        if (const RoundLayout* layout = table_.layout())
            return layout->row_position(row_sum, layout->row_rank(heights, row_sum), heights[geometry_.width() - 1]);
        Heights level = heights;
        level[0] = 0;
        return geometry_.encode(level);
    }
    // The values the row stores (version 1: every h0).
    std::uint64_t row_values(const Heights& heights, int row_sum) const {
        if (const RoundLayout* layout = table_.layout())
            return std::uint64_t(layout->row_length(row_sum, heights[geometry_.width() - 1]));
        return std::uint64_t(geometry_.height()) + 1;
    }
    const int* index(int row_sum) const {
        if (const RoundLayout* layout = table_.layout())
            return layout->row_indices(row_sum);
        return identity_.data();
    }
    void prepare_identity() {
        identity_.resize(geometry_.height() + 1);
        for (int h0 = 0; h0 <= geometry_.height(); ++h0)
            identity_[h0] = h0;
    }

    bool mirrored() const { return table_.layout() && table_.layout()->mirrored(); }

private:
    const StackTable& table_;
    const Geometry& geometry_;
    std::vector<int> identity_;
};

struct Tally {
    std::uint64_t states = 0;
    std::uint64_t connections = 0;
    std::uint64_t wrong = 0;
    BoardId first_wrong = std::numeric_limits<BoardId>::max();
    double stored_at_first = 0, derived_at_first = 0;
    double largest_deviation = 0;
    // A line-clear table: one Bellman step's residuals, T(L) - L (above)
    // and L - T(L) (below), at their largest; and the board farthest past
    // what the stated bound allows (a value changed on purpose is that one).
    double above = 0, below = 0;
    double worst_excess = 0;
    BoardId worst = std::numeric_limits<BoardId>::max();
    double stored_at_worst = 0, derived_at_worst = 0;
};

// What a line-clear table is checked against (rules/bracket.h): each
// board's residual may be at most what the file's stated bound allows, one
// rounding of the step kept back, at the table's largest value.
struct ClearsCheck {
    bool on = false;
    double largest = 0;
    double allowed_above = 0, allowed_below = 0;
};

// One placement of a row that fits every stored state of the row (columns
// >= 1), or the one state it fits (column 0): where its successor's values
// start, and the successor row's index table.
struct RowPlacement {
    int piece;
    int h0;  // -1: every h0 of the row; -2: every h0 with room (one column wide at column 0); else only this one
    std::uint64_t successor_start;
    const int* successor_index;
    int column0_added;
    Heights after;  // the successor, its column 0 the row's h0 plus column0_added (a mirrored table's lookup)
};

}  // namespace

namespace {

// The rows of a table in file order, from the one holding a position:
// each row's columns 1..W-1 and its row sum.
class RowWalk {
public:
    RowWalk(const StackTable& table, std::uint64_t position)
        : table_(table), rows_(table.geometry().width() - 1, table.geometry().height()) {
        if (const RoundLayout* layout = table.layout()) {
            const auto& offsets = layout->offsets();
            sum_ = int(std::upper_bound(offsets.begin(), offsets.end(), position) - offsets.begin()) - 1;
            rank_ = position < layout->stored_states() ? layout->row_rank(layout->board_at(position), sum_) : 0;
        } else {
            const std::uint64_t base = std::uint64_t(table.geometry().height()) + 1;
            rank_ = position / base;  // version 1: row r holds ids r(H+1) ..
        }
    }
    // The next row: its heights (column 0 left at 0) and its row sum.
    Heights next(int& sum) {
        Heights heights{};
        if (table_.layout()) {
            while (rank_ >= rows_.count(sum_)) {  // the next round (empty rounds have no rows)
                ++sum_;
                rank_ = 0;
            }
            rows_.unrank(sum_, rank_, heights.data() + 1);
        } else {
            const Geometry& geometry = table_.geometry();
            heights = geometry.decode(rank_ * geometry.base());
            sum_ = geometry.height_sum(rank_ * geometry.base());
        }
        ++rank_;
        sum = sum_;
        return heights;
    }

private:
    const StackTable& table_;
    CompositionCodec rows_;
    int sum_ = 0;
    std::uint64_t rank_ = 0;
};

// A row's placements, tried the plain way: every orientation at every
// column, by the placement rule (orientation.h). At column 0 a placement
// wider than one column fixes h0 by its surface; one a column wide holds
// for every h0 with room, checked per state.
void list_row_placements(const Rules& rules, const RowPlaces& places, const Heights& heights, int sum, int width,
                         int height, std::vector<RowPlacement>& placements) {
    placements.clear();
    for (int o = 0; o < rules.orientation_count(); ++o) {
        const Orientation& orientation = rules.orientation(o);
        for (int x = 0; x + orientation.width <= width; ++x) {
            Heights probe = heights;
            int h0 = -1;
            if (x == 0 && orientation.width > 1) {
                h0 = heights[1] - orientation.surface[0];
                if (h0 < 0 || h0 > height || (places.mirrored() && h0 > heights[width - 1]))
                    continue;
                probe[0] = h0;
            } else if (x == 0) {
                probe[0] = 0;
                h0 = -2;
            }
            if (!orientation.fits(probe.data(), x, height))
                continue;
            Heights after = probe;
            orientation.place(after.data(), x);
            const int added0 = x == 0 ? orientation.added[0] : 0;
            const int successor_sum = sum + rules.cells(orientation.piece) - added0;
            // A mirrored table's successor may not be canonical: looked up by
            // its board (check_row), not its row.
            const std::uint64_t start = places.mirrored() ? 0 : places.row_start(after, successor_sum);
            placements.push_back({orientation.piece, h0, start, places.index(successor_sum), added0, after});
        }
    }
}

// Derives every stored state of a row that lies in [first, last) from its
// successors' stored values, and tallies what disagrees.
void check_row(const StackTable& table, const Heights& heights, std::uint64_t start, const int* index,
               const std::vector<RowPlacement>& placements, std::uint64_t first, std::uint64_t last,
               const ClearsCheck& clears, Tally& tally) {
    const Geometry& geometry = table.geometry();
    const int height = geometry.height();
    const double largest = largest_possible_value(table.info());
    const bool float32 = table.info().precision == Precision::Float32;
    const RoundLayout* layout = table.layout();
    const bool mirrored = layout && layout->mirrored();
    for (int h0 = 0; h0 <= height; ++h0) {
        if (index[h0] < 0 || (mirrored && h0 > heights[geometry.width() - 1]))
            continue;
        const std::uint64_t here = start + std::uint64_t(index[h0]);
        if (here < first || here >= last)
            continue;
        std::array<double, MostPieces> best;
        std::fill_n(best.begin(), table.rules().piece_count(), -1.0);
        for (const RowPlacement& placement : placements) {
            if (placement.h0 >= 0 && placement.h0 != h0)
                continue;
            if (placement.h0 == -2 && h0 + placement.column0_added > height)
                continue;  // the vertical I at column 0 needs room above h0
            const int successor_h0 = h0 + placement.column0_added;
            double value;
            if (mirrored) {  // by the board, canonical or its mirror image
                Heights after = placement.after;
                after[0] = successor_h0;
                value = table.value_at(layout->position(layout->canonical(after)));
            } else {
                value =
                    table.value_at(placement.successor_start + std::uint64_t(placement.successor_index[successor_h0]));
            }
            best[std::size_t(placement.piece)] = std::max(best[std::size_t(placement.piece)], value);
            ++tally.connections;
        }
        // The well game: the I may go into the well instead, when every
        // column is 4 or more high, to the board 4 rows lower (rules.h).
        if (clears.on) {
            Heights board = heights;
            board[0] = h0;
            if (tetris_fits(board, geometry.width())) {
                const Heights lower = after_tetris(board, geometry.width());
                const double value = table.value_at(layout->position(layout->canonical(lower)));
                const auto piece = std::size_t(table.rules().tetris_piece());
                best[piece] = std::max(best[piece], value);
            }
        }
        // Format 3 sums each mirror pair first (value.h). Older tables were
        // summed in the set's order by stackgen, but a version-1 file may
        // come from a tool of either order (the naive baseline's --write-v1
        // sums by pairs): both are the equation's exact value, rounded
        // differently, and either passes.
        const double derived = value_from_best(best.data(), 1, table.rules(), true);
        const double stored = table.value_at(here);
        const bool older = table.info().format_version < 3;
        const double set_order = older ? value_from_best(best.data(), 1, table.rules(), false) : derived;
        const double deviation = std::min(std::abs(derived - stored), std::abs(set_order - stored));
        tally.largest_deviation = std::max(tally.largest_deviation, deviation);
        bool right =
            float32 ? deviation <= Float32Tolerance * std::max(stored, 1.0) : derived == stored || set_order == stored;
        if (clears.on) {
            tally.above = std::max(tally.above, derived - stored);
            tally.below = std::max(tally.below, stored - derived);
            const double excess =
                std::max(derived - stored - clears.allowed_above, stored - derived - clears.allowed_below);
            right = !(excess > 0);
            if (excess > tally.worst_excess) {
                Heights board = heights;
                board[0] = h0;
                tally.worst_excess = excess;
                tally.worst = geometry.encode(board);
                tally.stored_at_worst = stored;
                tally.derived_at_worst = derived;
            }
        }
        ++tally.states;
        if (!right || !(stored >= 0 && stored <= largest)) {
            Heights board = heights;
            board[0] = h0;
            const BoardId id = geometry.encode(board);
            ++tally.wrong;
            if (id < tally.first_wrong) {
                tally.first_wrong = id;
                tally.stored_at_first = stored;
                tally.derived_at_first = derived;
            }
        }
    }
}

// Walks the rows holding positions [first, last) of the table, in file
// order, and checks every state there.
Tally check_range(const StackTable& table, std::uint64_t first, std::uint64_t last, const ClearsCheck& clears) {
    const Geometry& geometry = table.geometry();
    RowPlaces places(table);
    places.prepare_identity();
    RowWalk rows(table, first);
    Tally tally;
    std::vector<RowPlacement> placements;
    for (std::uint64_t position = first; position < last;) {
        int sum = 0;
        const Heights heights = rows.next(sum);
        const std::uint64_t start = places.row_start(heights, sum);
        list_row_placements(table.rules(), places, heights, sum, geometry.width(), geometry.height(), placements);
        check_row(table, heights, start, places.index(sum), placements, first, last, clears, tally);
        position = start + places.row_values(heights, sum);
    }
    return tally;
}

// The one line a failed verification leaves on stderr: how many states
// disagree with their successors and the first of them, else the count
// that does not match the file.
std::string failure_summary(const Geometry& geometry, const Tally& all, const double found[2],
                            std::uint64_t connections_attribute, std::uint64_t stored, const ClearsCheck& clears,
                            double stated_bound) {
    char line[512];
    if (all.wrong > 0 && clears.on) {
        std::snprintf(line, sizeof line,
                      "%s %s farther from one Bellman step than the stated bound %.3g allows; the first, board %s "
                      "(id %llu), stores %.17g where one step gives %.17g; the farthest, board %s (id %llu), stores "
                      "%.17g where one step gives %.17g",
                      with_commas(all.wrong).c_str(), all.wrong == 1 ? "state is" : "states are", stated_bound,
                      geometry.format_heights(geometry.decode(all.first_wrong)).c_str(),
                      static_cast<unsigned long long>(all.first_wrong), found[0], found[1],
                      geometry.format_heights(geometry.decode(all.worst)).c_str(),
                      static_cast<unsigned long long>(all.worst), all.stored_at_worst, all.derived_at_worst);
    } else if (all.wrong > 0) {
        std::snprintf(line, sizeof line,
                      "%s %s with %s successors; the first, board %s (id %llu), "
                      "stores %.17g where its successors give %.17g",
                      with_commas(all.wrong).c_str(), all.wrong == 1 ? "state disagrees" : "states disagree",
                      all.wrong == 1 ? "its" : "their",
                      geometry.format_heights(geometry.decode(all.first_wrong)).c_str(),
                      static_cast<unsigned long long>(all.first_wrong), found[0], found[1]);
    } else if (all.states != stored) {
        std::snprintf(line, sizeof line, "%s states checked of %s stored", with_commas(all.states).c_str(),
                      with_commas(stored).c_str());
    } else {
        std::snprintf(line, sizeof line, "%s connections counted where the file says %s",
                      with_commas(all.connections).c_str(), with_commas(connections_attribute).c_str());
    }
    return line;
}

}  // namespace

namespace {

// Every rank's tally, summed; the rank that found the first wrong board
// tells its stored and derived values.
Tally reduce_tally(const Communicator& comm, const Tally& local) {
    Tally all;
    all.states = comm.all_reduce(local.states, Reduction::Sum);
    all.connections = comm.all_reduce(local.connections, Reduction::Sum);
    all.wrong = comm.all_reduce(local.wrong, Reduction::Sum);
    all.first_wrong = comm.all_reduce(local.first_wrong, Reduction::Min);
    all.largest_deviation = comm.all_reduce(local.largest_deviation, Reduction::Max);
    all.above = comm.all_reduce(local.above, Reduction::Max);
    all.below = comm.all_reduce(local.below, Reduction::Max);
    all.worst_excess = comm.all_reduce(local.worst_excess, Reduction::Max);
    const bool mine = all.worst_excess > 0 && local.worst_excess == all.worst_excess;
    all.worst = comm.all_reduce(mine ? local.worst : std::numeric_limits<BoardId>::max(), Reduction::Min);
    double at_worst[2] = {mine && local.worst == all.worst ? local.stored_at_worst : -1.0,
                          mine && local.worst == all.worst ? local.derived_at_worst : -1.0};
    comm.all_reduce(at_worst, 2, Reduction::Max);
    all.stored_at_worst = at_worst[0];
    all.derived_at_worst = at_worst[1];
    double found[2] = {local.first_wrong == all.first_wrong ? local.stored_at_first : -1.0,
                       local.first_wrong == all.first_wrong ? local.derived_at_first : -1.0};
    comm.all_reduce(found, 2, Reduction::Max);
    all.stored_at_first = found[0];
    all.derived_at_first = found[1];
    return all;
}

// The table's digest (table/digest.h) from its stored values: each rank the
// CRC-64 of its positions' bytes at the table's precision (a float32 table's
// values widen and narrow back exactly), combined on rank 0 in rank order.
// Only a finished version-2 table records one; `checked` is false for the
// others.
struct DigestCheck {
    bool checked = false;
    std::uint64_t stored = 0, derived = 0;
    bool passed() const { return !checked || stored == derived; }
};

DigestCheck check_digest(const Communicator& comm, const StackTable& table, std::uint64_t first, std::uint64_t last) {
    DigestCheck check;
    if (!table.info().digest || !table.layout())
        return check;
    const bool narrow = table.info().precision == Precision::Float32;
    const std::size_t size = narrow ? sizeof(float) : sizeof(double);
    std::vector<char> buffer(std::size_t(1) << 20);
    std::uint64_t crc = 0;
    for (std::uint64_t position = first; position < last;) {
        const std::uint64_t count = std::min<std::uint64_t>(last - position, buffer.size() / size);
        for (std::uint64_t i = 0; i < count; ++i) {
            const double value = table.value_at(position + i);
            if (narrow) {
                const float stored = static_cast<float>(value);
                std::memcpy(buffer.data() + i * size, &stored, size);
            } else {
                std::memcpy(buffer.data() + i * size, &value, size);
            }
        }
        crc = crc64(buffer.data(), count * size, crc);
        position += count;
    }
    const std::vector<std::uint64_t> parts = comm.gather(std::vector<std::uint64_t>{crc, (last - first) * size});
    check.checked = true;
    check.stored = *table.info().digest;
    for (std::size_t i = 0; i + 1 < parts.size(); i += 2)
        check.derived = crc64_combine(check.derived, parts[i], parts[i + 1]);
    comm.broadcast(check.derived);
    return check;
}

// A line-clear table's bracket, as measured here (rules/bracket.h).
struct BracketReport {
    bool on = false;
    Bracket proven;           // from the residuals measured, with one rounding each
    double stated_bound = 0;  // the file's
    bool stated_proven = false;
    double stated_largest = 0;  // the file's largest value (none: NaN)
    bool largest_matches = true;
    bool empty_held = false;
    double empty_value = 0;
};

Json report_json(const StackTable& table, const std::string& path, int ranks, const Tally& all, double seconds,
                 bool passed, const DigestCheck& digest, const BracketReport& bracket) {
    const Geometry& geometry = table.geometry();
    Json report = {{"table", path},
                   {"width", geometry.width()},
                   {"height", geometry.height()},
                   {"format_version", table.info().format_version},
                   {"residue_classes", table.info().residues.list()},
                   {"precision", precision_name(table.info().precision)},
                   {"ranks", ranks},
                   {"states_checked", all.states},
                   {"connections_counted", all.connections},
                   {"connections_attribute", table.info().connections},
                   {"largest_deviation", all.largest_deviation},
                   {"wrong", all.wrong},
                   {"seconds", seconds},
                   {"digest_attribute", digest.checked ? Json(digest_text(digest.stored)) : Json(nullptr)},
                   {"digest_of_values", digest.checked ? Json(digest_text(digest.derived)) : Json(nullptr)},
                   {"passed", passed}};
    if (bracket.on) {
        const Bracket& b = bracket.proven;
        report["bracket"] = {
            {"residual_above", all.above},
            {"residual_below", all.below},
            {"bound", b.bound()},
            {"largest_value", b.largest},
            {"stated_bound", bracket.stated_bound},
            {"stated_proven", bracket.stated_proven},
            {"stated_largest_value", std::isnan(bracket.stated_largest) ? Json(nullptr) : Json(bracket.stated_largest)},
            {"empty_low", bracket.empty_held ? Json(b.low(bracket.empty_value)) : Json(nullptr)},
            {"empty_high", bracket.empty_held ? Json(b.high(bracket.empty_value)) : Json(nullptr)}};
    }
    if (all.wrong > 0) {
        const Heights heights = geometry.decode(all.first_wrong);
        report["first_wrong"] = {{"id", all.first_wrong},
                                 {"heights", std::vector<int>(heights.begin(), heights.begin() + geometry.width())},
                                 {"stored", all.stored_at_first},
                                 {"derived", all.derived_at_first}};
        if (bracket.on) {
            const Heights worst = geometry.decode(all.worst);
            report["farthest"] = {{"id", all.worst},
                                  {"heights", std::vector<int>(worst.begin(), worst.begin() + geometry.width())},
                                  {"stored", all.stored_at_worst},
                                  {"derived", all.derived_at_worst}};
        }
    }
    return report;
}

void print_report(const StackTable& table, const std::string& path, int ranks, const Tally& all, double seconds,
                  bool passed, const DigestCheck& digest, const BracketReport& bracket) {
    const Geometry& geometry = table.geometry();
    const TableInfo& info = table.info();
    std::printf("stackverify %s: %s, %dx%d, %s, format %lld, classes {%s} mod %d, %s, %d rank%s\n", project_version(),
                path.c_str(), geometry.width(), geometry.height(), table.rules().set().name().c_str(),
                static_cast<long long>(info.format_version), info.residues.text().c_str(), info.residues.modulus(),
                precision_name(info.precision).c_str(), ranks, ranks == 1 ? "" : "s");
    std::printf("  states checked      %s of %s stored\n", with_commas(all.states).c_str(),
                with_commas(info.stored_states).c_str());
    std::printf("  connections         %s counted, %s in the file%s\n", with_commas(all.connections).c_str(),
                with_commas(info.connections).c_str(), all.connections == info.connections ? "" : ": DIFFERENT");
    if (bracket.on) {
        const Bracket& b = bracket.proven;
        std::printf("  one Bellman step    moves a value by at most +%.3g / -%.3g (rounding %.2g each way added)\n",
                    all.above, all.below, b.above - all.above);
        std::printf("  proven bound        every value within %.3g of the fixed point; the file states %.3g (%s)\n",
                    b.bound(), bracket.stated_bound,
                    bracket.stated_proven ? "proven" : "an older estimate from the sweeps' ratio");
        std::printf("  largest value       %.17g%s\n", b.largest,
                    std::isnan(bracket.stated_largest) ? ""
                    : bracket.largest_matches          ? ", as the file states"
                                                       : ": NOT the file's");
        if (bracket.empty_held)
            std::printf("  V(empty)            %.17g, proven in [%.15f, %.15f]\n", bracket.empty_value,
                        b.low(bracket.empty_value), b.high(bracket.empty_value));
    } else {
        std::printf("  largest deviation   %.3g\n", all.largest_deviation);
    }
    if (digest.checked)
        std::printf("  digest              %s of the values, %s in the file%s\n", digest_text(digest.derived).c_str(),
                    digest_text(digest.stored).c_str(), digest.passed() ? "" : ": DIFFERENT");
    else
        std::printf("  digest              none in the file (written before stackgen recorded one)\n");
    std::printf("  time                %.3f s\n", seconds);
    if (all.wrong > 0)
        std::printf(
            "  wrong               %s states; the first, board %s (id %llu), stores %.17g where its "
            "successors give %.17g\n",
            with_commas(all.wrong).c_str(), geometry.format_heights(geometry.decode(all.first_wrong)).c_str(),
            static_cast<unsigned long long>(all.first_wrong), all.stored_at_first, all.derived_at_first);
    if (all.wrong > 0 && bracket.on)
        std::printf("  farthest            board %s (id %llu), stores %.17g where one step gives %.17g\n",
                    geometry.format_heights(geometry.decode(all.worst)).c_str(),
                    static_cast<unsigned long long>(all.worst), all.stored_at_worst, all.derived_at_worst);
    std::printf("verify: %s\n", passed ? "PASS" : "FAIL");
}

}  // namespace

int verify_table(const Communicator& comm, const VerifyOptions& options) {
    const double start_time = MPI_Wtime();
    // Every rank maps the whole table (the page cache shares it); a table
    // that cannot be read stops every rank with the same message.
    std::optional<StackTable> table;
    comm.on_every_rank([&] { table.emplace(StackTable::open(options.table, {Residency::Resident, 0})); });
    const std::uint64_t stored = table->info().stored_states;
    const std::uint64_t first = stored * std::uint64_t(comm.rank()) / comm.size();
    const std::uint64_t last = stored * std::uint64_t(comm.rank() + 1) / comm.size();
    // A line-clear table (the well game) holds no exact equation, only a
    // fixed point approached: each board is checked against the residual
    // the file's stated bound allows (rules/bracket.h), at the largest
    // value, found first.
    ClearsCheck clears;
    BracketReport bracket;
    const SweepState& sweeps = table->info().sweeps;
    if (table->info().clears != Clears::None) {
        double largest = 0;
        for (std::uint64_t position = first; position < last; ++position)
            largest = std::max(largest, table->value_at(position));
        largest = comm.all_reduce(largest, Reduction::Max);
        const double rounding = step_rounding(largest, table->rules().piece_count());
        clears.on = true;
        clears.largest = largest;
        const bool finite = std::isfinite(sweeps.bound);
        clears.allowed_above = finite ? allowed_above(sweeps.bound, largest) - rounding : HUGE_VAL;
        clears.allowed_below = finite ? allowed_below(sweeps.bound, largest) - rounding : HUGE_VAL;
        bracket.on = true;
        bracket.stated_bound = sweeps.bound;
        bracket.stated_proven = sweeps.proven;
        bracket.stated_largest = sweeps.proven ? sweeps.largest : std::nan("");
        bracket.largest_matches = !sweeps.proven || sweeps.largest == largest;
        const RoundLayout* layout = table->layout();
        bracket.empty_held = layout && layout->residues().has(0);
        if (bracket.empty_held)
            bracket.empty_value = table->value_at(layout->position(Heights{}));
    }
    const Tally all = reduce_tally(comm, check_range(*table, first, last, clears));
    if (bracket.on) {
        const double rounding = step_rounding(clears.largest, table->rules().piece_count());
        bracket.proven = {all.above + rounding, all.below + rounding, clears.largest};
    }
    const DigestCheck digest = check_digest(comm, *table, first, last);
    const double seconds = MPI_Wtime() - start_time;
    const bool passed = all.wrong == 0 && all.states == stored && all.connections == table->info().connections
                        && digest.passed() && bracket.largest_matches;
    if (!comm.is_root())
        return passed ? ExitSuccess : ExitCheckFailed;
    if (options.json)
        std::fputs(
            json_text(report_json(*table, options.table, comm.size(), all, seconds, passed, digest, bracket)).c_str(),
            stdout);
    else
        print_report(*table, options.table, comm.size(), all, seconds, passed, digest, bracket);
    std::fflush(stdout);
    if (!passed) {
        const double found[2] = {all.stored_at_first, all.derived_at_first};
        std::string why;
        if (!bracket.largest_matches) {
            char line[256];
            std::snprintf(line, sizeof line, "its largest value is %.17g, not the %.17g its bound was stated with",
                          clears.largest, sweeps.largest);
            why = line;
        } else if (digest.passed() || all.wrong > 0)
            why =
                failure_summary(table->geometry(), all, found, table->info().connections, stored, clears, sweeps.bound);
        else
            why = "its values' digest " + digest_text(digest.derived) + " is not the " + digest_text(digest.stored)
                  + " it records";
        std::fprintf(stderr, "stackverify: %s fails verification: %s\n", options.table.c_str(), why.c_str());
    }
    return passed ? ExitSuccess : ExitCheckFailed;
}

}  // namespace stack
