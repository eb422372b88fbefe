// MPI ownership, the way Cabana does it: the library never works on
// MPI_COMM_WORLD directly but on a duplicate it owns, so its collectives can
// never match a caller's messages. Every collective the tools use is a
// member here, typed, and checked: gen/ and play/ make no raw MPI calls.
#pragma once

#include "support/errors.h"

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

namespace stack {

// Throws std::runtime_error("<what>: <MPI error string>") on failure.
void check_mpi(int code, const char* what);

// The MPI datatype of a C++ arithmetic type.
template <class T>
MPI_Datatype mpi_type() {
    if constexpr (std::is_same_v<T, double>)
        return MPI_DOUBLE;
    else if constexpr (std::is_same_v<T, float>)
        return MPI_FLOAT;
    else if constexpr (std::is_same_v<T, char>)
        return MPI_CHAR;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4)
        return MPI_INT32_T;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 8)
        return MPI_INT64_T;
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) == 4)
        return MPI_UINT32_T;
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) == 8)
        return MPI_UINT64_T;
    else
        static_assert(sizeof(T) == 0, "no MPI datatype for this type");
}

enum class Reduction { Sum, Min, Max };

// MPI_Init/MPI_Finalize for a main(): returns errors instead of aborting.
class MpiSession {
public:
    MpiSession(int* argc, char*** argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    // This process's rank in MPI_COMM_WORLD, for a main's error messages.
    static int world_rank();
    // Ends every rank of the job (a failure on one rank while the others may
    // wait in a collective).
    [[noreturn]] static void abort(int code);
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

    // The one way ranks agree on a failure. Collective: every rank passes
    // what it caught (null when it succeeded); when any rank failed, every
    // rank throws the failure of the lowest failing rank, an InputError as
    // an InputError (bad input, exit 2) and anything else as a
    // CollectiveError (exit 3), with that rank's message.
    void agree(const std::exception_ptr& failure) const;
    // step() on rank 0 alone, then agree() on its outcome.
    template <class Step>
    void on_root(Step&& step) const {
        std::exception_ptr failure;
        if (is_root()) {
            try {
                step();
            } catch (...) {
                failure = std::current_exception();
            }
        }
        agree(failure);
    }
    // step() on every rank, then agree() on the outcomes.
    template <class Step>
    void on_every_rank(Step&& step) const {
        std::exception_ptr failure;
        try {
            step();
        } catch (...) {
            failure = std::current_exception();
        }
        agree(failure);
    }

    // Rank `root`'s value on every rank.
    void broadcast(std::string& text, int root = 0) const;
    template <class T>
    void broadcast(T& value, int root = 0) const {
        static_assert(std::is_trivially_copyable_v<T>);
        check_mpi(MPI_Bcast(&value, int(sizeof(T)), MPI_BYTE, root, comm_), "MPI_Bcast");
    }
    template <class T>
    void broadcast(std::vector<T>& values, int root = 0) const {
        std::uint64_t count = values.size();
        broadcast(count, root);
        values.resize(count);
        check_mpi(MPI_Bcast(values.data(), int(count * sizeof(T)), MPI_BYTE, root, comm_), "MPI_Bcast");
    }

    // The reduction of every rank's value(s), on every rank.
    template <class T>
    T all_reduce(T value, Reduction reduction) const {
        check_mpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, mpi_type<T>(), mpi_op(reduction), comm_), "MPI_Allreduce");
        return value;
    }
    template <class T>
    void all_reduce(T* values, int count, Reduction reduction) const {
        check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, mpi_type<T>(), mpi_op(reduction), comm_), "MPI_Allreduce");
    }

    // Every rank's value on rank 0, in rank order (empty elsewhere).
    template <class T>
    std::vector<T> gather(T value) const {
        std::vector<T> all(is_root() ? size_ : 0);
        check_mpi(MPI_Gather(&value, 1, mpi_type<T>(), all.data(), 1, mpi_type<T>(), 0, comm_), "MPI_Gather");
        return all;
    }
    // Every rank's values, concatenated in rank order on rank 0.
    template <class T>
    std::vector<T> gather(const std::vector<T>& values) const {
        const std::vector<int> counts = gather(int(values.size()));
        std::vector<int> offsets(counts.size());
        int total = 0;
        for (std::size_t source = 0; source < counts.size(); ++source)
            offsets[source] = total, total += counts[source];
        std::vector<T> all(static_cast<std::size_t>(total));
        check_mpi(MPI_Gatherv(values.data(), int(values.size()), mpi_type<T>(), all.data(), counts.data(),
                              offsets.data(), mpi_type<T>(), 0, comm_),
                  "MPI_Gatherv");
        return all;
    }

    // counts[destination] out, what every source sends here back ([source]).
    std::vector<int> all_to_all(const std::vector<int>& counts) const;
    // The personalised exchange: send_counts[d] elements from
    // send + send_offsets[d] to rank d; receive_counts[s] from rank s land at
    // receive + receive_offsets[s]. Counts in elements of `type`.
    void all_to_all(const void* send, const std::vector<int>& send_counts, const std::vector<int>& send_offsets,
                    void* receive, const std::vector<int>& receive_counts, const std::vector<int>& receive_offsets,
                    MPI_Datatype type) const;
    template <class T>
    void all_to_all(const T* send, const std::vector<int>& send_counts, const std::vector<int>& send_offsets,
                    T* receive, const std::vector<int>& receive_counts, const std::vector<int>& receive_offsets) const {
        all_to_all(send, send_counts, send_offsets, receive, receive_counts, receive_offsets, mpi_type<T>());
    }

    // Ranks sharing this rank's node (for the memory check).
    int ranks_on_node() const;
    // This rank's index among them (the GPU it takes).
    int rank_on_node() const;

private:
    static MPI_Op mpi_op(Reduction reduction) {
        return reduction == Reduction::Sum ? MPI_SUM : reduction == Reduction::Min ? MPI_MIN : MPI_MAX;
    }
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 1;
};

// Offsets of consecutive blocks of `counts`, and their total.
std::vector<int> offsets_of(const std::vector<int>& counts, std::uint64_t* total = nullptr);

}  // namespace stack
