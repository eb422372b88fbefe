// The viewer's page, compiled in (web/assets.h).
#include "web/assets.h"
#include "rules/pieces.h"
#include "srs/moves.h"
#include "support/limits.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace stack::web {

TEST(WebAssets, ThePageIsCompiledIn) {
    ASSERT_NE(find_asset("/"), nullptr);
    EXPECT_EQ(find_asset("/"), find_asset("/index.html"));
    EXPECT_NE(find_asset("/index.html")->bytes.find("<html"), std::string_view::npos);
    EXPECT_EQ(find_asset("/../CMakeLists.txt"), nullptr);
    EXPECT_EQ(find_asset("/api.cpp"), nullptr);
    for (std::size_t i = 0; i < asset_count(); ++i)
        EXPECT_FALSE(asset(i).content_type.empty()) << asset(i).path;
}

// The page's tables (tables.js) are the C++'s: each piece's line lists
// the numbers of moves::rotation_cells, rotation by rotation, and each input
// letter maps to its word; shapes.js takes them from there, not its own copy.
TEST(WebAssets, ThePagesSrsTablesAreTheCxxOnes) {
    const Asset* srs = find_asset("/tables.js");
    ASSERT_NE(srs, nullptr);
    const std::string text(srs->bytes);
    for (int piece = 0; piece < PieceCount; ++piece) {
        const std::string head = std::string("\n  ") + piece_letter(Piece(piece)) + ": [";
        const std::size_t from = text.find(head);
        ASSERT_NE(from, std::string::npos) << piece_letter(Piece(piece));
        std::vector<int> numbers;
        for (std::size_t at = from + head.size(); text[at] != '\n'; ++at)
            if (std::isdigit(static_cast<unsigned char>(text[at])))
                numbers.push_back(text[at] - '0');  // box coordinates are single digits
        std::vector<int> expected;
        for (const moves::Cells& cells : moves::rotation_cells(Piece(piece)))
            for (const auto& [x, y] : cells) {
                expected.push_back(x);
                expected.push_back(y);
            }
        EXPECT_EQ(numbers, expected) << piece_letter(Piece(piece));
    }
    for (const moves::InputLetter& input : moves::InputLetters)
        EXPECT_NE(text.find(std::string("  ") + input.letter + ": '" + input.word + "',"), std::string::npos)
            << input.letter;
    const Asset* shapes = find_asset("/shapes.js");
    ASSERT_NE(shapes, nullptr);
    EXPECT_NE(shapes->bytes.find("from './tables.js'"), std::string_view::npos);
    EXPECT_EQ(shapes->bytes.find("const SPAWN"), std::string_view::npos);
    EXPECT_NE(text.find("export const LIMITS = { leastWidth: " + std::to_string(moves::LeastWidth) + ", mostWidth: "
                        + std::to_string(MaxWidth) + ", mostHeight: " + std::to_string(MostGameHeight) + " };"),
              std::string::npos);
}

}  // namespace stack::web
