#include "cli.h"

#include "errors.h"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>

namespace stack {

void parse_command_line(int argc, char** argv, const boost::program_options::options_description& options,
                        boost::program_options::variables_map& variables) {
    namespace po = boost::program_options;
    try {
        po::store(po::command_line_parser(argc, argv).options(options).run(), variables);
        po::notify(variables);
    } catch (const po::error& error) {
        throw InputError(error.what());
    }
}

std::string with_commas(std::uint64_t value) {
    std::string digits = std::to_string(value);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string human_bytes(double bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 5) {
        bytes /= 1000.0;
        ++unit;
    }
    return fixed(bytes, unit == 0 ? 0 : 1) + " " + units[unit];
}

std::uint64_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

std::uint64_t available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::uint64_t value = 0;
    while (meminfo >> key >> value >> unit)
        if (key == "MemAvailable:")
            return value * 1024;
    return 0;
}

const char* project_version() { return STACK_VERSION; }

}  // namespace stack
