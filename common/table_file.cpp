#include "table_file.h"

#include "errors.h"
#include "hdf5_handle.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <limits>

namespace stack {

// /values is stored as IEEE-754 binary64 little-endian and written straight
// from memory as H5T_NATIVE_DOUBLE.
static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559, "values are IEEE-754 binary64");
static_assert(sizeof(BoardId) == 8, "board ids index /values with 64-bit offsets");

namespace {

void write_attribute(hid_t location, const char* name, hid_t memory_type, hid_t file_type, const void* value) {
    Handle space = dataspace_handle(H5Screate(H5S_SCALAR), "create attribute space");
    Handle attribute = attribute_handle(H5Acreate2(location, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT),
                                        std::string("create attribute ") + name);
    check_hdf5(H5Awrite(attribute, memory_type, value), std::string("write attribute ") + name);
}

void write_integer(hid_t location, const char* name, std::int64_t value) {
    write_attribute(location, name, H5T_NATIVE_INT64, H5T_STD_I64LE, &value);
}

void write_unsigned(hid_t location, const char* name, std::uint64_t value) {
    write_attribute(location, name, H5T_NATIVE_UINT64, H5T_STD_U64LE, &value);
}

Handle string_type() {
    Handle type = datatype_handle(H5Tcopy(H5T_C_S1), "copy string type");
    check_hdf5(H5Tset_size(type, H5T_VARIABLE), "set string size");
    check_hdf5(H5Tset_cset(type, H5T_CSET_UTF8), "set string charset");
    return type;
}

void write_string(hid_t location, const char* name, const std::string& value) {
    Handle type = string_type();
    const char* text = value.c_str();
    write_attribute(location, name, type, type, &text);
}

void write_info(hid_t file, const TableInfo& info) {
    write_integer(file, "width", info.width);
    write_integer(file, "height", info.height);
    write_integer(file, "format_version", info.format_version);
    write_string(file, "schedule", info.schedule);
    write_unsigned(file, "states", info.states);
    write_unsigned(file, "connections", info.connections);
    write_string(file, "pieces", info.pieces);
    write_string(file, "generator", info.generator);
}

// The collective part of write_table, on the temporary file.
void write_file(MPI_Comm comm, const std::string& path, const TableInfo& info,
                std::span<const double> local_values, const BlockCyclicSlice& slice, bool& created) {
    Handle access = property_handle(H5Pcreate(H5P_FILE_ACCESS), "create file access list");
    check_hdf5(H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL), "select MPI-IO driver");
    Handle file = file_handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access),
                              "create " + path);
    created = true;
    write_info(file, info);

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

std::string temporary_name_for(const std::string& path) {
    const std::filesystem::path target(path);
    const std::string name = "." + target.filename().string() + ".partial-" + std::to_string(getpid());
    return (target.parent_path() / name).string();
}

}  // namespace

void write_table(const Communicator& comm, const std::string& path, const TableInfo& info,
                 std::span<const double> local_values, const BlockCyclicSlice& slice) {
    silence_hdf5_error_printing();
    // Rank 0 names the temporary file; every rank must open the same name.
    std::string temporary = comm.is_root() ? temporary_name_for(path) : std::string();
    unsigned long length = temporary.size();
    check_mpi(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, 0, comm.get()), "MPI_Bcast");
    temporary.resize(length);
    check_mpi(MPI_Bcast(temporary.data(), static_cast<int>(length), MPI_CHAR, 0, comm.get()), "MPI_Bcast");

    std::string error;
    bool created = false;
    try {
        write_file(comm.get(), temporary, info, local_values, slice, created);
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

namespace {

Handle open_table(const std::string& path) {
    silence_hdf5_error_printing();
    if (!std::filesystem::exists(path))
        throw InputError("table '" + path + "' does not exist");
    if (H5Fis_hdf5(path.c_str()) <= 0)
        throw InputError("'" + path + "' is not an HDF5 file");
    try {
        return file_handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + path);
    } catch (const Hdf5Error& error) {
        throw InputError(error.what());
    }
}

Handle open_attribute(hid_t file, const std::string& path, const char* name) {
    if (H5Aexists(file, name) <= 0)
        throw InputError("'" + path + "' is not a stacking table: attribute '" + name + "' is missing");
    return attribute_handle(H5Aopen(file, name, H5P_DEFAULT), std::string("open attribute ") + name);
}

std::int64_t read_integer(hid_t file, const std::string& path, const char* name) {
    Handle attribute = open_attribute(file, path, name);
    std::int64_t value = 0;
    check_hdf5(H5Aread(attribute, H5T_NATIVE_INT64, &value), std::string("read attribute ") + name);
    return value;
}

std::uint64_t read_unsigned(hid_t file, const std::string& path, const char* name) {
    Handle attribute = open_attribute(file, path, name);
    std::uint64_t value = 0;
    check_hdf5(H5Aread(attribute, H5T_NATIVE_UINT64, &value), std::string("read attribute ") + name);
    return value;
}

std::string read_string(hid_t file, const std::string& path, const char* name) {
    Handle attribute = open_attribute(file, path, name);
    Handle type = string_type();
    char* text = nullptr;
    check_hdf5(H5Aread(attribute, type, &text), std::string("read attribute ") + name);
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
}

TableInfo read_info(hid_t file, const std::string& path) {
    TableInfo info;
    info.format_version = read_integer(file, path, "format_version");
    if (info.format_version != TableFormatVersion)
        throw InputError("'" + path + "' has table format version " + std::to_string(info.format_version)
                         + ", this build reads version " + std::to_string(TableFormatVersion));
    const std::int64_t width = read_integer(file, path, "width");
    const std::int64_t height = read_integer(file, path, "height");
    if (width < 1 || width > MaxWidth || height < 1 || checked_state_count(int(width), int(height)) == 0)
        throw InputError("'" + path + "' has an invalid shape " + std::to_string(width) + "x"
                         + std::to_string(height));
    info.width = static_cast<int>(width);
    info.height = static_cast<int>(height);
    info.schedule = read_string(file, path, "schedule");
    info.states = read_unsigned(file, path, "states");
    info.connections = read_unsigned(file, path, "connections");
    info.pieces = read_string(file, path, "pieces");
    info.generator = read_string(file, path, "generator");
    if (info.states != checked_state_count(info.width, info.height))
        throw InputError("'" + path + "': states attribute does not match its width and height");
    return info;
}

}  // namespace

TableInfo read_table_info(const std::string& path) {
    Handle file = open_table(path);
    return read_info(file, path);
}

Table read_table(const std::string& path) {
    Handle file = open_table(path);
    Table table;
    table.info = read_info(file, path);
    if (H5Lexists(file, ValuesDataset, H5P_DEFAULT) <= 0)
        throw InputError("'" + path + "' is not a stacking table: dataset /values is missing");
    Handle dataset = dataset_handle(H5Dopen2(file, ValuesDataset, H5P_DEFAULT), "open /values");
    Handle space = dataspace_handle(H5Dget_space(dataset), "get /values space");
    hsize_t length = 0;
    if (H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &length, nullptr) != 1
        || length != table.info.states)
        throw InputError("'" + path + "': /values does not hold (H+1)^W = " + std::to_string(table.info.states)
                         + " values");
    table.values.resize(length);
    check_hdf5(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, table.values.data()),
               "read /values");
    return table;
}

}  // namespace stack
