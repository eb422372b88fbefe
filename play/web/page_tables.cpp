// page_tables OUTPUT: writes the web page's tables (tables.js) from the C++
// that plays the moves, so the page draws the shapes, spells the inputs and
// bounds the wells the server means: the cells of each piece's rotations
// (moves::rotation_cells), the rotations' names, 0 R 2 L, and words
// (moves::RotationNames), each input letter's word (moves::InputLetters),
// and the wells the move explorer takes (moves::LeastWidth, support/limits.h).
// The build runs it and embeds its output beside play/web/page/.
#include "rules/pieces.h"
#include "srs/moves.h"
#include "support/limits.h"

#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: page_tables OUTPUT\n");
        return 2;
    }
    std::ostringstream js;
    js << "// tables.js: written at build time by play/web/page_tables.cpp from the C++\n"
          "// (srs/moves.h, support/limits.h): do not edit.\n\n"
          "// SHAPES[piece][rotation]: the cells in the piece's box, x right and y up;\n"
          "// rotations 0, R, 2, L.\n"
          "export const SHAPES = {\n";
    for (int piece = 0; piece < stack::PieceCount; ++piece) {
        js << "  " << stack::piece_letter(stack::Piece(piece)) << ": [";
        for (const stack::moves::Cells& cells : stack::moves::rotation_cells(stack::Piece(piece))) {
            js << "[";
            for (std::size_t k = 0; k < cells.size(); ++k)
                js << (k ? ", " : "") << "[" << cells[k].first << ", " << cells[k].second << "]";
            js << "], ";
        }
        js << "],\n";
    }
    js << "};\n\n// The rotations' names, 0 the spawn state, and the words that explain them.\n"
          "export const ROTATION_NAMES = [";
    for (const stack::moves::RotationName& rotation : stack::moves::RotationNames)
        js << "'" << rotation.name << "', ";
    js << "];\nexport const ROTATION_WORDS = [";
    for (const stack::moves::RotationName& rotation : stack::moves::RotationNames)
        js << "'" << rotation.words << "', ";
    js << "];\n\n// The input letters and the words they are spelled with.\nexport const INPUT_WORDS = {\n";
    for (const stack::moves::InputLetter& input : stack::moves::InputLetters)
        js << "  " << input.letter << ": '" << input.word << "',\n";
    js << "};\n\n// The wells the move explorer takes: SRS needs 4 columns; rows and columns\n"
          "// are bit masks of the server's.\n"
       << "export const LIMITS = { leastWidth: " << stack::moves::LeastWidth << ", mostWidth: " << stack::MaxWidth
       << ", mostHeight: " << stack::MostGameHeight << " };\n";
    const std::string temporary = std::string(argv[1]) + ".new";
    std::ofstream out(temporary);
    out << js.str();
    out.close();
    if (!out || std::rename(temporary.c_str(), argv[1]) != 0) {
        std::fprintf(stderr, "page_tables: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
