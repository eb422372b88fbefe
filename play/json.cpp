#include "json.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace stack {

void JsonWriter::before_value() {
    if (expecting_value_) {
        expecting_value_ = false;
        return;
    }
    if (!open_.empty()) {
        if (open_.back() == '{')
            throw std::logic_error("JsonWriter: a value inside an object needs a key");
        if (has_items_.back())
            raw(",");
        has_items_.back() = true;
    } else if (!out_.empty()) {
        throw std::logic_error("JsonWriter: a second top-level value");
    }
}

void JsonWriter::open_container(char opening) {
    before_value();
    out_ += opening;
    open_.push_back(opening);
    has_items_.push_back(false);
}

// A pending key can only be inside an object, so it fails end_array too.
void JsonWriter::close_container(char opening, char closing) {
    if (open_.empty() || open_.back() != opening || expecting_value_)
        throw std::logic_error(std::string("JsonWriter: '") + closing + "' without a matching '" + opening + "'");
    open_.pop_back();
    has_items_.pop_back();
    out_ += closing;
}

JsonWriter& JsonWriter::begin_object() {
    open_container('{');
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    close_container('{', '}');
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    open_container('[');
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    close_container('[', ']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    if (open_.empty() || open_.back() != '{' || expecting_value_)
        throw std::logic_error("JsonWriter: a key outside an object");
    if (has_items_.back())
        raw(",");
    has_items_.back() = true;
    write_string(name);
    raw(":");
    expecting_value_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    before_value();
    write_string(text);
    return *this;
}

void JsonWriter::write_string(std::string_view text) {
    raw("\"");
    for (const char c : text) {
        switch (c) {
        case '"': raw("\\\""); break;
        case '\\': raw("\\\\"); break;
        case '\n': raw("\\n"); break;
        case '\t': raw("\\t"); break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                raw(escaped);
            } else {
                out_ += c;
            }
        }
    }
    raw("\"");
}

JsonWriter& JsonWriter::value(double number) {
    before_value();
    if (!std::isfinite(number)) {
        raw("null");
        return *this;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", number);
    raw(text);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
    before_value();
    raw(std::to_string(number));
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
    before_value();
    raw(std::to_string(number));
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    before_value();
    raw(flag ? "true" : "false");
    return *this;
}

std::string JsonWriter::text() const {
    if (!open_.empty() || expecting_value_ || out_.empty())
        throw std::logic_error("JsonWriter: the document is not finished");
    return out_ + "\n";
}

}  // namespace stack
