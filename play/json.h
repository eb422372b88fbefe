// A small streaming JSON writer for stackplay's --json reports: objects,
// arrays, strings, numbers (doubles round-trip with 17 digits; inf and NaN
// become null), booleans. Commas and nesting are tracked; misuse throws.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stack {

class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);  // inside an object, before each value
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(double number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(int number) { return value(std::int64_t(number)); }
    JsonWriter& value(std::uint32_t number) { return value(std::uint64_t(number)); }
    JsonWriter& value(bool flag);
    template <class T>
    JsonWriter& array(std::span<const T> values) {
        begin_array();
        for (const T& item : values)
            value(item);
        return end_array();
    }
    template <class T>
    JsonWriter& field(std::string_view name, const T& item) {
        key(name);
        return value(item);
    }

    // The finished document, with a newline; throws if anything is open.
    std::string text() const;

private:
    void before_value();
    void open_container(char opening);
    void close_container(char opening, char closing);
    void write_string(std::string_view text);
    void raw(std::string_view text) { out_ += text; }

    std::string out_;
    std::vector<char> open_;         // '{' or '['
    std::vector<bool> has_items_;    // per open container
    bool expecting_value_ = false;   // a key was written
};

}  // namespace stack
