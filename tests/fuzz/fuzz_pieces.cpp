// libFuzzer target: the piece-set parsers, the 'pieces' attribute of a
// table file (first byte even) and the piece file format (odd). Each may
// only succeed or throw InputError; a set that parses must write an
// attribute that reads back to the same text.
#include "support/errors.h"
#include "rules/piece_set.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const stack::PieceSet set =
            data[0] % 2 == 0 ? stack::PieceSet::from_attribute(text) : stack::PieceSet::from_file_text(text);
        const std::string attribute = set.attribute_text();
        if (stack::PieceSet::from_attribute(attribute).attribute_text() != attribute)
            std::abort();
    } catch (const stack::InputError&) {
    }
    return 0;
}
