#include "support/options.h"

#include "support/cli.h"
#include "support/errors.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace stack {

namespace po = boost::program_options;

std::string listed(const std::vector<std::string>& words, const std::string& last) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
    return text;
}

namespace {

// `text` in lines of at most 80 columns, broken at spaces, each line after
// the first indented by `indent` spaces (Boost wraps the options' help so).
std::string wrapped(const std::string& text, std::size_t indent) {
    std::string lines;
    std::size_t line = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(start, end - start);
        if (line > 0 && line + 1 + word.size() > 80) {
            lines += "\n" + std::string(indent, ' ');
            line = indent;
        } else if (line > 0) {
            lines += ' ';
            ++line;
        }
        lines += word;
        line += word.size();
        start = end + 1;
    }
    return lines;
}

std::vector<std::string> choice_values(const OptionTable::Option& option) {
    std::vector<std::string> values;
    for (const OptionChoice& choice : option.choices)
        values.push_back(choice.value);
    return values;
}

}  // namespace

// The help line: the declaration's prose, then what the parser accepts, in
// the words its errors use, so the two cannot disagree.
std::string OptionTable::Option::described() const {
    std::string accepts;
    switch (kind) {
    case Kind::Integer:
    case Kind::Count: accepts = whole_range_text(lowest, std::uint64_t(highest)); break;
    case Kind::Real: accepts = real_range_text(above, below, above_included); break;
    case Kind::Reals: accepts = "comma-separated, each " + real_range_text(above, below, above_included); break;
    case Kind::Bytes:
        accepts = "a byte count such as 512M, 16G or 2T, at least 1M: K, M, G, T are powers of 1024";
        break;
    case Kind::Rate: accepts = "bits a second such as 100G, 2.5G or 400M: K, M, G, T are powers of 1000"; break;
    case Kind::Choice: {
        std::vector<std::string> meanings;
        for (const OptionChoice& choice : choices)
            meanings.push_back(choice.meaning.empty() ? choice.value : choice.value + " (" + choice.meaning + ")");
        return help.empty() ? listed(meanings) : help + ": " + listed(meanings);
    }
    default: return help;
    }
    if (repeated)
        accepts += "; repeatable";
    return help + "; " + accepts;
}

OptionTable::OptionTable(std::string usage, std::string about)
    : usage_(std::move(usage)), about_(std::move(about)) {
    flag("help", "print this help and exit").also('h');
    flag("version", "print the version and exit");
}

void OptionTable::section(std::string title, Modes also) {
    section_ = std::move(title);
    if (also)
        also_.emplace_back(section_, also);
}

OptionTable::Option& OptionTable::declare(std::string name, Kind kind, std::string help) {
    for (const Option& option : options_)
        if (option.name == name)
            throw std::logic_error("option --" + name + " declared twice");
    Option& option = options_.emplace_back();
    option.name = std::move(name);
    option.kind = kind;
    option.help = std::move(help);
    option.section = section_;
    return option;
}

OptionTable::Option& OptionTable::flag(std::string name, std::string help) {
    return declare(std::move(name), Kind::Flag, std::move(help));
}

OptionTable::Option& OptionTable::integer(std::string name, int lowest, int highest, std::string help) {
    Option& option = declare(std::move(name), Kind::Integer, std::move(help));
    option.lowest = lowest;
    option.highest = highest;
    return option;
}

OptionTable::Option& OptionTable::count(std::string name, std::uint64_t lowest, std::uint64_t highest,
                                        std::string help) {
    Option& option = declare(std::move(name), Kind::Count, std::move(help));
    option.lowest = std::int64_t(lowest);
    option.highest = std::int64_t(highest);  // 2^64 - 1 wraps to -1 and back
    return option;
}

OptionTable::Option& OptionTable::real(std::string name, double above, double below, std::string help,
                                       bool above_included) {
    Option& option = declare(std::move(name), Kind::Real, std::move(help));
    option.above = above;
    option.below = below;
    option.above_included = above_included;
    return option;
}

OptionTable::Option& OptionTable::reals(std::string name, double above, double below, std::string help) {
    Option& option = declare(std::move(name), Kind::Reals, std::move(help));
    option.above = above;
    option.below = below;
    return option;
}

OptionTable::Option& OptionTable::bytes(std::string name, std::string help) {
    return declare(std::move(name), Kind::Bytes, std::move(help));
}

OptionTable::Option& OptionTable::rate(std::string name, std::string help) {
    return declare(std::move(name), Kind::Rate, std::move(help));
}

OptionTable::Option& OptionTable::text(std::string name, std::string help) {
    return declare(std::move(name), Kind::Text, std::move(help));
}

OptionTable::Option& OptionTable::choice(std::string name, std::vector<OptionChoice> choices, std::string help) {
    Option& option = declare(std::move(name), Kind::Choice, std::move(help));
    option.choices = std::move(choices);
    return option;
}

// Boost sees every valued option as text (a number is checked by our own
// parsers: Boost would wrap "-5" into a huge unsigned value), a repeated one
// as a list of texts, and a flag as no value at all.
po::options_description OptionTable::description() const {
    po::options_description whole((about_.empty() ? "" : wrapped(about_, 0) + "\n\n") + usage_ + "\nOptions");
    std::vector<std::string> titles;
    for (const Option& option : options_)
        if (!option.section.empty() && std::find(titles.begin(), titles.end(), option.section) == titles.end())
            titles.push_back(option.section);
    std::vector<po::options_description> sections;
    for (const std::string& title : titles) {
        std::string shown = title;
        for (const auto& [listing, modes] : also_) {
            if (listing != title)
                continue;
            std::vector<std::string> names;
            for (const Option& option : options_)
                if (option.section != title && option.modes != 0 && (option.modes & modes) != 0)
                    names.push_back("--" + option.name);
            if (!names.empty() && shown.size() > 1 && shown.back() == ')') {
                shown.pop_back();
                shown += "; it also takes";
                for (std::size_t i = 0; i < names.size(); ++i)
                    shown += (i ? ", " : " ") + names[i];
                shown += ")";
            }
        }
        sections.emplace_back(wrapped(shown, 2));  // in 80 columns, as Boost prints the options under it
    }
    for (const Option& option : options_) {
        po::options_description& into =
            option.section.empty()
                ? whole
                : sections[std::size_t(std::find(titles.begin(), titles.end(), option.section) - titles.begin())];
        const std::string help = option.described();
        const std::string spec = option.letter ? option.name + "," + option.letter : option.name;
        if (option.kind == Kind::Flag) {
            into.add_options()(spec.c_str(), help.c_str());
        } else if (option.repeated) {
            into.add_options()(spec.c_str(), po::value<std::vector<std::string>>()->composing(), help.c_str());
        } else {
            auto* value = po::value<std::string>();
            if (option.fallback)
                value->default_value(*option.fallback);
            if (option.implicit)
                value->implicit_value(*option.implicit);
            if (option.implicit && option.implicit->empty())  // Boost would show "arg", as if a value were needed
                value->value_name("[=arg]");
            into.add_options()(spec.c_str(), value, help.c_str());
        }
    }
    for (const po::options_description& section : sections)
        whole.add(section);
    return whole;
}

void OptionTable::parse(int argc, char** argv, const std::string& positional) {
    po::positional_options_description bare;
    if (!positional.empty())
        bare.add(positional.c_str(), 1);
    parse_command_line(argc, argv, description(), variables_, positional.empty() ? nullptr : &bare);
}

bool OptionTable::help_or_version(const std::string& tool, bool print) const {
    return print_help_or_version(tool, description(), variables_, print);
}

const OptionTable::Option& OptionTable::option(const std::string& name) const {
    for (const Option& option : options_)
        if (option.name == name)
            return option;
    throw std::logic_error("option --" + name + " is not declared");
}

const OptionTable::Option& OptionTable::declared(const std::string& name, Kind kind) const {
    const Option& found = option(name);
    if (found.kind != kind)
        throw std::logic_error("option --" + name + " is read as another kind than declared");
    return found;
}

bool OptionTable::given(const std::string& name) const {
    option(name);
    return variables_.count(name) && !variables_[name].defaulted();
}

bool OptionTable::has(const std::string& name) const {
    option(name);
    return variables_.count(name) > 0;
}

int OptionTable::integer(const std::string& name) const {
    const Option& option = declared(name, Kind::Integer);
    return parse_int_option(name, text(name), int(option.lowest), int(option.highest));
}

std::vector<int> OptionTable::integers(const std::string& name) const {
    const Option& option = declared(name, Kind::Integer);
    std::vector<int> values;
    for (const std::string& each : texts(name))
        values.push_back(parse_int_option(name, each, int(option.lowest), int(option.highest)));
    return values;
}

std::uint64_t OptionTable::count(const std::string& name) const {
    const Option& option = declared(name, Kind::Count);
    return parse_unsigned_option(name, text(name), std::uint64_t(option.lowest), std::uint64_t(option.highest));
}

double OptionTable::real(const std::string& name) const {
    const Option& option = declared(name, Kind::Real);
    return parse_real_option(name, text(name), option.above, option.below, option.above_included);
}

std::vector<double> OptionTable::reals(const std::string& name) const {
    const Option& option = declared(name, Kind::Reals);
    const std::string whole = text(name);
    std::vector<double> values;
    for (std::size_t from = 0;;) {
        const std::size_t comma = whole.find(',', from);
        values.push_back(parse_real_option(name, whole.substr(from, comma - from), option.above, option.below,
                                           option.above_included));
        if (comma == std::string::npos)
            return values;
        from = comma + 1;
    }
}

std::uint64_t OptionTable::bytes(const std::string& name) const {
    declared(name, Kind::Bytes);
    return parse_bytes_option(name, text(name));
}

double OptionTable::rate(const std::string& name) const {
    declared(name, Kind::Rate);
    return parse_rate_option(name, text(name));
}

std::string OptionTable::text(const std::string& name) const {
    if (option(name).repeated)
        throw std::logic_error("option --" + name + " is repeated: read it with texts()");
    if (!variables_.count(name))
        throw std::logic_error("option --" + name + " has no value: ask has() first");
    return variables_[name].as<std::string>();
}

std::vector<std::string> OptionTable::texts(const std::string& name) const {
    if (!option(name).repeated)
        throw std::logic_error("option --" + name + " is not repeated");
    return variables_.count(name) ? variables_[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

std::string OptionTable::choice(const std::string& name) const {
    const Option& option = declared(name, Kind::Choice);
    const std::string value = text(name);
    for (const OptionChoice& choice : option.choices)
        if (choice.value == value)
            return value;
    throw InputError("--" + name + " must be " + listed(choice_values(option)) + " (got '" + printable(value, 60)
                     + "')");
}

std::vector<const OptionTable::Option*> OptionTable::given_outside(Modes mode) const {
    std::vector<const Option*> outside;
    for (const Option& option : options_)
        if (!option.taken_by(mode) && given(option.name))
            outside.push_back(&option);
    return outside;
}

std::string OptionTable::taken_only_by(Modes mode, const std::string& besides) const {
    std::vector<std::string> names;
    for (const Option& option : options_)
        if (option.modes != 0 && option.taken_by(mode) && option.name != besides)
            names.push_back("--" + option.name);
    return listed(names, " and ");
}

}  // namespace stack
