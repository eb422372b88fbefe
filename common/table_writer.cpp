#include "table_writer.h"

#include "hdf5_handle.h"

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>

namespace stack {

namespace {

// The collective part of write_table, on the temporary file.
void write_file(MPI_Comm comm, const std::string& path, const TableInfo& info,
                std::span<const double> local_values, const BlockCyclicSlice& slice) {
    Handle access = property_handle(H5Pcreate(H5P_FILE_ACCESS), "create file access list");
    check_hdf5(H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL), "select MPI-IO driver");
    Handle file = file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), "create " + path);
    write_table_info(file, info);

    const hsize_t states = info.states;
    Handle file_space = dataspace_handle(H5Screate_simple(1, &states, nullptr), "create table space");
    Handle create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "disable fill values");
    Handle dataset = dataset_handle(H5Dcreate2(file, ValuesDataset, H5T_IEEE_F64LE, file_space, H5P_DEFAULT,
                                               create, H5P_DEFAULT),
                                    "create /values");

    const hsize_t local_count = local_values.size();
    Handle memory_space = dataspace_handle(H5Screate_simple(1, &local_count, nullptr), "create memory space");
    if (slice.block_count == 0) {
        check_hdf5(H5Sselect_none(file_space), "select nothing");
        check_hdf5(H5Sselect_none(memory_space), "select nothing");
    } else {
        // One rank owns one contiguous range: select it as one block, which
        // MPI-IO writes in a few large pieces instead of block by block.
        const bool contiguous = slice.block_stride == 1;
        const hsize_t start = slice.first_block * slice.block_size;
        const hsize_t stride = contiguous ? slice.block_count * slice.block_size : slice.block_stride * slice.block_size;
        const hsize_t count = contiguous ? 1 : slice.block_count;
        const hsize_t block = contiguous ? slice.block_count * slice.block_size : slice.block_size;
        check_hdf5(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, &stride, &count, &block),
                   "select this rank's blocks");
    }
    Handle transfer = property_handle(H5Pcreate(H5P_DATASET_XFER), "create transfer list");
    check_hdf5(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE), "select collective I/O");
    check_hdf5(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, transfer, local_values.data()),
               "write /values");
    dataset.close("close /values");
    file.close("close " + path);
}

}  // namespace

std::uint64_t create_round_table(const std::string& path, const TableInfo& info, const RoundLayout& layout) {
    silence_hdf5_error_printing();
    // No object times: the same table is the same bytes, whenever and on
    // however many ranks it is made.
    Handle file_create = property_handle(H5Pcreate(H5P_FILE_CREATE), "create file property list");
    check_hdf5(H5Pset_obj_track_times(file_create, false), "untrack times");
    Handle file = file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_create, H5P_DEFAULT), "create " + path);
    write_table_info(file, info);
    const hsize_t rounds = layout.offsets().size();
    Handle offsets_space = dataspace_handle(H5Screate_simple(1, &rounds, nullptr), "create round offsets space");
    Handle offsets_create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_obj_track_times(offsets_create, false), "untrack times");
    Handle offsets = dataset_handle(H5Dcreate2(file, RoundOffsetsDataset, H5T_STD_U64LE, offsets_space, H5P_DEFAULT,
                                               offsets_create, H5P_DEFAULT),
                                    "create /round_offsets");
    check_hdf5(H5Dwrite(offsets, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, layout.offsets().data()),
               "write /round_offsets");
    // The values' extent is allocated now, contiguous and unfilled: the
    // ranks write into it directly.
    const hsize_t stored = std::max<hsize_t>(layout.stored_states(), 1);
    Handle space = dataspace_handle(H5Screate_simple(1, &stored, nullptr), "create values space");
    Handle create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_layout(create, H5D_CONTIGUOUS), "set contiguous layout");
    check_hdf5(H5Pset_obj_track_times(create, false), "untrack times");
    check_hdf5(H5Pset_alloc_time(create, H5D_ALLOC_TIME_EARLY), "allocate early");
    check_hdf5(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "disable fill values");
    const hid_t type = info.precision == Precision::Float64 ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
    Handle values = dataset_handle(H5Dcreate2(file, ValuesDataset, type, space, H5P_DEFAULT, create, H5P_DEFAULT),
                                   "create /values");
    const haddr_t offset = H5Dget_offset(values);
    if (offset == HADDR_UNDEF)
        throw Hdf5Error("/values of " + path + " has no place in the file");
    values.close("close /values");
    offsets.close("close /round_offsets");
    file.close("close " + path);
    return offset;
}

void finish_round_table(const std::string& path, const TableInfo& info) {
    silence_hdf5_error_printing();
    Handle file = file_handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "reopen " + path);
    Handle attribute = attribute_handle(H5Aopen(file, "connections", H5P_DEFAULT), "open attribute 'connections'");
    check_hdf5(H5Awrite(attribute, H5T_NATIVE_UINT64, &info.connections), "write attribute 'connections'");
    attribute.close("close attribute 'connections'");
    file.close("close " + path);
}

std::string temporary_name_for(const std::string& path, long process_id) {
    const std::filesystem::path target(path);
    const std::string name = "." + target.filename().string() + ".partial-" + std::to_string(process_id);
    return (target.parent_path() / name).string();
}

void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice) {
    silence_hdf5_error_printing();
    // Rank 0 names the temporary file; every rank must open the same name.
    std::string temporary = comm.is_root() ? temporary_name_for(path, getpid()) : std::string();
    comm.broadcast(temporary);

    std::string error;
    try {
        write_file(comm.get(), temporary, info, local_values, slice);
    } catch (const std::exception& failure) {
        error = failure.what();
    }
    bool ok = comm.all_agree(error.empty());
    if (ok && comm.is_root() && std::rename(temporary.c_str(), path.c_str()) != 0)
        error = "cannot rename " + temporary + " to " + path;
    ok = comm.all_agree(error.empty());
    if (!ok) {
        if (comm.is_root())
            std::remove(temporary.c_str());
        throw Hdf5Error(error.empty() ? "writing " + path + " failed on another rank" : error);
    }
}

}  // namespace stack
