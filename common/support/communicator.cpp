#include "support/communicator.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace stack {

void check_mpi(int code, const char* what) {
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string(what) + ": " + std::string(text, length));
}

MpiSession::MpiSession(int* argc, char*** argv) {
    check_mpi(MPI_Init(argc, argv), "MPI_Init");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

int MpiSession::world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

void MpiSession::abort(int code) {
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

Communicator::Communicator(MPI_Comm parent) {
    check_mpi(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
}

Communicator::~Communicator() {
    if (comm_ != MPI_COMM_NULL)
        MPI_Comm_free(&comm_);
}

// The lowest failing rank tells the others what went wrong, and whether it
// was bad input: [0] the kind (1 input, 2 other), then the message.
void Communicator::agree(const std::exception_ptr& failure) const {
    std::string message;
    int kind = 0;
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const InputError& error) {
            kind = 1, message = error.what();
        } catch (const std::exception& error) {
            kind = 2, message = error.what();
        } catch (...) {
            kind = 2, message = "unknown failure";
        }
        if (message.empty())
            message = "unknown failure";
    }
    const int first = all_reduce(kind ? rank_ : size_, Reduction::Min);
    if (first == size_)
        return;
    broadcast(kind, first);
    broadcast(message, first);
    if (kind == 1)
        throw InputError(message);
    throw CollectiveError(message);
}

void Communicator::broadcast(std::string& text, int root) const {
    std::uint64_t length = text.size();
    broadcast(length, root);
    text.resize(length);
    check_mpi(MPI_Bcast(text.data(), int(length), MPI_CHAR, root, comm_), "MPI_Bcast");
}

std::vector<int> Communicator::all_to_all(const std::vector<int>& counts) const {
    std::vector<int> received(std::size_t(size_), 0);
    check_mpi(MPI_Alltoall(counts.data(), 1, MPI_INT, received.data(), 1, MPI_INT, comm_), "MPI_Alltoall");
    return received;
}

void Communicator::all_to_all(const void* send, const std::vector<int>& send_counts,
                              const std::vector<int>& send_offsets, void* receive,
                              const std::vector<int>& receive_counts, const std::vector<int>& receive_offsets,
                              MPI_Datatype type) const {
    check_mpi(MPI_Alltoallv(send, send_counts.data(), send_offsets.data(), type, receive, receive_counts.data(),
                            receive_offsets.data(), type, comm_),
              "MPI_Alltoallv");
}

namespace {

// This rank's place among the ranks sharing its node: {index, count}.
std::pair<int, int> place_on_node(MPI_Comm comm) {
    MPI_Comm node = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
    int index = 0, count = 1;
    MPI_Comm_rank(node, &index);
    MPI_Comm_size(node, &count);
    MPI_Comm_free(&node);
    return {index, count};
}

}  // namespace

int Communicator::ranks_on_node() const { return place_on_node(comm_).second; }

int Communicator::rank_on_node() const { return place_on_node(comm_).first; }

std::vector<int> offsets_of(const std::vector<int>& counts, std::uint64_t* total) {
    std::vector<int> offsets(counts.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        offsets[i] = int(sum);
        sum += std::uint64_t(counts[i]);
    }
    if (total)
        *total = sum;
    return offsets;
}

}  // namespace stack
