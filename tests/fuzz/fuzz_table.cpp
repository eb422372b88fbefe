// libFuzzer target: the table loader (versions 1 and 2). The input is a
// whole table file; the seed corpus is real small tables (scripts/fuzz makes
// them). Opening it resident and lazily, and reading values, may only
// succeed or throw InputError: any other exception, a crash, a leak of
// sanitizer-visible memory errors or a hang is a finding.
#include "support/errors.h"
#include "table/stack_table.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

// One scratch file per fuzzing process, rewritten for every input.
const std::string& scratch_path() {
    static const std::string path = [] {
        const char* directory = std::getenv("TMPDIR");
        std::string pattern = std::string(directory && *directory ? directory : "/tmp") + "/fuzz-table-XXXXXX";
        const int descriptor = ::mkstemp(pattern.data());
        if (descriptor < 0)
            std::abort();
        ::close(descriptor);
        std::atexit([] { std::remove(scratch_path().c_str()); });
        return pattern;
    }();
    return path;
}

void read_some_values(const stack::StackTable& table) {
    const stack::BoardId states = table.geometry().states();
    volatile double sink = 0;
    for (stack::BoardId id = 0; id < states && id < 64; ++id)
        if (table.holds(id))
            sink = sink + table.value(id);
    if (table.holds(states - 1))
        sink = sink + table.value(states - 1);
    if (table.holds(states / 2))
        sink = sink + table.value(states / 2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& path = scratch_path();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0)
        std::abort();
    for (stack::Residency residency : {stack::Residency::Resident, stack::Residency::Lazy}) {
        try {
            stack::TableOpenOptions options;
            options.residency = residency;
            options.memory_limit = 64 << 20;
            const stack::StackTable table = stack::StackTable::open(path, options);
            read_some_values(table);
        } catch (const stack::InputError&) {
            // refused with a message: what a damaged file must get
        }
    }
    return 0;
}
