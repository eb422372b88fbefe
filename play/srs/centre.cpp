#include "srs/centre.h"

#include <array>

namespace stack::moves {

namespace {

using Offsets = std::array<std::pair<int, int>, 4>;  // [rotation] -> the centre in the box

constexpr Offsets IOffsets = {{{1, 2}, {2, 2}, {2, 1}, {1, 1}}};
constexpr Offsets OOffsets = {{{0, 0}, {0, 1}, {1, 1}, {1, 0}}};
constexpr Offsets BoxOfThree = {{{1, 1}, {1, 1}, {1, 1}, {1, 1}}};

const Offsets& offsets(Piece piece) {
    return piece == PieceI ? IOffsets : piece == PieceSquare ? OOffsets : BoxOfThree;
}

constexpr std::array<const char*, 4> Orientations = {"north", "east", "south", "west"};

}  // namespace

std::pair<int, int> centre_of(Piece piece, const Location& box) {
    const auto& [dx, dy] = offsets(piece)[std::size_t(box.rotation & 3)];
    return {box.x + dx, box.y + dy};
}

Location box_of(Piece piece, int rotation, int centre_x, int centre_y) {
    const auto& [dx, dy] = offsets(piece)[std::size_t(rotation & 3)];
    return {centre_x - dx, centre_y - dy, rotation & 3};
}

const char* orientation_name(int rotation) { return Orientations[std::size_t(rotation & 3)]; }

std::optional<int> orientation_of(std::string_view name) {
    for (int rotation = 0; rotation < 4; ++rotation)
        if (name == Orientations[std::size_t(rotation)])
            return rotation;
    return std::nullopt;
}

}  // namespace stack::moves
