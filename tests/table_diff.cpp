// table_diff A B            exit 0 when A and B hold bit-identical values at
//                           every board id
// table_diff --reference A  exit 0 when A matches the reference's published
//                           4x20 values to 1e-12
// Both read through the lookup interface (stack_table.h).
#include "reference_data.h"
#include "stack_table.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

stack::StackTable open_resident(const char* path) {
    return stack::StackTable::open(path, {stack::Residency::Resident, 0});
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc == 3 && std::string(argv[1]) == "--reference") {
            const stack::StackTable table = open_resident(argv[2]);
            const std::vector<double> reference = stack::testing::reference_values_4x20();
            if (table.geometry().states() != reference.size()) {
                std::fprintf(stderr, "%s is not a 4x20 table\n", argv[2]);
                return 1;
            }
            double worst = 0;
            for (stack::BoardId id = 0; id < reference.size(); ++id)
                worst = std::max(worst, std::abs(table.value(id) - reference[id]));
            std::printf("largest difference from the reference: %.3g\n", worst);
            return worst <= 1e-12 ? 0 : 1;
        }
        if (argc != 3) {
            std::fprintf(stderr, "usage: table_diff A B | table_diff --reference A\n");
            return 2;
        }
        const stack::StackTable a = open_resident(argv[1]), b = open_resident(argv[2]);
        if (a.geometry().width() != b.geometry().width() || a.geometry().height() != b.geometry().height()) {
            std::printf("different wells: %dx%d and %dx%d\n", a.geometry().width(), a.geometry().height(),
                        b.geometry().width(), b.geometry().height());
            return 1;
        }
        for (stack::BoardId id = 0; id < a.geometry().states(); ++id) {
            const double x = a.value(id), y = b.value(id);
            if (std::memcmp(&x, &y, sizeof(double)) != 0) {
                std::printf("first difference at id %llu: %.17g and %.17g\n", static_cast<unsigned long long>(id), x, y);
                return 1;
            }
        }
        std::printf("bit-identical: %llu values\n", static_cast<unsigned long long>(a.geometry().states()));
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "table_diff: %s\n", error.what());
        return 2;
    }
}
