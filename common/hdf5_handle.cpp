#include "hdf5_handle.h"

namespace stack {

void silence_hdf5_error_printing() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {
// H5Ewalk2 visits the stack innermost first; keep the first description.
herr_t keep_first_description(unsigned position, const H5E_error2_t* error, void* data) {
    auto* message = static_cast<std::string*>(data);
    if (position == 0 && error->desc)
        *message = error->desc;
    return 0;
}
}  // namespace

hid_t check_hdf5(hid_t status, const std::string& what) {
    if (status >= 0)
        return status;
    std::string message = "unknown HDF5 error";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_first_description, &message);
    H5Eclear2(H5E_DEFAULT);
    throw Hdf5Error(what + ": " + message);
}

}  // namespace stack
