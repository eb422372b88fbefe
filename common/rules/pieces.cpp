#include "rules/pieces.h"

namespace stack {

namespace {
constexpr std::array<std::string_view, PieceCount> Names = {"i", "t", "sq", "zr", "zl", "lr", "ll"};
constexpr std::array<char, PieceCount> Letters = {'I', 'T', 'O', 'S', 'Z', 'L', 'J'};

std::string list_text(const std::int8_t* values, int count) {
    std::string text = "[";
    for (int k = 0; k < count; ++k)
        text += (k ? "," : "") + std::to_string(values[k]);
    return text + "]";
}
}  // namespace

std::string_view piece_name(Piece piece) { return Names[piece]; }

char piece_letter(Piece piece) { return Letters[piece]; }

std::string orientation_table_text() {
    std::string text;
    for (int o = 0; o < OrientationCount; ++o) {
        const Orientation& orientation = Orientations[o];
        if (o == 0 || Orientations[o - 1].piece != orientation.piece)
            text += (o ? "\n" : "") + std::string(piece_name(orientation.piece)) + ":";
        text += " (" + list_text(orientation.surface.data(), orientation.width - 1) + ","
                + list_text(orientation.added.data(), orientation.width) + ")";
    }
    return text + "\n";
}

}  // namespace stack
