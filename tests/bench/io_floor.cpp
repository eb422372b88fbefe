// mpirun -n P io_floor --width W --height H --output FILE
// Everything stackgen does except the solve: start MPI, partition the ids,
// allocate and first-touch the same per-rank value arrays, and write them
// with the same collective HDF5 write. Its wall time is the floor under any
// solver on this machine; scripts/bench reports it next to stackgen's.
// Rank 0 prints one line of key=value pairs (max over ranks).
#include "bench_options.h"
#include "communicator.h"
#include "partition.h"
#include "huge_pages.h"
#include "table_writer.h"

#include <algorithm>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    stack::MpiSession mpi(&argc, &argv);
    const auto options = stack::testing::option_pairs(argc, argv);
    const int width = options ? stack::testing::positive_option(*options, "--width") : 0;
    const int height = options ? stack::testing::positive_option(*options, "--height") : 0;
    const std::string output = options && options->count("--output") ? options->at("--output") : "";
    if (width < 1 || height < 1 || output.empty()) {
        std::fprintf(stderr, "usage: mpirun -n P io_floor --width W --height H --output FILE\n");
        return 2;
    }
    try {
        const stack::Communicator comm(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        const stack::Geometry geometry(width, height);
        const stack::Partition partition(geometry, comm.size(), comm.rank());
        stack::HugeVector<double> values(partition.owned_states());
        std::fill(values.begin(), values.end(), 1.0);  // first touch, as the solver's rows do
        const double touched = MPI_Wtime();
        stack::TableInfo info;
        info.width = width;
        info.height = height;
        info.schedule = "io_floor";
        info.states = geometry.states();
        stack::write_table(comm, output, info, values, partition.slice());
        const double written = MPI_Wtime();
        double local[3] = {touched - start, written - touched, written - start}, worst[3] = {};
        stack::check_mpi(MPI_Reduce(local, worst, 3, MPI_DOUBLE, MPI_MAX, 0, comm.get()), "MPI_Reduce");
        if (comm.is_root())
            std::printf("ranks=%d touch=%.3f write=%.3f total=%.3f\n", comm.size(), worst[0], worst[1], worst[2]);
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "io_floor: error: %s\n", error.what());
        MPI_Abort(MPI_COMM_WORLD, 3);
        return 3;
    }
}
