// MPI ownership, the way Cabana does it: the library never works on
// MPI_COMM_WORLD directly but on a duplicate it owns, so its collectives can
// never match a caller's messages.
#pragma once

#include <mpi.h>

#include <string>

namespace stack {

// Throws std::runtime_error("<what>: <MPI error string>") on failure.
void check_mpi(int code, const char* what);

// MPI_Init/MPI_Finalize for a main(): returns errors instead of aborting.
class MpiSession {
public:
    MpiSession(int* argc, char*** argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
};

class Communicator {
public:
    explicit Communicator(MPI_Comm parent);
    ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    MPI_Comm get() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    bool is_root() const { return rank_ == 0; }

    // True on every rank when `ok` is true on every rank: used before
    // collective steps so that one rank's failure stops all of them cleanly.
    bool all_agree(bool ok) const;
    // Rank 0's `text` on every rank.
    void broadcast(std::string& text) const;
    // Ranks sharing this rank's node (for the memory check).
    int ranks_on_node() const;

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace stack
