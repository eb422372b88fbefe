// table_diff A B            exit 0 when, at every board B holds, A holds it
//                           too and B's value is A's rounded to B's precision
//                           (bit for bit; the identity when both are float64):
//                           so a table of one residue class, or in float32,
//                           is checked against the all-class float64 one, and
//                           a version-2 table against a version-1 one
// table_diff --reference A  exit 0 when A matches the reference's published
//                           4x20 values to 1e-12
// table_diff --sums A B     exit 0 when, at every board, A and B (float64)
//                           differ by at most the rounding of the sum's
//                           order: 4 ulps (a version-2 table summed the
//                           pieces in the set's order, version 3 adds each
//                           mirror pair first); prints how many differ
// Both read through the lookup interface (stack_table.h).
#include "reference_data.h"
#include "table/stack_table.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <algorithm>

namespace {

stack::StackTable open_resident(const char* path) {
    return stack::StackTable::open(path, {stack::Residency::Resident, 0});
}

double rounded(double value, stack::Precision precision) {
    return precision == stack::Precision::Float64 ? value : double(static_cast<float>(value));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc == 3 && std::string(argv[1]) == "--reference") {
            const stack::StackTable table = open_resident(argv[2]);
            const std::vector<double> reference = stack::testing::reference_values_4x20();
            if (table.geometry().states() != reference.size() || !table.info().residues.all()) {
                std::fprintf(stderr, "%s is not a whole 4x20 table\n", argv[2]);
                return 1;
            }
            double worst = 0;
            for (stack::BoardId id = 0; id < reference.size(); ++id)
                worst = std::max(worst, std::abs(table.value(id) - reference[id]));
            std::printf("largest difference from the reference: %.3g\n", worst);
            return worst <= 1e-12 ? 0 : 1;
        }
        if (argc == 4 && std::string(argv[1]) == "--sums") {
            const stack::StackTable a = open_resident(argv[2]), b = open_resident(argv[3]);
            if (a.geometry().states() != b.geometry().states()) {
                std::printf("different wells\n");
                return 1;
            }
            std::uint64_t differ = 0, held = 0, far = 0;
            double worst = 0;
            for (stack::BoardId id = 0; id < a.geometry().states(); ++id) {
                if (!a.holds(id) || !b.holds(id))
                    continue;
                const double x = a.value(id), y = b.value(id);
                ++held;
                differ += x != y;
                const double ulp = std::nextafter(std::max(x, y), 1e300) - std::max(x, y);
                far += std::abs(x - y) > 4 * ulp;
                worst = std::max(worst, std::abs(x - y) / std::max(std::max(x, y), 1e-300));
            }
            std::printf("%llu of %llu boards differ, by at most %.3g relative; %llu by more than 4 ulps\n",
                        static_cast<unsigned long long>(differ), static_cast<unsigned long long>(held), worst,
                        static_cast<unsigned long long>(far));
            return far == 0 ? 0 : 1;
        }
        if (argc != 3) {
            std::fprintf(stderr, "usage: table_diff A B | table_diff --reference A | table_diff --sums A B\n");
            return 2;
        }
        const stack::StackTable a = open_resident(argv[1]), b = open_resident(argv[2]);
        if (a.geometry().width() != b.geometry().width() || a.geometry().height() != b.geometry().height()) {
            std::printf("different wells: %dx%d and %dx%d\n", a.geometry().width(), a.geometry().height(),
                        b.geometry().width(), b.geometry().height());
            return 1;
        }
        const stack::Precision precision = b.info().precision;
        std::uint64_t compared = 0;
        for (stack::BoardId id = 0; id < a.geometry().states(); ++id) {
            if (!b.holds(id))
                continue;
            if (!a.holds(id)) {
                std::printf("%s holds board id %llu, %s does not\n", argv[2], static_cast<unsigned long long>(id),
                            argv[1]);
                return 1;
            }
            const double expected = rounded(a.value(id), precision), found = b.value(id);
            if (std::memcmp(&expected, &found, sizeof(double)) != 0) {
                std::printf("first difference at id %llu: %.17g in %s, %.17g expected from %s\n",
                            static_cast<unsigned long long>(id), found, argv[2], expected, argv[1]);
                return 1;
            }
            ++compared;
        }
        std::printf("bit-identical%s at all %llu boards %s holds (classes %s)\n",
                    precision == stack::Precision::Float32 ? " after rounding to float32" : "",
                    static_cast<unsigned long long>(compared), argv[2], b.info().residues.text().c_str());
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "table_diff: %s\n", error.what());
        return 2;
    }
}
