#include "tetris/well.h"

#include "support/errors.h"
#include "table/stack_table.h"
#include "tetris/features.h"

#include <algorithm>
#include <cstdlib>

namespace stack::tetris {

// Tuned by scripts/well-tuning (results/well-tuning.md) from the hand-set
// {-1, 1, -1, -1, -4, -1, 1, 8}: Dellacherie's, a point a ready row, 8 a tetris.
const std::array<double, WellFeatureCount> WellBuilderWeights = {-2.386, -1.622,  -1.501, -2.874,
                                                                 -10.86, -0.5919, -8.296, 12.8};

bool is_clean(const TetrisBoard& board, int well) {
    return board.column_height(well) == 0 && board.cells() == board.height_sum();
}

const char* loss_cause_key(LossCause cause) {
    switch (cause) {
    case LossCause::ForcedHole: return "forced_hole";
    case LossCause::PastCeiling: return "past_ceiling";
    case LossCause::Class: return "class";
    case LossCause::FallbackOwn: return "fallback_own";
    }
    return "?";
}

Unjudged unjudged_state(const TetrisBoard& board, int well) {
    const bool hole = board.cells() != board.height_sum(), filled = board.column_height(well) > 0;
    return Unjudged(int(hole) + 2 * int(filled));
}

const char* unjudged_key(Unjudged state) {
    switch (state) {
    case Unjudged::Clean: return "clean";
    case Unjudged::Hole: return "hole";
    case Unjudged::FilledWell: return "filled_well";
    case Unjudged::HoleAndFilledWell: return "hole_and_filled_well";
    }
    return "?";
}

int banked_rows(const TetrisBoard& board, int well) {
    int lowest = board.height();
    for (int x = 0; x < board.width(); ++x)
        if (x != well)
            lowest = std::min(lowest, board.column_height(x));
    return lowest / 4 * 4;
}

WellJudge::WellJudge(const StackTable& table, bool banked) : table_(table), banked_(banked) {
    if (table.rules().set().name() != "tetrominoes")
        throw InputError("--policy well needs a table of the tetrominoes (this one is of " + table.rules().set().name()
                         + ")");
}

int WellJudge::width() const { return table_.geometry().width(); }
int WellJudge::height() const { return table_.geometry().height(); }

std::optional<double> WellJudge::value(const TetrisBoard& board, int well) const {
    if (!is_clean(board, well))
        return std::nullopt;
    const int banked = banked_ ? banked_rows(board, well) : 0;
    Heights heights{};
    int column = 0;
    for (int x = 0; x < board.width(); ++x)
        if (x != well) {
            const int h = board.column_height(x) - banked;
            if (h > height())
                return std::nullopt;
            heights[std::size_t(column++)] = h;
        }
    const BoardId id = table_.geometry().encode(heights);
    if (!table_.holds(id))
        return std::nullopt;
    return table_.value(id);
}

WellFeatures well_features(const TetrisBoard& before, const Shape& shape, int x, int row, int well) {
    const DellacherieFeatures d = dellacherie_features(before, shape, x, row);
    TetrisBoard after = before;
    const Landing landing = after.place(shape, x, row);
    int lowest = after.height();
    for (int c = 0; c < after.width(); ++c)
        if (c != well)
            lowest = std::min(lowest, after.column_height(c));
    const int depth = lowest - after.column_height(well);
    return {d.landing_height, double(d.eroded_cells), double(d.row_transitions),       double(d.column_transitions),
            double(d.holes),  double(d.wells),        double(std::clamp(depth, 0, 4)), double(landing.lines >= 4)};
}

}  // namespace stack::tetris
