#include "support/cli.h"

#include "support/errors.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

namespace stack {

void parse_command_line(int argc, char** argv, const boost::program_options::options_description& options,
                        boost::program_options::variables_map& variables,
                        const boost::program_options::positional_options_description* positional) {
    namespace po = boost::program_options;
    try {
        po::command_line_parser parser(argc, argv);
        parser.options(options);
        // No positional description means no positional arguments: a stray
        // word is refused, not ignored.
        static const po::positional_options_description none;
        parser.positional(positional ? *positional : none);
        po::store(parser.run(), variables);
        po::notify(variables);
    } catch (const po::error& error) {
        throw InputError(error.what());
    }
}

bool print_help_or_version(const std::string& tool, const boost::program_options::options_description& options,
                           const boost::program_options::variables_map& variables, bool print) {
    if (!variables.count("help") && !variables.count("version"))
        return false;
    if (print && variables.count("help"))
        std::cout << options << "\n" << exit_codes_text();
    else if (print)
        std::cout << tool << " " << project_version() << "\n";
    return true;
}

namespace {

[[noreturn]] void bad_number(const std::string& option, const std::string& text, const std::string& expected) {
    throw InputError("--" + option + " must be " + expected + ", not '" + text + "'");
}

}  // namespace

std::string whole_range_text(std::int64_t minimum, std::uint64_t maximum) {
    if (maximum == std::numeric_limits<std::uint64_t>::max())
        return "a whole number >= " + std::to_string(minimum);
    return "a whole number in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]";
}

std::uint64_t parse_unsigned_option(const std::string& option, const std::string& text, std::uint64_t minimum,
                                    std::uint64_t maximum) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || stop != end || (error != std::errc() && error != std::errc::result_out_of_range))
        bad_number(option, text, whole_range_text(std::int64_t(minimum), maximum));
    if (error == std::errc::result_out_of_range || value < minimum || value > maximum)
        bad_number(option, text, whole_range_text(std::int64_t(minimum), maximum));
    return value;
}

int parse_int_option(const std::string& option, const std::string& text, int minimum, int maximum) {
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    const std::string expected = whole_range_text(minimum, std::uint64_t(std::int64_t(maximum)));
    // "-0" is not a whole number in [0, N]: no sign where none can be meant.
    const bool signed_zero = minimum >= 0 && !text.empty() && text[0] == '-';
    if (text.empty() || stop != end || error != std::errc() || value < minimum || value > maximum || signed_zero)
        bad_number(option, text, expected);
    return static_cast<int>(value);
}

std::string real_range_text(double above, double below, bool above_included) {
    char range[96];
    if (above_included)
        std::snprintf(range, sizeof range, "a number >= %g and below %g", above, below);
    else
        std::snprintf(range, sizeof range, "a number strictly between %g and %g", above, below);
    return range;
}

double parse_real_option(const std::string& option, const std::string& text, double above, double below,
                         bool above_included) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || stop != end || error != std::errc() || !std::isfinite(value)
        || !(above_included ? value >= above : value > above) || !(value < below))
        bad_number(option, text, real_range_text(above, below, above_included));
    return value + 0.0;  // -0 is 0
}

int byte_unit_shift(char unit) {
    switch (unit) {
    case 'K':
    case 'k': return 10;
    case 'M':
    case 'm': return 20;
    case 'G':
    case 'g': return 30;
    case 'T':
    case 't': return 40;
    default: return 0;
    }
}

std::uint64_t parse_bytes_option(const std::string& option, const std::string& text) {
    const std::string expected = "a byte count such as 512M, 16G or 2T (at least 1M)";
    std::string digits = text;
    int shift = 0;
    if (!digits.empty()) {
        shift = byte_unit_shift(digits.back());
        if (shift)
            digits.pop_back();
    }
    std::uint64_t value = 0;
    const char* end = digits.data() + digits.size();
    const auto [stop, error] = std::from_chars(digits.data(), end, value);
    if (digits.empty() || stop != end || error != std::errc()
        || value > (std::numeric_limits<std::uint64_t>::max() >> shift))
        bad_number(option, text, expected);
    value <<= shift;
    if (value < (std::uint64_t(1) << 20))
        bad_number(option, text, expected);
    return value;
}

double parse_rate_option(const std::string& option, const std::string& text) {
    std::string digits = text;
    double scale = 1;
    if (!digits.empty()) {
        switch (digits.back()) {
        case 'K':
        case 'k': scale = 1e3; break;
        case 'M':
        case 'm': scale = 1e6; break;
        case 'G':
        case 'g': scale = 1e9; break;
        case 'T':
        case 't': scale = 1e12; break;
        default: break;
        }
        if (scale > 1)
            digits.pop_back();
    }
    double value = 0;
    const char* end = digits.data() + digits.size();
    const auto [stop, error] = std::from_chars(digits.data(), end, value);
    if (digits.empty() || stop != end || error != std::errc() || !std::isfinite(value * scale) || !(value > 0))
        bad_number(option, text, "a rate in bits a second such as 100G, 25G or 400M (powers of 1000), above 0");
    return value * scale;
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

std::string file_kind(unsigned mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return S_ISREG(mode) ? "a regular file" : "not a regular file";
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

void ignore_broken_pipe() { std::signal(SIGPIPE, SIG_IGN); }

int finish_output(const char* tool, int code) {
    std::cout.flush();
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int reason = errno;
    if ((flushed && !std::ferror(stdout) && std::cout.good()) || (code != ExitSuccess && code != ExitCheckFailed))
        return code;
    // An earlier write failed and left only the stream's error flag: a pipe
    // whose reader has gone reports POLLERR, so name that case.
    pollfd out{STDOUT_FILENO, POLLOUT, 0};
    struct stat status {};
    const bool closed_pipe = reason == 0 && ::fstat(STDOUT_FILENO, &status) == 0 && S_ISFIFO(status.st_mode)
                             && ::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0;
    std::fprintf(stderr, "%s: error: cannot write the output: %s\n", tool,
                 reason != 0   ? std::strerror(reason)
                 : closed_pipe ? std::strerror(EPIPE)
                               : "a write to standard output failed");
    return ExitFailure;
}

void read_exactly(int descriptor, void* into, std::uint64_t bytes, std::uint64_t offset, const std::string& what) {
    char* at = static_cast<char*>(into);
    for (std::uint64_t done = 0; done < bytes;) {
        const ssize_t got = ::pread(descriptor, at + done, bytes - done, off_t(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            throw std::runtime_error(what + ": " + (got < 0 ? std::strerror(errno) : "the file ends early"));
        done += std::uint64_t(got);
    }
}

}  // namespace stack
