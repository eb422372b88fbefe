#include "output.h"

#include "support/cli.h"
#include "support/errors.h"
#include "table/table_format.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stack {

std::string lock_name(const std::string& output) { return output + ".lock"; }
std::string partial_name(const std::string& output) { return output + PartialSuffix; }

namespace {

// A path that exists must be a regular file (stat follows links: a link to
// a device is a device).
void refuse_non_regular(const std::string& path, const std::string& role) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        if (errno == ENOENT)
            return;
        throw InputError("cannot use " + role + " '" + path + "': " + std::strerror(errno));
    }
    if (!S_ISREG(status.st_mode))
        throw InputError(role + " '" + path + "' exists and is " + file_kind(status.st_mode)
                         + ": stackgen replaces only regular files");
}

// The pid a lock file holds, as written (empty when it holds none).
std::string lock_holder(int descriptor) {
    char pid[32] = {};
    const ssize_t length = ::pread(descriptor, pid, sizeof pid - 1, 0);
    std::string holder(pid, length > 0 ? std::size_t(length) : 0);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
        holder.pop_back();
    return holder;
}

}  // namespace

void check_output_path(const std::string& output) {
    if (output.empty())
        throw InputError("--output must name a file");
    refuse_non_regular(output, "the output");
    refuse_non_regular(partial_name(output), "the partial table");
    const std::filesystem::path parent = std::filesystem::path(output).parent_path();
    const std::string directory = parent.empty() ? "." : parent.string();
    struct stat status {};
    if (::stat(directory.c_str(), &status) != 0)
        throw InputError("cannot write the output in '" + directory + "': " + std::strerror(errno));
    if (!S_ISDIR(status.st_mode))
        throw InputError("cannot write the output in '" + directory + "': it is not a directory");
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw InputError("cannot write the output in '" + directory + "': " + std::strerror(errno));
}

// The lock is the file's inode, not its name: a run that opened the file
// just before the holder removed it would lock a dead inode, so after
// taking the lock the name must still lead to the inode locked.
OutputLock::OutputLock(const std::string& output) : path_(lock_name(output)) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int descriptor = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (descriptor < 0)
            throw InputError("cannot create the lock file '" + path_ + "': " + std::strerror(errno));
        if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const std::string holder = lock_holder(descriptor);
            ::close(descriptor);
            if (error != EWOULDBLOCK)
                throw InputError("cannot lock '" + path_ + "': " + std::strerror(error));
            throw InputError("another stackgen (pid " + (holder.empty() ? std::string("unknown") : holder)
                             + ") is writing '" + output + "' (it holds " + path_
                             + "): wait for it to finish, or choose another --output");
        }
        struct stat held {
        }, named{};
        if (::fstat(descriptor, &held) == 0 && ::stat(path_.c_str(), &named) == 0 && held.st_ino == named.st_ino
            && held.st_dev == named.st_dev) {
            stale_holder_ = lock_holder(descriptor);
            const std::string pid = std::to_string(::getpid()) + "\n";
            if (::ftruncate(descriptor, 0) != 0
                || ::pwrite(descriptor, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
                const std::string reason = std::strerror(errno);
                ::close(descriptor);
                throw InputError("cannot write the lock file '" + path_ + "': " + reason);
            }
            descriptor_ = descriptor;
            return;
        }
        ::close(descriptor);  // removed or replaced under us: try again
    }
    throw InputError("cannot take the lock '" + path_ + "': it keeps being replaced");
}

// A lock file that holds a pid but that no process has locked was left by
// a run that ended without removing it (killed with -9, or its node lost).
// A lock file with no pid yet is one just created, by this run or by one
// that has not locked it yet: not stale.
void OutputLock::say_taken_over() const {
    if (stale_holder_.empty())
        return;
    std::fprintf(stderr,
                 "stackgen: taking over the stale lock '%s' of pid %s: no process holds it (that run ended "
                 "without releasing it)\n",
                 path_.c_str(), printable(stale_holder_).c_str());
}

OutputLock::~OutputLock() {
    if (descriptor_ < 0)
        return;
    ::unlink(path_.c_str());
    ::close(descriptor_);
}

}  // namespace stack
