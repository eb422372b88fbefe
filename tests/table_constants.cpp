// table_constants DIR: the table format's constants as the C++ defines them
// (common/table/table_format.h and what it builds on), as one JSON object
// on stdout, for tests/python_constants.py to compare with the Python
// reader's (common/table/python/stack_table.py). It also writes the
// attributes write_table_info() gives a table of each version (4: a
// line-clear table) into DIR/v1.h5 .. DIR/v4.h5 (no datasets), so that the
// attribute names come from the writer itself.
#include "rules/board.h"
#include "rules/pieces.h"
#include "rules/piece_set.h"
#include "rules/residues.h"
#include "support/cli.h"
#include "support/json.h"
#include "table/hdf5_handle.h"
#include "table/metadata_guard.h"
#include "table/table_format.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void write_attributes(const std::string& path, std::int64_t version) {
    stack::TableInfo info;
    info.width = 4;
    info.height = 20;
    info.format_version = version;
    info.states = 21ull * 21 * 21 * 21;
    info.stored_states = info.states;
    info.residues = stack::ResidueSet::all(info.pieces.cell_gcd());
    info.connections_done.assign(std::size_t(info.piece_count()), 0);
    if (version >= stack::ClearsFormatVersion)
        info.clears = stack::Clears::Tetris;
    stack::Handle file = stack::file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), path);
    stack::write_table_info(file, info);
    file.close(path);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: table_constants DIR\n");
        return 2;
    }
    try {
        const std::string directory = argv[1];
        stack::Json constants;
        constants["project_version"] = stack::project_version();
        constants["format_version"] = stack::TableFormatVersion;
        constants["clears_format_version"] = stack::ClearsFormatVersion;
        constants["oldest_format_version"] = stack::OldestTableFormatVersion;
        constants["values_dataset"] = stack::ValuesDataset;
        constants["round_offsets_dataset"] = stack::RoundOffsetsDataset;
        constants["checksums_dataset"] = stack::ChecksumsDataset;
        constants["checksum_values"] = stack::ChecksumValues;
        constants["precisions"] = {stack::precision_name(stack::Precision::Float64),
                                   stack::precision_name(stack::Precision::Float32)};
        constants["max_width"] = stack::MaxWidth;
        constants["max_height"] = stack::MaxHeight;
        unsetenv("STACK_METADATA_SECONDS");
        constants["metadata_seconds"] = stack::metadata_seconds();
        constants["tetromino_table"] = stack::TetrominoTable;  // the pieces attribute of a table without piece_set
        stack::Json sets = stack::Json::object();
        for (const char* name : {"tetrominoes", "rectangles", "pentominoes"}) {
            const stack::PieceSet set = stack::PieceSet::builtin(name);
            sets[name] = {{"name", set.name()},
                          {"pieces", set.attribute_text()},
                          {"piece_cells", set.cells_text()},
                          {"piece_set_checksum", stack::piece_set_checksum(set)},
                          {"piece_count", set.pieces().size()},
                          {"classes", set.cell_gcd()}};
        }
        constants["piece_sets"] = sets;
        stack::Json files = stack::Json::object();
        for (std::int64_t version = stack::OldestTableFormatVersion; version <= stack::ClearsFormatVersion; ++version) {
            const std::string path = directory + "/v" + std::to_string(version) + ".h5";
            write_attributes(path, version);
            files[std::to_string(version)] = path;
        }
        constants["attribute_files"] = files;
        std::fputs(stack::json_text(constants).c_str(), stdout);
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "table_constants: %s\n", error.what());
        return 2;
    }
}
