#include "rules/pieces.h"

#include <array>

namespace stack {

namespace {
constexpr std::array<std::string_view, PieceCount> Names = {"i", "t", "sq", "zr", "zl", "lr", "ll"};
constexpr std::array<char, PieceCount> Letters = {'I', 'T', 'O', 'S', 'Z', 'L', 'J'};
}  // namespace

std::string_view piece_name(Piece piece) { return Names[piece]; }

char piece_letter(Piece piece) { return Letters[piece]; }

}  // namespace stack
