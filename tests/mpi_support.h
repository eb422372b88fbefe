// What the MPI suites share (tests/common/*_mpi.cpp, tests/gen/*_mpi.cpp).
#pragma once

#include "support/communicator.h"

#include <unistd.h>

#include <filesystem>
#include <string>

namespace stack::testing {

// A path in the temporary directory, the same on every rank (rank 0's
// process id in it).
inline std::string shared_temporary_path(const Communicator& comm, const std::string& name) {
    std::string path = (std::filesystem::temp_directory_path() / name).string();
    if (comm.is_root())
        path += "." + std::to_string(::getpid()) + ".h5";
    comm.broadcast(path);
    return path;
}

}  // namespace stack::testing
