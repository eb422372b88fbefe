// Each command-line option declared once: its name, what it takes, its
// default, its bounds or choices, and which of a tool's modes take it. The
// help the tool prints, the checks its values pass and the refusal of an
// option its mode does not take are all made from that one declaration (as
// Stockfish's ucioption.cpp does for UCI options), so `--help` and the
// errors say the same limits the parser enforces.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <deque>
#include <vector>

namespace stack {

// One value a choice option takes, and what it means (for the help).
struct OptionChoice {
    std::string value;
    std::string meaning;
};

class OptionTable {
public:
    enum class Kind { Flag, Integer, Count, Real, Reals, Bytes, Rate, Text, Choice };
    // A tool's modes as bits (stackplay: stacking, tetris, bot, serve); an
    // option with none is taken by every mode.
    using Modes = unsigned;

    struct Option {
        std::string name;
        Kind kind = Kind::Flag;
        std::string help;                      // the prose; bounds and choices are added from the fields below
        std::optional<std::string> fallback;   // the default, as it would be typed
        std::optional<std::string> implicit;   // the value of the bare option (--hold)
        bool repeated = false;                 // may be given several times (--residue)
        std::int64_t lowest = 0, highest = 0;  // Integer, Count
        double above = 0, below = 0;           // Real, Reals: above < value < below ...
        bool above_included = false;           // ... or above <= value
        std::vector<OptionChoice> choices;     // Choice
        Modes modes = 0;
        std::string section;
        char letter = 0;  // its one-letter form (-h for --help), or none

        // Chained after a declaration.
        Option& defaults_to(std::string text) {
            fallback = std::move(text);
            return *this;
        }
        Option& bare_means(std::string text) {
            implicit = std::move(text);
            return *this;
        }
        Option& also(char short_form) {
            letter = short_form;
            return *this;
        }
        Option& in(Modes taken_by) {
            modes = taken_by;
            return *this;
        }
        Option& many() {
            repeated = true;
            return *this;
        }
        // The line the help prints after the name.
        std::string described() const;
        bool taken_by(Modes mode) const { return modes == 0 || (modes & mode) != 0; }
    };

    // `usage` heads the help, after `about` (a sentence or two on what the
    // tool does, wrapped to 80 columns); --help and --version are declared
    // here.
    explicit OptionTable(std::string usage, std::string about = "");

    // The options declared next are printed under `title` (the first ones
    // under "Options"). With `also`, the title lists the options of other
    // sections that a mode of `also` takes too ("it also takes --policy,
    // ..."), so the list follows the declarations.
    void section(std::string title, Modes also = 0);

    Option& flag(std::string name, std::string help);
    // A whole number in [lowest, highest] (int's range).
    Option& integer(std::string name, int lowest, int highest, std::string help);
    // A count: a whole number in [lowest, highest], up to 2^64 - 1.
    Option& count(std::string name, std::uint64_t lowest, std::uint64_t highest, std::string help);
    // A finite real strictly between `above` and `below`; with
    // `above_included`, `above` itself too.
    Option& real(std::string name, double above, double below, std::string help, bool above_included = false);
    // Comma-separated reals, each one as real() takes it.
    Option& reals(std::string name, double above, double below, std::string help);
    Option& bytes(std::string name, std::string help);  // 512M, 16G (parse_bytes_option)
    Option& rate(std::string name, std::string help);   // bits a second: 100G (parse_rate_option)
    Option& text(std::string name, std::string help);
    Option& choice(std::string name, std::vector<OptionChoice> choices, std::string help = "");

    // Parses argv against the declarations (Boost.Program_options); any
    // error becomes one InputError line. `positional` names the option a
    // bare argument is (stackverify TABLE).
    void parse(int argc, char** argv, const std::string& positional = "");
    // Prints the help or the version when asked for; true when it was
    // asked for (the tool then exits 0).
    bool help_or_version(const std::string& tool, bool print = true) const;

    // On the command line, not only by its default.
    bool given(const std::string& name) const;
    // Has a value: given, or a default.
    bool has(const std::string& name) const;

    // Each value checked against its declaration; a bad one throws
    // InputError naming the option and its bounds or choices.
    int integer(const std::string& name) const;
    std::vector<int> integers(const std::string& name) const;  // a repeated integer
    std::uint64_t count(const std::string& name) const;
    double real(const std::string& name) const;
    std::vector<double> reals(const std::string& name) const;
    std::uint64_t bytes(const std::string& name) const;
    double rate(const std::string& name) const;
    std::string text(const std::string& name) const;
    std::vector<std::string> texts(const std::string& name) const;
    std::string choice(const std::string& name) const;

    // The options given on the command line that no mode in `mode` takes,
    // in the order declared.
    std::vector<const Option*> given_outside(Modes mode) const;
    // The options a mode takes that are not taken by every mode, in the
    // order declared ("--port, --bind and --table").
    std::string taken_only_by(Modes mode, const std::string& besides = "") const;

    const std::deque<Option>& options() const { return options_; }
    const Option& option(const std::string& name) const;
    boost::program_options::options_description description() const;

private:
    Option& declare(std::string name, Kind kind, std::string help);
    const Option& declared(const std::string& name, Kind kind) const;

    std::string usage_;
    std::string about_;
    std::string section_;
    std::vector<std::pair<std::string, Modes>> also_;  // [section title, the modes it lists the options of]
    std::deque<Option> options_;                       // a deque: a declaration's reference outlives the next one
    boost::program_options::variables_map variables_;
};

// "a, b or c"
std::string listed(const std::vector<std::string>& words, const std::string& last = " or ");

}  // namespace stack
