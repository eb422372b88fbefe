// table_diff A B            exit 0 when /values of A and B are bit-identical
// table_diff --reference A  exit 0 when A matches the reference's published
//                           4x20 values to 1e-12
#include "reference_data.h"
#include "table_file.h"

#include <cmath>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    try {
        if (argc == 3 && std::string(argv[1]) == "--reference") {
            const stack::Table table = stack::read_table(argv[2]);
            const std::vector<double> reference = stack::testing::reference_values_4x20();
            if (table.values.size() != reference.size()) {
                std::fprintf(stderr, "%s is not a 4x20 table\n", argv[2]);
                return 1;
            }
            double worst = 0;
            for (std::size_t id = 0; id < reference.size(); ++id)
                worst = std::max(worst, std::abs(table.values[id] - reference[id]));
            std::printf("largest difference from the reference: %.3g\n", worst);
            return worst <= 1e-12 ? 0 : 1;
        }
        if (argc != 3) {
            std::fprintf(stderr, "usage: table_diff A B | table_diff --reference A\n");
            return 2;
        }
        const stack::Table a = stack::read_table(argv[1]), b = stack::read_table(argv[2]);
        if (a.values.size() != b.values.size()) {
            std::printf("different sizes: %zu and %zu\n", a.values.size(), b.values.size());
            return 1;
        }
        for (std::size_t id = 0; id < a.values.size(); ++id)
            if (std::memcmp(&a.values[id], &b.values[id], sizeof(double)) != 0) {
                std::printf("first difference at id %zu: %.17g and %.17g\n", id, a.values[id], b.values[id]);
                return 1;
            }
        std::printf("bit-identical: %zu values\n", a.values.size());
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "table_diff: %s\n", error.what());
        return 2;
    }
}
