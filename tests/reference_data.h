// Loaders for the reference implementation's published 4x20 tables, kept in
// tests/data (see its README for their provenance), read with zlib.
#pragma once

#include "rules/board.h"
#include "rules/pieces.h"

#include <zlib.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stack::testing {

inline std::string test_data_file(const std::string& name) { return std::string(STACK_TEST_DATA) + "/" + name; }

// Calls line(text) for each data line of a gzipped CSV (header skipped).
template <class Line>
void read_gzipped_csv(const std::string& path, Line&& line) {
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
    if (!file)
        throw std::runtime_error("reference data " + path + " is missing (it belongs in tests/data)");
    char buffer[256];
    bool header = true;
    while (gzgets(file.get(), buffer, sizeof buffer)) {
        if (!header)
            line(std::string(buffer));
        header = false;
    }
    int status = Z_OK;
    const char* message = gzerror(file.get(), &status);
    if (status != Z_OK && status != Z_STREAM_END)
        throw std::runtime_error("cannot decompress " + path + ": " + message);
}

// [board id] -> the reference's value; ids it does not list are 0.
inline std::vector<double> reference_values_4x20() {
    std::vector<double> values(21 * 21 * 21 * 21, 0.0);
    std::size_t rows = 0;
    read_gzipped_csv(test_data_file("avgs_20-4.csv.gz"), [&](const std::string& line) {
        const std::size_t comma = line.find(',');
        values.at(std::stoull(line.substr(0, comma))) = std::stod(line.substr(comma + 1));
        ++rows;
    });
    if (rows != 194410)
        throw std::runtime_error("avgs_20-4.csv.gz holds " + std::to_string(rows) + " rows, not 194,410");
    return values;
}

struct Connection {
    BoardId id;
    BoardId successor;
    int piece;
    auto operator<=>(const Connection&) const = default;
};

inline int piece_from_name(const std::string& name) {
    for (int piece = 0; piece < PieceCount; ++piece)
        if (piece_name(Piece(piece)) == name)
            return piece;
    throw std::runtime_error("unknown piece name '" + name + "' in reference data");
}

inline std::vector<Connection> reference_connections_4x20() {
    std::vector<Connection> connections;
    read_gzipped_csv(test_data_file("connections_20-4.csv.gz"), [&](const std::string& line) {
        const std::size_t first = line.find(','), second = line.find(',', first + 1);
        std::string name = line.substr(second + 1);
        while (!name.empty() && (name.back() == '\n' || name.back() == '\r'))
            name.pop_back();
        connections.push_back({std::stoull(line.substr(0, first)),
                               std::stoull(line.substr(first + 1, second - first - 1)), piece_from_name(name)});
    });
    return connections;
}

}  // namespace stack::testing
