// Loaders for the reference implementation's published 4x20 tables
// (../shared/seed-data), read through `gzip -dc` so the tests need no zlib.
#pragma once

#include "board.h"
#include "pieces.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace stack::testing {

inline std::string seed_data_file(const std::string& name) { return std::string(STACK_SEED_DATA) + "/" + name; }

// Calls line(text) for each data line of a gzipped CSV (header skipped).
template <class Line>
void read_gzipped_csv(const std::string& path, Line&& line) {
    std::FILE* probe = std::fopen(path.c_str(), "rb");
    if (!probe)
        throw std::runtime_error("reference data " + path + " is missing (shared/ must sit beside the checkout)");
    std::fclose(probe);
    std::FILE* pipe = popen(("gzip -dc '" + path + "'").c_str(), "r");
    if (!pipe)
        throw std::runtime_error("cannot run gzip on " + path);
    char buffer[256];
    bool header = true;
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        if (!header)
            line(std::string(buffer));
        header = false;
    }
    if (pclose(pipe) != 0)
        throw std::runtime_error("gzip failed on " + path);
}

// [board id] -> the reference's value; ids it does not list are 0.
inline std::vector<double> reference_values_4x20() {
    std::vector<double> values(21 * 21 * 21 * 21, 0.0);
    read_gzipped_csv(seed_data_file("avgs_20-4.csv.gz"), [&](const std::string& line) {
        const std::size_t comma = line.find(',');
        values.at(std::stoull(line.substr(0, comma))) = std::stod(line.substr(comma + 1));
    });
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
    read_gzipped_csv(seed_data_file("connections_20-4.csv.gz"), [&](const std::string& line) {
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
