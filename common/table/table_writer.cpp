#include "table/table_writer.h"

#include "support/errors.h"
#include "table/hdf5_handle.h"
#include "table/table_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stack {

namespace {

// The collective part of write_table, on the temporary file.
void write_file(MPI_Comm comm, const std::string& path, const TableInfo& info, std::span<const double> local_values,
                const BlockCyclicSlice& slice) {
    Handle access = property_handle(H5Pcreate(H5P_FILE_ACCESS), "create file access list");
    check_hdf5(H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL), "select MPI-IO driver");
    Handle file = file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), "create " + path);
    write_table_info(file, info);

    Handle create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "disable fill values");
    Handle dataset = create_vector(file, ValuesDataset, H5T_IEEE_F64LE, info.states, create);
    Handle file_space = dataspace_handle(H5Dget_space(dataset), "read the shape of /values");

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
        const hsize_t stride =
            contiguous ? slice.block_count * slice.block_size : slice.block_stride * slice.block_size;
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

RoundTableFile RoundTableFile::create(const std::string& path, const TableInfo& info, const RoundLayout& layout) {
    silence_hdf5_error_printing();
    // No object times: the same table is the same bytes, whenever and on
    // however many ranks it is made.
    Handle file_create = property_handle(H5Pcreate(H5P_FILE_CREATE), "create file property list");
    check_hdf5(H5Pset_obj_track_times(file_create, false), "untrack times");
    Handle access = property_handle(H5Pcreate(H5P_FILE_ACCESS), "create file access list");
    check_hdf5(H5Pset_file_locking(access, false, true), "turn HDF5's file locking off");
    RoundTableFile table(path,
                         file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_create, access), "create " + path));
    const hid_t file = table.file_;
    write_table_info(file, info);
    Handle offsets_create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_obj_track_times(offsets_create, false), "untrack times");
    Handle offsets = create_vector(file, RoundOffsetsDataset, H5T_STD_U64LE, layout.offsets().size(), offsets_create);
    check_hdf5(H5Dwrite(offsets, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, layout.offsets().data()),
               "write /round_offsets");
    // The values' extent is allocated now, contiguous and unfilled: the
    // ranks write into it directly. The checksums likewise.
    Handle create = property_handle(H5Pcreate(H5P_DATASET_CREATE), "create dataset property list");
    check_hdf5(H5Pset_layout(create, H5D_CONTIGUOUS), "set contiguous layout");
    check_hdf5(H5Pset_obj_track_times(create, false), "untrack times");
    check_hdf5(H5Pset_alloc_time(create, H5D_ALLOC_TIME_EARLY), "allocate early");
    check_hdf5(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "disable fill values");
    const hid_t type = info.precision == Precision::Float64 ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
    Handle values = create_vector(file, ValuesDataset, type, std::max<hsize_t>(layout.stored_states(), 1), create);
    const haddr_t offset = H5Dget_offset(values);
    if (offset == HADDR_UNDEF)
        throw Hdf5Error("/values of " + path + " has no place in the file");
    values.close("close /values");
    create_vector(file, ChecksumsDataset, H5T_STD_U32LE, std::max<hsize_t>(layout.checksum_blocks(), 1), create)
        .close("close /checksums");
    offsets.close("close /round_offsets");
    check_hdf5(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + path);
    table.info_ = info;
    table.data_offset_ = offset;
    return table;
}

RoundTableFile RoundTableFile::reopen(const std::string& path) {
    std::uint64_t file_bytes = 0;
    RoundTableFile table(path, open_table_file(path, FileAccess::ReadWrite, &file_bytes));
    table.info_ = read_table_info(table.file_, path);
    const TableInfo& info = table.info_;
    if (info.format_version != TableFormatVersion && info.format_version != ClearsFormatVersion)
        throw InputError("'" + path + "' is not a table this stackgen can go on writing (format version "
                         + std::to_string(info.format_version) + ", this stackgen writes "
                         + std::to_string(TableFormatVersion) + ")");
    check_stored_size(info, path, file_bytes);
    const RoundLayout layout(Geometry(info.width, info.height), info.residues, info.mirrored);
    if (info.stored_states != layout.stored_states())
        throw InputError("'" + path + "': its stored_states attribute (" + std::to_string(info.stored_states)
                         + ") disagrees with its width, height and residue classes");
    check_round_offsets(table.file_, path, layout);
    Handle values = open_vector(table.file_, path, ValuesDataset, std::max<std::uint64_t>(info.stored_states, 1),
                                H5T_FLOAT, value_bytes(info.precision), precision_name(info.precision));
    check_values_storage(values, path, info.stored_states, value_bytes(info.precision), file_bytes);
    const haddr_t offset = H5Dget_offset(values);
    if (offset == HADDR_UNDEF)
        throw InputError("'" + path + "': /values has no place in the file");
    table.data_offset_ = offset;
    table.checksums_ = read_checksums(table.file_, path, layout);
    return table;
}

void RoundTableFile::record(const TableInfo& progress, const std::vector<std::uint32_t>& checksums,
                            std::uint64_t first_block, std::uint64_t last_block) {
    const hid_t file = file_;
    const auto rewrite = [&](const char* name, hid_t type, const void* value) {
        Handle attribute = attribute_handle(H5Aopen(file, name, H5P_DEFAULT), std::string("open attribute ") + name);
        check_hdf5(H5Awrite(attribute, type, value), std::string("write attribute ") + name);
    };
    rewrite("rounds_done", H5T_NATIVE_INT64, &progress.rounds_done);
    const std::vector<std::int64_t> done(progress.connections_done.begin(), progress.connections_done.end());
    rewrite("connections_done", H5T_NATIVE_INT64, done.data());
    rewrite("connections", H5T_NATIVE_UINT64, &progress.connections);
    if (progress.format_version >= ClearsFormatVersion)
        write_sweep_attributes(file, progress, false);
    if (first_block < last_block) {
        Handle dataset = dataset_handle(H5Dopen2(file, ChecksumsDataset, H5P_DEFAULT), "open /checksums");
        Handle space = dataspace_handle(H5Dget_space(dataset), "read the shape of /checksums");
        const hsize_t start = first_block, count = last_block - first_block;
        check_hdf5(H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &count, nullptr), "select checksums");
        Handle memory = dataspace_handle(H5Screate_simple(1, &count, nullptr), "create memory space");
        check_hdf5(H5Dwrite(dataset, H5T_NATIVE_UINT32, memory, space, H5P_DEFAULT, checksums.data() + first_block),
                   "write /checksums");
    }
    check_hdf5(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + path_);
    const int descriptor = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0 || ::fsync(descriptor) != 0) {
        const std::string reason = std::strerror(errno);
        if (descriptor >= 0)
            ::close(descriptor);
        throw Hdf5Error("cannot flush " + path_ + " to the device: " + reason);
    }
    ::close(descriptor);
    info_.rounds_done = progress.rounds_done;
}

void RoundTableFile::record_digest(std::uint64_t digest) {
    if (!has_attribute(file_, DigestAttribute)) {  // a partial table made before the digest
        write_attribute(file_, DigestAttribute, digest);
    } else {
        Handle attribute = attribute_handle(H5Aopen(file_, DigestAttribute, H5P_DEFAULT),
                                            std::string("open attribute ") + DigestAttribute);
        check_hdf5(H5Awrite(attribute, H5T_NATIVE_UINT64, &digest), std::string("write attribute ") + DigestAttribute);
    }
    info_.digest = digest;
}

void RoundTableFile::close() { file_.close("close " + path_); }

namespace {

// ".<name>.partial-<pid>" beside `path`: a version-1 table being written.
std::string temporary_name_for(const std::string& path, long process_id) {
    const std::filesystem::path target(path);
    const std::string name = "." + target.filename().string() + ".partial-" + std::to_string(process_id);
    return (target.parent_path() / name).string();
}

}  // namespace

void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice) {
    silence_hdf5_error_printing();
    // Rank 0 names the temporary file; every rank must open the same name.
    std::string temporary = comm.is_root() ? temporary_name_for(path, getpid()) : std::string();
    comm.broadcast(temporary);
    try {
        comm.on_every_rank([&] { write_file(comm.get(), temporary, info, local_values, slice); });
        comm.on_root([&] {
            if (std::rename(temporary.c_str(), path.c_str()) != 0)
                throw Hdf5Error("cannot rename " + temporary + " to " + path + ": " + std::strerror(errno));
        });
    } catch (...) {
        if (comm.is_root())
            std::remove(temporary.c_str());
        throw;
    }
}

}  // namespace stack
