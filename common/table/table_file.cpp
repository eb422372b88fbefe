#include "table/table_file.h"

#include "support/cli.h"
#include "support/errors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace stack {

namespace {

std::string range_text(std::uint64_t first, std::uint64_t count) {
    return std::to_string(first) + ".." + std::to_string(first + count - 1);
}

}  // namespace

std::uint64_t regular_file_size(const std::string& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0)
        throw InputError("cannot read table '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(status.st_mode))
        throw InputError("table '" + path + "' is " + file_kind(status.st_mode) + ", not a regular file");
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor < 0)
        throw InputError("cannot read table '" + path + "': " + std::strerror(errno));
    ::close(descriptor);
    return std::uint64_t(status.st_size);
}

Handle open_table_file(const std::string& path, FileAccess access, std::uint64_t* file_bytes) {
    silence_hdf5_error_printing();
    const std::uint64_t size = regular_file_size(path);
    if (file_bytes)
        *file_bytes = size;
    if (H5Fis_hdf5(path.c_str()) <= 0)
        throw InputError("'" + path + "' is not an HDF5 file");
    try {
        Handle list = property_handle(H5Pcreate(H5P_FILE_ACCESS), "create file access list");
        if (access == FileAccess::ReadWrite)
            check_hdf5(H5Pset_file_locking(list, false, true), "turn HDF5's file locking off");
        const unsigned flags = access == FileAccess::ReadWrite ? H5F_ACC_RDWR : H5F_ACC_RDONLY;
        return file_handle(H5Fopen(path.c_str(), flags, list), "open " + path);
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' cannot be opened as HDF5: " + failure.what());
    }
}

Handle open_vector(hid_t file, const std::string& path, const char* name, std::uint64_t length, H5T_class_t type_class,
                   std::size_t type_size, const std::string& what) {
    const std::string label = std::string("/") + name;
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
        throw InputError("'" + path + "' is not a stacking table: dataset " + label + " is missing");
    try {
        Handle dataset = dataset_handle(H5Dopen2(file, name, H5P_DEFAULT), "open " + label);
        Handle type = datatype_handle(H5Dget_type(dataset), "read the type of " + label);
        if (H5Tget_class(type) != type_class || H5Tget_size(type) != type_size)
            throw InputError("'" + path + "': " + label + " does not hold " + what + " values");
        Handle space = dataspace_handle(H5Dget_space(dataset), "read the shape of " + label);
        hsize_t found = 0;
        if (H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &found, nullptr) != 1
            || found != length)
            throw InputError("'" + path + "': " + label + " does not hold " + with_commas(length)
                             + " values in one dimension");
        return dataset;
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

void read_range(hid_t dataset, const std::string& path, hid_t memory_type, std::uint64_t first, std::uint64_t count,
                void* out) {
    try {
        Handle file_space = dataspace_handle(H5Dget_space(dataset), "read the shape");
        const hsize_t start = first, length = count;
        check_hdf5(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &length, nullptr), "select");
        Handle memory_space = dataspace_handle(H5Screate_simple(1, &length, nullptr), "create memory space");
        check_hdf5(H5Dread(dataset, memory_type, memory_space, file_space, H5P_DEFAULT, out), "read");
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

void check_stored_size(const TableInfo& info, const std::string& path, std::uint64_t file_bytes) {
    const unsigned __int128 bytes = (unsigned __int128)info.stored_states * value_bytes(info.precision);
    if (bytes > file_bytes)
        throw InputError("'" + path + "' is damaged: it claims " + with_commas(info.stored_states) + " values ("
                         + human_bytes(double(bytes)) + ") but the file holds only " + with_commas(file_bytes)
                         + " bytes");
    if (info.format_version >= 2) {
        const std::uint64_t fewest =
            RoundLayout::fewest_stored_states(Geometry(info.width, info.height), info.residues, info.mirrored);
        if (info.stored_states < fewest)
            throw InputError("'" + path + "': its stored_states attribute (" + std::to_string(info.stored_states)
                             + ") is fewer than its width, height and residue classes give (at least "
                             + std::to_string(fewest) + ")");
    }
}

// The dataset's bytes must all be in the file: its layout tells where.
void check_values_storage(hid_t values, const std::string& path, std::uint64_t count, std::size_t value_size,
                          std::uint64_t file_bytes) {
    const unsigned __int128 needed = (unsigned __int128)count * value_size;
    try {
        Handle create = property_handle(H5Dget_create_plist(values), "read the storage of /values");
        const H5D_layout_t layout = H5Pget_layout(create);
        const int filters = H5Pget_nfilters(create);
        const hsize_t stored = H5Dget_storage_size(values);
        if (layout == H5D_CONTIGUOUS) {
            const haddr_t offset = H5Dget_offset(values);
            if (count > 0 && (offset == HADDR_UNDEF || (unsigned __int128)offset + needed > file_bytes))
                throw InputError("'" + path + "' is damaged: /values claims " + with_commas(std::uint64_t(needed))
                                 + " bytes but the file ends at byte " + with_commas(file_bytes) + " (truncated?)");
        } else if (layout == H5D_CHUNKED && filters == 0) {
            if (stored < needed || stored > file_bytes)
                throw InputError("'" + path + "' is damaged: /values stores " + with_commas(stored) + " of its "
                                 + with_commas(std::uint64_t(needed)) + " bytes");
        } else if (layout == H5D_CHUNKED) {
            // Compressed: every chunk must be there (an unallocated chunk
            // would read as zeros), and the file must hold them.
            hsize_t chunk = 0, chunks = 0;
            if (H5Pget_chunk(create, 1, &chunk) != 1 || chunk == 0)
                throw InputError("'" + path + "' is damaged: /values has no chunk size");
            check_hdf5(H5Dget_num_chunks(values, H5S_ALL, &chunks), "count the chunks of /values");
            const std::uint64_t expected = (count + chunk - 1) / chunk;
            if (chunks != expected || stored > file_bytes)
                throw InputError("'" + path + "' is damaged: /values stores " + with_commas(chunks) + " of its "
                                 + with_commas(expected) + " chunks");
        } else if (layout == H5D_COMPACT) {
            if (stored < needed)
                throw InputError("'" + path + "' is damaged: /values stores " + with_commas(stored) + " of its "
                                 + with_commas(std::uint64_t(needed)) + " bytes");
        } else {
            throw InputError("'" + path + "': /values is not stored in this file (a virtual or external dataset)");
        }
    } catch (const Hdf5Error& failure) {
        throw InputError("'" + path + "' is damaged: " + failure.what());
    }
}

void check_round_offsets(hid_t file, const std::string& path, const RoundLayout& layout) {
    Handle dataset = open_vector(file, path, RoundOffsetsDataset, layout.offsets().size(), H5T_INTEGER, 8, "uint64");
    std::vector<std::uint64_t> offsets(layout.offsets().size());
    read_range(dataset, path, H5T_NATIVE_UINT64, 0, offsets.size(), offsets.data());
    if (offsets != layout.offsets())
        throw InputError("'" + path + "': /round_offsets disagrees with its width, height and residue classes");
}

std::vector<std::uint32_t> read_checksums(hid_t file, const std::string& path, const RoundLayout& layout) {
    Handle dataset = open_vector(file, path, ChecksumsDataset, layout.checksum_blocks(), H5T_INTEGER, 4, "uint32");
    std::vector<std::uint32_t> checksums(layout.checksum_blocks());
    if (!checksums.empty())
        read_range(dataset, path, H5T_NATIVE_UINT32, 0, checksums.size(), checksums.data());
    return checksums;
}

std::string damaged_block(const std::string& path, const RoundLayout& layout, std::uint64_t index) {
    const RoundLayout::Block block = layout.block(index);
    return "'" + path + "' is damaged: values " + range_text(block.first, block.count) + " (block "
           + std::to_string(index) + ") do not match their checksum";
}

void bad_value(const TableInfo& info, const std::string& path, BoardId id, double value) {
    const Geometry geometry(info.width, info.height);
    const double largest = largest_possible_value(info);
    throw InputError("'" + path + "': the value of board " + geometry.format_heights(geometry.decode(id)) + " (id "
                     + std::to_string(id) + ") is " + std::to_string(value) + ", not a number of pieces in [0, "
                     + fixed(largest, 0) + "]");
}

}  // namespace stack
