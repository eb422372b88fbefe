#include "support/parallel.h"

#include <sched.h>
#include <unistd.h>

namespace stack {

int bound_cores() {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (::sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) > 0)
        return CPU_COUNT(&mask);
    return std::max(1, int(std::thread::hardware_concurrency()));
}

int node_cores() {
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? int(online) : std::max(1, int(std::thread::hardware_concurrency()));
}

int resolve_threads(int requested) { return requested > 0 ? requested : bound_cores(); }

}  // namespace stack
