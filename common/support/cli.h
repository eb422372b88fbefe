// Command-line and report helpers shared by stackgen and stackplay.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace stack {

// Prints the help (the options described) or "<tool> <version>" when
// asked for, on `print`; true when it was asked for (the tool then exits 0).
bool print_help_or_version(const std::string& tool, const boost::program_options::options_description& options,
                           const boost::program_options::variables_map& variables, bool print = true);

// Parses argv into `variables`; any Boost error (unknown option, bad value,
// missing value) becomes an InputError with Boost's one-line message.
// At the end of a tool: flushes standard output, and when anything written
// to it failed (a full disk, a closed pipe) says so in one line on stderr
// and returns ExitFailure; otherwise returns `code`. A tool that already
// failed keeps its own code and message.
int finish_output(const char* tool, int code);
// Writes to a closed pipe then fail with EPIPE, which finish_output reports
// in one line with exit 3 (`stackgen ... | head -c 0`), instead of the
// process dying silently of SIGPIPE (exit 141). Each tool's main calls it
// first.
void ignore_broken_pipe();

void parse_command_line(int argc, char** argv, const boost::program_options::options_description& options,
                        boost::program_options::variables_map& variables,
                        const boost::program_options::positional_options_description* positional = nullptr);

// Numeric options are declared to Boost as strings and converted here:
// Boost.Program_options would silently wrap "-5" into a huge unsigned
// value. Each throws InputError naming the option when the text is not a
// plain number (no sign for unsigned ones, nothing trailing), overflows, or
// lies outside [minimum, maximum].
std::uint64_t parse_unsigned_option(const std::string& option, const std::string& text, std::uint64_t minimum = 0,
                                    std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max());
// The words an error and the help use for a whole number's range: "a
// whole number in [1, 16]", or ">= 0" when the maximum is 2^64 - 1.
std::string whole_range_text(std::int64_t minimum, std::uint64_t maximum);
int parse_int_option(const std::string& option, const std::string& text, int minimum, int maximum);
// A finite real strictly between `above` and `below` (with
// `above_included`, `above` itself too), and the words its error and help
// use for that range.
double parse_real_option(const std::string& option, const std::string& text, double above, double below,
                         bool above_included = false);
std::string real_range_text(double above, double below, bool above_included);
// The power of two a byte count's unit letter stands for (K 10, M 20, G 30,
// T 40, either case), 0 for any other character.
int byte_unit_shift(char unit);
// A byte count with an optional unit: 123, 512K, 64M, 16G, 2T (powers of 1024).
std::uint64_t parse_bytes_option(const std::string& option, const std::string& text);
// A rate in bits a second with an optional unit: 100G, 2.5G, 400M, 1T,
// 1e9 (powers of 1000, as links are sold); positive and finite.
double parse_rate_option(const std::string& option, const std::string& text);

std::string with_commas(std::uint64_t value);   // 1234567 -> "1,234,567"
std::string human_bytes(double bytes);          // "1.5 GB"
std::string fixed(double value, int decimals);  // printf("%.*f")

// What a file that is not a regular file is, from its stat mode: "a
// directory", "a FIFO", "a socket", "a character device", "a block device".
std::string file_kind(unsigned mode);
// Reads exactly `bytes` at `offset` of an open file into `into`; throws
// std::runtime_error "WHAT: REASON" (the OS reason, or that the file ends
// early).
void read_exactly(int descriptor, void* into, std::uint64_t bytes, std::uint64_t offset, const std::string& what);

// Peak resident set size of this process, in bytes.
std::uint64_t peak_rss_bytes();
// MemAvailable from /proc/meminfo, in bytes (0 when unknown).
std::uint64_t available_memory_bytes();

const char* project_version();

}  // namespace stack
