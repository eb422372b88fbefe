#include "slice_work.h"

#include "partition.h"
#include "rules/rules.h"
#include "table/table_format.h"

#include <algorithm>

namespace stack {

int in_row_jump(const Rules& rules, int classes, int piece) { return rules.cells(piece) / rules.modulus() * classes; }

SliceTables::SliceTables(const Partition& partition, const Rules& rules, const PlacementRules& placement_rules,
                         const RoundLayout& layout)
    : partition_(partition) {
    const Geometry& geometry = partition.geometry();
    for (int o = 0; o < rules.orientation_count(); ++o) {
        const Orientation& source = rules.orientation(o);
        PortableOrientation orientation;
        orientation.piece = source.piece;
        orientation.width = source.width;
        std::copy(source.surface.begin(), source.surface.end(), orientation.surface);
        std::copy(source.added.begin(), source.added.end(), orientation.added);
        orientations_.push_back(orientation);
    }
    rules_.resize(std::size_t(rules.orientation_count()) * MaxWidth);
    for (int o = 0; o < rules.orientation_count(); ++o)
        for (int x = 0; x + rules.orientation(o).width <= geometry.width(); ++x) {
            const PlacementRule& rule = placement_rules(o, x);
            PortableRule& portable = rules_[std::size_t(o) * MaxWidth + std::size_t(x)];
            portable.piece = rule.piece;
            portable.successor_owner = rule.successor_owner;
            portable.column0_added = rule.column0_added;
            portable.top_added = rule.top_added;
            portable.sum_step = rule.sum_step;
            portable.lower_added[0] = rule.lower_added[0];
            portable.lower_added[1] = rule.lower_added[1];
            portable.chunk_shift = rule.chunk_shift;
            portable.row_offset = rule.row_offset;
        }
    if (!rules.unit_weights())
        weights_ = rules.weights();
    partners_ = rules.partners();
    for (const int o : rules.one_column()) {
        const int piece = rules.orientation(o).piece;
        in_row_.push_back(piece);
        in_row_.push_back(in_row_jump(rules, layout.residues().count(), piece));
        in_row_.push_back(rules.orientation(o).added[0]);
    }
    for (int remainder = 0; remainder < rules.modulus(); ++remainder) {
        const int* indices = layout.row_indices(remainder);
        row_indices_.insert(row_indices_.end(), indices, indices + geometry.height() + 1);
    }
    block_shape_ = slice_block_shape(partition, rules, layout, int(sizeof(double)));
    most_cells_ = rules.most_cells();
    pieces_ = rules.piece_count();
    mirrored_ = layout.mirrored();
}

SliceBlockShape slice_block_shape(const Partition& partition, const Rules& rules, const RoundLayout& layout,
                                  int value_size) {
    int longest_row = 0;
    for (int remainder = 0; remainder < rules.modulus(); ++remainder)
        longest_row = std::max(longest_row, layout.row_length(remainder));
    SliceBlockShape shape;
    shape.pieces = rules.piece_count();
    const int rows = partition.lower_columns() == 3 ? partition.geometry().height() + 1 : 1;
    shape.capacity = rows * longest_row;
    shape.placements = rules.orientation_count() * partition.geometry().width();
    shape.value_size = value_size;
    return shape;
}

RoundView SliceTables::view() const {
    const Geometry& geometry = partition_.geometry();
    RoundView view;
    view.width = geometry.width();
    view.height = geometry.height();
    view.lower = partition_.lower_columns();
    view.ranks = partition_.ranks();
    view.rank = partition_.rank();
    view.base = geometry.base();
    for (int column = 0; column <= geometry.width(); ++column)
        view.powers[column] = geometry.place_value(column);
    view.chunk_size = partition_.chunk_size();
    view.upper_sums = partition_.upper_sums();
    view.pieces = pieces_;
    view.orientations = int(orientations_.size());
    view.orientation = orientations_.data();
    view.rule = rules_.data();
    view.weights = weights_.empty() ? nullptr : weights_.data();
    view.partners = partners_.data();
    view.in_row_count = int(in_row_.size() / 3);
    view.mirrored = mirrored_;
    view.in_row = in_row_.data();
    return view;
}

}  // namespace stack
