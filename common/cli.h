// Command-line and report helpers shared by stackgen and stackplay.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <string>

namespace stack {

// Parses argv into `variables`; any Boost error (unknown option, bad value,
// missing value) becomes an InputError with Boost's one-line message.
void parse_command_line(int argc, char** argv, const boost::program_options::options_description& options,
                        boost::program_options::variables_map& variables);

std::string with_commas(std::uint64_t value);    // 1234567 -> "1,234,567"
std::string human_bytes(double bytes);           // "1.5 GB"
std::string fixed(double value, int decimals);   // printf("%.*f")

// Peak resident set size of this process, in bytes.
std::uint64_t peak_rss_bytes();
// MemAvailable from /proc/meminfo, in bytes (0 when unknown).
std::uint64_t available_memory_bytes();

const char* project_version();

}  // namespace stack
