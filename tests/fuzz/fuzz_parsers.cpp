// libFuzzer target: the board and start parsers, the option and
// STACK_FAULT parsers, and the real game's board file and seed 000 piece
// file parsers. The first byte picks the parser (and a well for the
// board parser); the rest is the text. Each parser may only succeed or
// throw InputError, and a parsed board must survive the id codec both ways.
#include "rules/board.h"
#include "support/cli.h"
#include "support/errors.h"
#include "fault.h"
#include "tetris/tetris_board.h"
#include "tetris/game.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::uint8_t selector = data[0];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        switch (selector % 9) {
        case 0: {  // --start heights on a well 1x20 to 10x20
            const stack::Geometry geometry(1 + (selector >> 3) % 10, 20);
            const stack::Heights heights = geometry.parse_heights(text);
            const stack::BoardId id = geometry.encode(heights);
            if (id >= geometry.states() || geometry.decode(id) != heights)
                std::abort();
            break;
        }
        case 1: {  // --start-id, --runs, --seed ...
            const std::uint64_t value = stack::parse_unsigned_option("start-id", text, 1, 1'000'000);
            if (value < 1 || value > 1'000'000)
                std::abort();
            break;
        }
        case 2: {  // --width, --height, --residue, --threads
            const int value = stack::parse_int_option("width", text, -3, 10);
            if (value < -3 || value > 10)
                std::abort();
            break;
        }
        case 3: {  // --checkpoint-seconds
            const double value = stack::parse_real_option("checkpoint-seconds", text, 0, 1e9);
            if (!(value > 0 && value < 1e9))
                std::abort();
            break;
        }
        case 4:  // --memory-limit
            stack::parse_bytes_option("memory-limit", text);
            break;
        case 5: {  // STACK_FAULT
            const stack::FaultPlan plan = stack::parse_fault_plan(text);
            if (plan.rank < 0)
                std::abort();
            break;
        }
        case 6: {  // a real-game board file, wells 2x2 to 16x8: what parses draws back the same
            const int width = 2 + (selector >> 4) % 15, height = 2 + (selector >> 1) % 7;
            const stack::tetris::TetrisBoard board = stack::tetris::TetrisBoard::from_text(text, width, height);
            if (!(stack::tetris::TetrisBoard::from_text(board.text(), width, height) == board))
                std::abort();
            break;
        }
        case 7:  // seed 000's piece file: set indices of the 7 tetrominoes only
            for (const int piece : stack::tetris::read_seed000_pieces(text))
                if (piece < 0 || piece > 6)
                    std::abort();
            break;
        default:  // a board of a 3x4 well
            stack::Geometry(3, 4).parse_heights(text);
        }
    } catch (const stack::InputError&) {
    }
    return 0;
}
