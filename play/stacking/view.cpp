#include "stacking/view.h"

#include "support/cli.h"

#include "srs/moves.h"
#include "stacking/player.h"

#include <algorithm>
#include <cstdio>

namespace stack {

namespace {

// " (NAME)" when a piece's name says more than its letter (r2x3, not T).
std::string named(const Rules& rules, int piece) {
    const std::string& name = rules.name(piece);
    return name.size() == 1 && name[0] == rules.letter(piece) ? "" : " (" + name + ")";
}

std::string describe_placement(const Rules& rules, int orientation, int rotation, int column, bool tetris = false) {
    if (tetris)
        return std::string(1, rules.letter(rules.orientation(orientation).piece)) + " into the well: a tetris";
    return std::string(1, rules.letter(rules.orientation(orientation).piece)) + " rotation "
           + shown_rotation_name(rules, rotation) + " at column " + std::to_string(column);
}

// cells[row][column], row 0 at the bottom.
using Cells = std::vector<std::string>;

Cells start_cells(const Geometry& geometry, const Heights& heights) {
    Cells cells(geometry.height(), std::string(geometry.width(), '.'));
    for (int x = 0; x < geometry.width(); ++x)
        for (int row = 0; row < heights[x]; ++row)
            cells[row][x] = '#';
    return cells;
}

void fill_placement(const Rules& rules, Cells& cells, const Heights& before, int orientation, int column) {
    const Orientation& piece = rules.orientation(orientation);
    piece.for_each_cell(before.data(), column,
                        [&](int x, int y) { cells[std::size_t(y)][std::size_t(x)] = rules.letter(piece.piece); });
}

std::vector<std::string> top_first(const Cells& cells) { return {cells.rbegin(), cells.rend()}; }

Json heights_json(const Heights& heights, const Geometry& geometry) {
    return Json(std::vector<int>(heights.begin(), heights.begin() + geometry.width()));
}

}  // namespace

int shown_rotation(const Rules& rules, int orientation) {
    return rules.is_tetrominoes() ? moves::table_rotation(rules.orientation(orientation)) : rules.rotation(orientation);
}

std::string shown_rotation_name(const Rules& rules, int rotation) {
    return rules.is_tetrominoes() ? moves::rotation_name(rotation) : std::to_string(rotation);
}

ShownGame show_game(const StackingPolicy& policy, const StackTable& table, BoardId start, std::uint64_t seed) {
    const Geometry& geometry = table.geometry();
    ShownGame game;
    game.rules = &policy.rules();
    game.seed = seed;
    Cells cells = start_cells(geometry, geometry.decode(start));
    game.placed = play_game(policy, geometry, start, seed, 0,
                            [&](const Heights& heights, BoardId id, int piece, const Move& move) {
                                ShownTurn turn;
                                turn.number = int(game.turns.size()) + 1;
                                turn.piece = piece;
                                turn.move = move;
                                turn.before = heights;
                                turn.before_id = id;
                                turn.value_before = table.value(id);
                                if (move.orientation >= 0)
                                    turn.value_after = table.value(move.successor);
                                if (move.tetris) {  // the bottom rows go, empty ones come in at the top
                                    cells.erase(cells.begin(), cells.begin() + TetrisRows);
                                    cells.resize(std::size_t(geometry.height()), std::string(geometry.width(), '.'));
                                } else if (move.orientation >= 0) {
                                    fill_placement(policy.rules(), cells, heights, move.orientation, move.column);
                                }
                                turn.well = top_first(cells);
                                game.turns.push_back(std::move(turn));
                            });
    return game;
}

std::string format_game(const ShownGame& game, const Geometry& geometry) {
    const Rules& rules = *game.rules;
    std::string text;
    char line[256];
    const std::string floor = "+" + std::string(geometry.width(), '-') + "+\n";
    for (const ShownTurn& turn : game.turns) {
        if (turn.move.orientation < 0) {
            std::snprintf(line, sizeof line, "move %d: drew %c, which fits nowhere: the game ends (value %.4f)\n",
                          turn.number, rules.letter(turn.piece), turn.value_before);
            text += line;
            continue;
        }
        std::snprintf(line, sizeof line, "move %d: drew %c, placed %s; value %.4f -> %.4f\n", turn.number,
                      rules.letter(turn.piece),
                      describe_placement(rules, turn.move.orientation, shown_rotation(rules, turn.move.orientation),
                                         turn.move.column, turn.move.tetris)
                          .c_str(),
                      turn.value_before, turn.value_after);
        text += line;
        for (const std::string& row : turn.well)
            text += "|" + row + "|\n";
        text += floor;
    }
    std::snprintf(line, sizeof line, "%u pieces placed (seed %llu)\n", game.placed,
                  static_cast<unsigned long long>(game.seed));
    return text + line;
}

Json game_json(const ShownGame& game, const Geometry& geometry) {
    const Rules& rules = *game.rules;
    const PlacementTable placements(geometry, rules);
    Json turns = Json::array();
    for (const ShownTurn& turn : game.turns) {
        Json item = {{"move", turn.number},
                     {"piece", std::string(1, rules.letter(turn.piece))},
                     {"fits", turn.move.orientation >= 0},
                     {"heights_before", heights_json(turn.before, geometry)},
                     {"id_before", turn.before_id},
                     {"value_before", turn.value_before}};
        if (turn.move.orientation >= 0) {
            item["orientation"] = turn.move.orientation;
            item["rotation"] = shown_rotation(rules, turn.move.orientation);
            item["rotation_name"] = shown_rotation_name(rules, shown_rotation(rules, turn.move.orientation));
            item["column"] = turn.move.column;
            item["id_after"] = turn.move.successor;
            item["value_after"] = turn.value_after;
            item["tetris"] = turn.move.tetris;
            const Heights after = turn.move.tetris
                                      ? after_tetris(turn.before, geometry.width())
                                      : placements.after(turn.before, turn.move.orientation, turn.move.column);
            item["heights_after"] = heights_json(after, geometry);
        }
        item["well"] = turn.well;
        turns.push_back(std::move(item));
    }
    return {{"seed", game.seed}, {"pieces_placed", game.placed}, {"turns", std::move(turns)}};
}

Explanation explain_board(const PlacementTable& placements, const StackTable& table, BoardId id, bool with_inputs) {
    const Rules& rules = placements.rules();
    Explanation explanation;
    explanation.rules = &rules;
    explanation.id = id;
    explanation.heights = placements.geometry().decode(id);
    explanation.value = table.value(id);
    explanation.options.resize(std::size_t(rules.piece_count()));
    const Geometry& geometry = placements.geometry();
    explanation.with_inputs = with_inputs && rules.is_tetrominoes() && geometry.width() >= 4;
    const std::vector<int> contour(explanation.heights.begin(), explanation.heights.begin() + geometry.width());
    placements.for_each_placement(explanation.heights, [&](int o, int x, BoardId offset) {
        explanation.options[std::size_t(rules.orientation(o).piece)].push_back(
            {o, x, id + offset, table.value(id + offset), "", false, shown_rotation(rules, o)});
    });
    // One search per piece finds every placement's inputs.
    if (explanation.with_inputs)
        for (auto& options : explanation.options) {
            std::vector<std::pair<const Orientation*, int>> wanted;
            for (const PlacementOption& option : options)
                wanted.emplace_back(&rules.orientation(option.orientation), option.column);
            const std::vector<moves::Reach> reaches = moves::reach_table_placements(contour, geometry.height(), wanted);
            for (std::size_t i = 0; i < options.size(); ++i) {
                options[i].inputs = reaches[i].inputs;
                options[i].hard_drop = reaches[i].hard_drop;
                options[i].rotation = reaches[i].rotation;
            }
        }
    for (auto& options : explanation.options)
        std::sort(options.begin(), options.end(), [](const PlacementOption& a, const PlacementOption& b) {
            return ValuedChoice{a.orientation, a.column, a.successor, a.value}.better_than(
                ValuedChoice{b.orientation, b.column, b.successor, b.value});
        });
    return explanation;
}

// "inputs llDcH", marked when only a spin or a tuck reaches it.
static std::string reach_text(const PlacementOption& option, bool with_inputs) {
    if (!with_inputs)
        return "";
    if (option.inputs.empty())
        return "SRS cannot reach it";
    return "inputs " + option.inputs + (option.hard_drop ? "" : "  (spin or tuck only)");
}

std::string format_explanation(const Explanation& explanation, const Geometry& geometry) {
    const Rules& rules = *explanation.rules;
    std::string text;
    char line[256];
    std::snprintf(line, sizeof line,
                  "board %s (id %llu) in the %dx%d well: value %.6f, the expected pieces placed under optimal play\n",
                  geometry.format_heights(explanation.heights).c_str(), static_cast<unsigned long long>(explanation.id),
                  geometry.width(), geometry.height(), explanation.value);
    text += line;
    if (explanation.with_inputs)
        text +=
            "inputs from spawn under SRS: l r left, right; c w turn clockwise, counter-clockwise; d soft drop a row;\n"
            "D soft drop to the bottom; H hard drop\n";
    for (int piece = 0; piece < rules.piece_count(); ++piece) {
        const auto& options = explanation.options[std::size_t(piece)];
        const double share = double(rules.weight(piece)) / double(rules.total_weight());
        const std::string weight = rules.unit_weights() ? "" : " (drawn " + fixed(100 * share, 1) + "% of the time)";
        if (options.empty()) {
            std::snprintf(line, sizeof line, "\npiece %c%s%s: fits nowhere, the game would end\n", rules.letter(piece),
                          named(rules, piece).c_str(), weight.c_str());
            text += line;
            continue;
        }
        std::snprintf(line, sizeof line,
                      "\npiece %c%s%s: %zu placement%s, best first (the table policy takes the first)\n",
                      rules.letter(piece), named(rules, piece).c_str(), weight.c_str(), options.size(),
                      options.size() == 1 ? "" : "s");
        text += line;
        for (const PlacementOption& option : options) {
            std::snprintf(line, sizeof line, "  %10.6f  %-26s -> %-24s %s\n", option.value,
                          describe_placement(rules, option.orientation, option.rotation, option.column).c_str(),
                          geometry.format_heights(geometry.decode(option.successor)).c_str(),
                          reach_text(option, explanation.with_inputs).c_str());
            text += line;
        }
    }
    return text;
}

Json explanation_json(const Explanation& explanation, const Geometry& geometry) {
    const Rules& rules = *explanation.rules;
    Json pieces = Json::array();
    for (int piece = 0; piece < rules.piece_count(); ++piece) {
        Json placements = Json::array();
        for (const PlacementOption& option : explanation.options[std::size_t(piece)])
            placements.push_back({{"orientation", option.orientation},
                                  {"piece_rotation", rules.rotation(option.orientation)},
                                  {"rotation", option.rotation},
                                  {"rotation_name", shown_rotation_name(rules, option.rotation)},
                                  {"column", option.column},
                                  {"successor_id", option.successor},
                                  {"successor_heights", heights_json(geometry.decode(option.successor), geometry)},
                                  {"value", option.value},
                                  {"inputs", option.inputs.empty() ? Json(nullptr) : Json(option.inputs)},
                                  {"hard_drop", option.hard_drop}});
        pieces.push_back({{"piece", std::string(1, rules.letter(piece))},
                          {"name", rules.name(piece)},
                          {"weight", rules.weight(piece)},
                          {"placements", std::move(placements)}});
    }
    return {{"heights", heights_json(explanation.heights, geometry)},
            {"id", explanation.id},
            {"value", explanation.value},
            {"pieces", std::move(pieces)}};
}

}  // namespace stack
