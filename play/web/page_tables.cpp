// page_tables OUTPUT: writes the web page's SRS tables (srs.js) from the
// C++ that plays the moves, so the page draws the shapes and spells the
// inputs the server means: the cells of each piece's rotations
// (moves::rotation_cells) and each input letter's word (moves::InputLetters).
// The build runs it and embeds its output beside play/web/page/.
#include "rules/pieces.h"
#include "srs/moves.h"

#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: page_tables OUTPUT\n");
        return 2;
    }
    std::ostringstream js;
    js << "// srs.js: written at build time by play/web/page_tables.cpp from the C++\n"
          "// SRS tables (srs/moves.h): do not edit.\n\n"
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
    js << "};\n\n// The input letters and the words they are spelled with.\nexport const INPUT_WORDS = {\n";
    for (const stack::moves::InputLetter& input : stack::moves::InputLetters)
        js << "  " << input.letter << ": '" << input.word << "',\n";
    js << "};\n";
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
