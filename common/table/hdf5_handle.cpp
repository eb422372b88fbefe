#include "table/hdf5_handle.h"

#include <cstdio>

namespace stack {

void silence_hdf5_error_printing() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {
// The stack's outermost description (what the API call failed at, first in
// a downward walk) and its innermost one (the cause, last).
struct Descriptions {
    std::string outer, inner;
};
herr_t keep_descriptions(unsigned position, const H5E_error2_t* error, void* data) {
    auto* found = static_cast<Descriptions*>(data);
    if (error->desc) {
        if (position == 0)
            found->outer = error->desc;
        found->inner = error->desc;
    }
    return 0;
}

// HDF5's cause in plain words where it has a common one: a truncated file
// says "truncated file: eof = 20000, sblock->base_addr = 0, stored_eof =
// 60988".
std::string plain_cause(const std::string& inner) {
    unsigned long long eof = 0, base = 0, stored = 0;
    if (std::sscanf(inner.c_str(), "truncated file: eof = %llu, sblock->base_addr = %llu, stored_eof = %llu", &eof,
                    &base, &stored)
        == 3)
        return "the file is truncated: it has " + std::to_string(eof) + " bytes of the " + std::to_string(stored)
               + " it was written with";
    return inner;
}
}  // namespace

hid_t check_hdf5(hid_t status, const std::string& what) {
    if (status >= 0)
        return status;
    Descriptions found;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_descriptions, &found);
    H5Eclear2(H5E_DEFAULT);
    std::string message = found.outer.empty() ? "unknown HDF5 error" : found.outer;
    if (!found.inner.empty() && found.inner != found.outer)
        message += " (" + plain_cause(found.inner) + ")";
    throw Hdf5Error(what + ": " + message);
}

namespace {

Handle string_type() {
    Handle type = datatype_handle(H5Tcopy(H5T_C_S1), "copy string type");
    check_hdf5(H5Tset_size(type, H5T_VARIABLE), "set string size");
    check_hdf5(H5Tset_cset(type, H5T_CSET_UTF8), "set string charset");
    return type;
}

void write_scalar(hid_t location, const char* name, hid_t memory_type, hid_t file_type, const void* value) {
    const std::string what = std::string("write attribute '") + name + "'";
    Handle space = dataspace_handle(H5Screate(H5S_SCALAR), what);
    Handle attribute = attribute_handle(H5Acreate2(location, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), what);
    check_hdf5(H5Awrite(attribute, memory_type, value), what);
}

// Opens a scalar attribute whose type belongs to `expected_class`.
Handle open_scalar(hid_t location, const char* name, H5T_class_t expected_class, const char* expected) {
    const std::string label = std::string("attribute '") + name + "'";
    if (!has_attribute(location, name))
        throw Hdf5Error(label + " is missing");
    Handle attribute = attribute_handle(H5Aopen(location, name, H5P_DEFAULT), "open " + label);
    Handle space = dataspace_handle(H5Aget_space(attribute), "read the shape of " + label);
    const H5S_class_t shape = H5Sget_simple_extent_type(space);
    if (shape != H5S_SCALAR) {
        const hssize_t points = H5Sget_simple_extent_npoints(space);
        throw Hdf5Error(label + " is "
                        + (shape == H5S_SIMPLE ? "an array of " + std::to_string(points) + " values" : "empty")
                        + ", expected a single value, " + expected);
    }
    Handle type = datatype_handle(H5Aget_type(attribute), "read the type of " + label);
    const H5T_class_t type_class = H5Tget_class(type);
    if (type_class != expected_class)
        throw Hdf5Error(label + " is not " + expected);
    if (type_class == H5T_STRING && H5Tis_variable_str(type) <= 0)
        throw Hdf5Error(label + " is a fixed-length string, expected " + expected);
    return attribute;
}

}  // namespace

Handle create_vector(hid_t file, const char* name, hid_t file_type, hsize_t length, hid_t create) {
    const std::string what = std::string("create /") + name;
    Handle space = dataspace_handle(H5Screate_simple(1, &length, nullptr), what);
    return dataset_handle(H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, create, H5P_DEFAULT), what);
}

void write_attribute(hid_t location, const char* name, std::int64_t value) {
    write_scalar(location, name, H5T_NATIVE_INT64, H5T_STD_I64LE, &value);
}

void write_attribute(hid_t location, const char* name, std::uint64_t value) {
    write_scalar(location, name, H5T_NATIVE_UINT64, H5T_STD_U64LE, &value);
}

void write_attribute(hid_t location, const char* name, double value) {
    write_scalar(location, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &value);
}

void rewrite_attribute(hid_t location, const char* name, double value) {
    Handle attribute = attribute_handle(H5Aopen(location, name, H5P_DEFAULT), std::string("open attribute ") + name);
    check_hdf5(H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value), std::string("write attribute ") + name);
}

void rewrite_attribute(hid_t location, const char* name, std::int64_t value) {
    Handle attribute = attribute_handle(H5Aopen(location, name, H5P_DEFAULT), std::string("open attribute ") + name);
    check_hdf5(H5Awrite(attribute, H5T_NATIVE_INT64, &value), std::string("write attribute ") + name);
}

void rewrite_attribute(hid_t location, const char* name, const std::string& value) {
    Handle attribute = attribute_handle(H5Aopen(location, name, H5P_DEFAULT), std::string("open attribute ") + name);
    Handle type = string_type();
    const char* text = value.c_str();
    check_hdf5(H5Awrite(attribute, type, &text), std::string("write attribute ") + name);
}

void write_attribute(hid_t location, const char* name, const std::string& value) {
    Handle type = string_type();
    const char* text = value.c_str();
    write_scalar(location, name, type, type, &text);
}

void write_attribute(hid_t location, const char* name, const std::vector<std::int64_t>& values) {
    const std::string what = std::string("write attribute '") + name + "'";
    const hsize_t length = values.size();
    Handle space = dataspace_handle(H5Screate_simple(1, &length, nullptr), what);
    Handle attribute =
        attribute_handle(H5Acreate2(location, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT), what);
    check_hdf5(H5Awrite(attribute, H5T_NATIVE_INT64, values.data()), what);
}

std::vector<std::int64_t> read_integer_array_attribute(hid_t location, const char* name, std::size_t most) {
    const std::string label = std::string("attribute '") + name + "'";
    if (!has_attribute(location, name))
        throw Hdf5Error(label + " is missing");
    Handle attribute = attribute_handle(H5Aopen(location, name, H5P_DEFAULT), "open " + label);
    Handle space = dataspace_handle(H5Aget_space(attribute), "read the shape of " + label);
    hsize_t length = 0;
    if (H5Sget_simple_extent_type(space) != H5S_SIMPLE || H5Sget_simple_extent_ndims(space) != 1
        || H5Sget_simple_extent_dims(space, &length, nullptr) != 1 || length > most)
        throw Hdf5Error(label + " is not a list of at most " + std::to_string(most) + " integers");
    Handle type = datatype_handle(H5Aget_type(attribute), "read the type of " + label);
    if (H5Tget_class(type) != H5T_INTEGER)
        throw Hdf5Error(label + " is not a list of integers");
    std::vector<std::int64_t> values(length);
    if (length > 0)
        check_hdf5(H5Aread(attribute, H5T_NATIVE_INT64, values.data()), "read " + label);
    return values;
}

bool has_attribute(hid_t location, const char* name) { return H5Aexists(location, name) > 0; }

std::int64_t read_integer_attribute(hid_t location, const char* name) {
    Handle attribute = open_scalar(location, name, H5T_INTEGER, "an integer");
    std::int64_t value = 0;
    check_hdf5(H5Aread(attribute, H5T_NATIVE_INT64, &value), std::string("read attribute '") + name + "'");
    return value;
}

std::uint64_t read_unsigned_attribute(hid_t location, const char* name) {
    Handle attribute = open_scalar(location, name, H5T_INTEGER, "an integer");
    std::uint64_t value = 0;
    check_hdf5(H5Aread(attribute, H5T_NATIVE_UINT64, &value), std::string("read attribute '") + name + "'");
    return value;
}

double read_real_attribute(hid_t location, const char* name) {
    Handle attribute = open_scalar(location, name, H5T_FLOAT, "a float");
    double value = 0;
    check_hdf5(H5Aread(attribute, H5T_NATIVE_DOUBLE, &value), std::string("read attribute '") + name + "'");
    return value;
}

std::string read_string_attribute(hid_t location, const char* name) {
    Handle attribute = open_scalar(location, name, H5T_STRING, "a variable-length string");
    Handle type = string_type();
    char* text = nullptr;
    check_hdf5(H5Aread(attribute, type, &text), std::string("read attribute '") + name + "'");
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
}

}  // namespace stack
