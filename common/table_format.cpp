#include "table_format.h"

#include "errors.h"
#include "pieces.h"

namespace stack {

void write_table_info(hid_t file, const TableInfo& info) {
    write_attribute(file, "width", std::int64_t(info.width));
    write_attribute(file, "height", std::int64_t(info.height));
    write_attribute(file, "format_version", info.format_version);
    write_attribute(file, "schedule", info.schedule);
    write_attribute(file, "states", info.states);
    write_attribute(file, "connections", info.connections);
    write_attribute(file, "pieces", info.pieces);
    write_attribute(file, "generator", info.generator);
}

TableInfo read_table_info(hid_t file, const std::string& path) {
    TableInfo info;
    try {
        if (!has_attribute(file, "format_version"))
            throw InputError("'" + path + "' is not a stacking table: attribute 'format_version' is missing");
        info.format_version = read_integer_attribute(file, "format_version");
        if (info.format_version != TableFormatVersion)
            throw InputError("'" + path + "' has table format version " + std::to_string(info.format_version)
                             + ", this build reads version " + std::to_string(TableFormatVersion));
        const std::int64_t width = read_integer_attribute(file, "width");
        const std::int64_t height = read_integer_attribute(file, "height");
        if (width < 1 || width > MaxWidth || height < 1 || height > 1000000
            || checked_state_count(int(width), int(height)) == 0)
            throw InputError("'" + path + "' has an invalid shape " + std::to_string(width) + "x"
                             + std::to_string(height));
        info.width = static_cast<int>(width);
        info.height = static_cast<int>(height);
        info.schedule = read_string_attribute(file, "schedule");
        info.states = read_unsigned_attribute(file, "states");
        info.connections = read_unsigned_attribute(file, "connections");
        info.pieces = read_string_attribute(file, "pieces");
        info.generator = read_string_attribute(file, "generator");
    } catch (const Hdf5Error& error) {
        throw InputError("'" + path + "' is not a valid stacking table: " + error.what());
    }
    if (info.states != checked_state_count(info.width, info.height))
        throw InputError("'" + path + "': its states attribute (" + std::to_string(info.states)
                         + ") does not match its width and height");
    if (info.pieces != orientation_table_text())
        throw InputError("'" + path + "' was built with another piece set than this build's tetrominoes");
    return info;
}

double largest_possible_value(const Geometry& geometry) {
    return double(geometry.width()) * geometry.height() / CellsPerPiece;
}

}  // namespace stack
