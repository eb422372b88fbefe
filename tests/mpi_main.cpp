// GoogleTest main for MPI tests: every rank runs every test; only rank 0
// prints, so a failure on another rank shows through the exit code and the
// tests' own cross-rank assertions.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    ::testing::InitGoogleTest(&argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (rank != 0)
        delete listeners.Release(listeners.default_result_printer());
    int failed = RUN_ALL_TESTS(), any_failed = 0;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any_failed;
}
