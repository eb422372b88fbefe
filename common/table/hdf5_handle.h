// A thin checked layer over the HDF5 C API, in the manner of HighFive.
// Every call goes through check_hdf5(): a negative return throws Hdf5Error
// carrying HDF5's own message (the innermost entry of its error stack).
// Every hid_t is owned by a Handle that closes it with the right H5?close.
// Scalar attributes are read and written here, with their type and shape
// checked, so that a file whose attribute is an array, or an integer where
// a string belongs, is refused with a message instead of misread.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stack {

class Hdf5Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Turns off HDF5's own printing of error stacks; errors reach the user
// through Hdf5Error instead. Idempotent.
void silence_hdf5_error_printing();

// Throws Hdf5Error("<what>: <HDF5 message>") when status < 0.
hid_t check_hdf5(hid_t status, const std::string& what);

class Handle {
public:
    using Closer = herr_t (*)(hid_t);

    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
    Handle& operator=(Handle&& other) noexcept {
        std::swap(id_, other.id_);
        std::swap(closer_, other.closer_);
        return *this;
    }
    ~Handle() { reset(); }

    hid_t get() const { return id_; }
    operator hid_t() const { return id_; }
    bool valid() const { return id_ >= 0; }

    // Closes now, reporting a failed close (a failed flush of a file).
    void close(const std::string& what) {
        if (id_ >= 0)
            check_hdf5(closer_(std::exchange(id_, H5I_INVALID_HID)), what);
    }
    void reset() {
        if (id_ >= 0)
            closer_(std::exchange(id_, H5I_INVALID_HID));
    }

private:
    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

// Checked constructors for the handle kinds this project uses.
inline Handle file_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Fclose}; }
inline Handle dataset_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Dclose}; }
inline Handle dataspace_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Sclose}; }
inline Handle attribute_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Aclose}; }
inline Handle property_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Pclose}; }
inline Handle datatype_handle(hid_t id, const std::string& what) { return {check_hdf5(id, what), H5Tclose}; }

// A one-dimensional dataset `name` of `length` elements of `file_type`,
// made with the dataset creation list `create` (H5P_DEFAULT for none).
Handle create_vector(hid_t file, const char* name, hid_t file_type, hsize_t length, hid_t create);

// Scalar attributes on a file, group or dataset. Writers store int64 and
// uint64 little-endian and strings as variable-length UTF-8.
void write_attribute(hid_t location, const char* name, std::int64_t value);
void write_attribute(hid_t location, const char* name, std::uint64_t value);
void write_attribute(hid_t location, const char* name, const std::string& value);
void write_attribute(hid_t location, const char* name, double value);  // IEEE-754 binary64, little-endian
// Rewrites an existing scalar attribute of the same type.
void rewrite_attribute(hid_t location, const char* name, double value);
void rewrite_attribute(hid_t location, const char* name, std::int64_t value);
void rewrite_attribute(hid_t location, const char* name, const std::string& value);
inline void write_attribute(hid_t location, const char* name, const char* value) {
    write_attribute(location, name, std::string(value));
}
// A one-dimensional int64 array attribute.
void write_attribute(hid_t location, const char* name, const std::vector<std::int64_t>& values);

bool has_attribute(hid_t location, const char* name);
// Each throws Hdf5Error naming the attribute when it is missing, is not a
// scalar, or has another type class (an integer attribute must be an
// integer; a string one a variable-length string).
std::int64_t read_integer_attribute(hid_t location, const char* name);
std::uint64_t read_unsigned_attribute(hid_t location, const char* name);
std::string read_string_attribute(hid_t location, const char* name);
double read_real_attribute(hid_t location, const char* name);  // a float attribute
// A one-dimensional integer array (of at most `most` entries).
std::vector<std::int64_t> read_integer_array_attribute(hid_t location, const char* name, std::size_t most);

}  // namespace stack
