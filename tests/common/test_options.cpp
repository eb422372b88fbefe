// support/options.h: each option declared once, its help, checks and modes
// made from the declaration.
#include "support/errors.h"
#include "support/options.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace stack {
namespace {

// Parses `words` (the tool's name first) against `table`.
void parse(OptionTable& table, std::vector<std::string> words) {
    words.insert(words.begin(), "tool");
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    table.parse(int(argv.size()), argv.data());
}

std::string error_of(auto call) {
    try {
        call();
    } catch (const InputError& error) {
        return error.what();
    }
    return "no error";
}

// The help says the range in the very words the error uses, both made from
// the one declaration.
TEST(Options, TheHelpAndTheErrorStateTheDeclaredBounds) {
    OptionTable table("usage");
    table.integer("width", 1, 16, "well width");
    const std::string help = table.option("width").described();
    EXPECT_NE(help.find("well width"), std::string::npos) << help;
    EXPECT_NE(help.find("a whole number in [1, 16]"), std::string::npos) << help;
    parse(table, {"--width", "17"});
    EXPECT_EQ(error_of([&] { table.integer("width"); }), "--width must be a whole number in [1, 16], not '17'");
    OptionTable fits("usage");
    fits.integer("width", 1, 16, "well width");
    parse(fits, {"--width", "16"});
    EXPECT_EQ(fits.integer("width"), 16);
}

TEST(Options, ChoicesAreListedInTheHelpAndRefusedByName) {
    OptionTable table("usage");
    table.choice("moves", {{"harddrop", "dropped"}, {"bfs", ""}}, "how pieces move").defaults_to("harddrop");
    EXPECT_EQ(table.option("moves").described(), "how pieces move: harddrop (dropped) or bfs");
    parse(table, {});
    EXPECT_EQ(table.choice("moves"), "harddrop");
    EXPECT_TRUE(table.has("moves"));
    EXPECT_FALSE(table.given("moves"));
    OptionTable wrong("usage");
    wrong.choice("moves", {{"harddrop", ""}, {"bfs", ""}, {"quick", ""}});
    parse(wrong, {"--moves", "srs"});
    EXPECT_TRUE(wrong.given("moves"));
    EXPECT_EQ(error_of([&] { wrong.choice("moves"); }), "--moves must be harddrop, bfs or quick (got 'srs')");
}

// Each mode takes the options declared for it; the others are found by
// given_outside, in the order declared.
TEST(Options, OptionsOutsideAModeAreFound) {
    constexpr OptionTable::Modes Play = 1, Serve = 2;
    OptionTable table("usage");
    table.count("runs", 1, 100, "games").defaults_to("10").in(Play);
    table.integer("port", 0, 65535, "port").defaults_to("8080").in(Serve);
    table.flag("serve", "serve").in(Serve);
    table.text("table", "a table").in(Play | Serve);
    table.flag("json", "as JSON");  // every mode
    parse(table, {"--serve", "--runs", "5", "--json"});
    std::vector<std::string> outside;
    for (const OptionTable::Option* option : table.given_outside(Serve))
        outside.push_back(option->name);
    EXPECT_EQ(outside, std::vector<std::string>{"runs"});  // a default given by no one is not outside
    EXPECT_TRUE(table.given_outside(Play).size() == 1 && table.given_outside(Play)[0]->name == "serve");
    EXPECT_EQ(table.taken_only_by(Serve, "serve"), "--port and --table");
}

TEST(Options, RepeatedAndListedValuesAreEachChecked) {
    OptionTable table("usage");
    table.integer("residue", 0, 3, "a class").many();
    table.reals("weights", -10, 10, "weights");
    parse(table, {"--residue", "1", "--residue", "3", "--weights", "1,-2.5,0"});
    EXPECT_EQ(table.integers("residue"), (std::vector<int>{1, 3}));
    EXPECT_EQ(table.reals("weights"), (std::vector<double>{1, -2.5, 0}));
    OptionTable bad("usage");
    bad.integer("residue", 0, 3, "a class").many();
    bad.reals("weights", -10, 10, "weights");
    parse(bad, {"--residue", "1", "--residue", "4", "--weights", "1,,2"});
    EXPECT_EQ(error_of([&] { bad.integers("residue"); }), "--residue must be a whole number in [0, 3], not '4'");
    EXPECT_EQ(error_of([&] { bad.reals("weights"); }),
              "--weights must be a number strictly between -10 and 10, not ''");
}

TEST(Options, AnIncludedLowerBoundTakesItsValue) {
    OptionTable table("usage");
    table.real("seconds", 0, 1e9, "how often", true);
    parse(table, {"--seconds", "0"});
    EXPECT_EQ(table.real("seconds"), 0.0);
    OptionTable below("usage");
    below.real("seconds", 0, 1e9, "how often", true);
    parse(below, {"--seconds", "-1"});
    EXPECT_EQ(error_of([&] { below.real("seconds"); }), "--seconds must be a number >= 0 and below 1e+09, not '-1'");
}

TEST(Options, MistakesInTheDeclarationsOrTheCommandLineAreCaught) {
    OptionTable table("usage");
    table.flag("json", "as JSON");
    EXPECT_THROW(table.flag("json", "again"), std::logic_error);
    EXPECT_THROW(table.option("jsn"), std::logic_error);
    EXPECT_NE(error_of([&] { parse(table, {"--jsn"}); }).find("jsn"), std::string::npos);
    OptionTable stray("usage");
    stray.flag("json", "as JSON");
    EXPECT_NE(error_of([&] { parse(stray, {"word"}); }), "no error");  // no positional option declared
    EXPECT_THROW(stray.integer("json"), std::logic_error);             // read as another kind than declared
}

// The help opens with what the tool does, wrapped to 80 columns, then the
// usage, then each section's heading above the options declared after it,
// in the order declared.
TEST(Options, TheHelpOpensWithWhatTheToolDoesAndGroupsTheOptions) {
    const std::string about =
        "tool turns every word of this sentence into a longer sentence than fits on one line of eighty "
        "columns, so the help must wrap it.";
    OptionTable table("Usage: tool [options]", about);
    table.section("Well");
    table.integer("width", 1, 16, "well width");
    table.section("Output");
    table.text("output", "table file");
    table.flag("json", "print JSON");
    std::ostringstream out;
    out << table.description();
    const std::string help = out.str();
    const std::string first_line = help.substr(0, help.find('\n'));
    EXPECT_EQ(first_line, "tool turns every word of this sentence into a longer sentence than fits on one");
    EXPECT_NE(help.find("line of eighty columns, so the help must wrap it.\n\nUsage: tool [options]"), std::string::npos)
        << help;
    const std::size_t well = help.find("\nWell:\n"), output = help.find("\nOutput:\n");
    ASSERT_NE(well, std::string::npos) << help;
    ASSERT_NE(output, std::string::npos) << help;
    EXPECT_LT(help.find("--version"), well) << help;
    EXPECT_LT(well, help.find("--width")) << help;
    EXPECT_LT(help.find("--width"), output) << help;
    EXPECT_LT(output, help.find("--output")) << help;
    EXPECT_LT(output, help.find("--json")) << help;
}

}  // namespace
}  // namespace stack
