// A thin checked layer over the HDF5 C API. Every call goes through check():
// a negative return throws Hdf5Error carrying HDF5's own message (the
// innermost entry of its error stack). Every hid_t is owned by a Handle that
// closes it with the right H5?close function.
#pragma once

#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <utility>

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

}  // namespace stack
