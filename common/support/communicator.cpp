#include "support/communicator.h"

#include <stdexcept>

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

bool Communicator::all_agree(bool ok) const {
    int local = ok ? 1 : 0, all = 0;
    check_mpi(MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce");
    return all == 1;
}

void Communicator::broadcast(std::string& text) const {
    unsigned long length = text.size();
    check_mpi(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, 0, comm_), "MPI_Bcast");
    text.resize(length);
    check_mpi(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm_), "MPI_Bcast");
}

int Communicator::ranks_on_node() const {
    MPI_Comm node = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
    int count = 1;
    MPI_Comm_size(node, &count);
    MPI_Comm_free(&node);
    return count;
}

}  // namespace stack
