// libhdf5 1.10 trusts the metadata it parses: tests/fuzz/fuzz_table found
// damaged files on which it loops forever (in the global heap, reading a
// string attribute), reads freed memory, or corrupts its heap, before any
// check of ours can run. So a table is first opened in a child process: it
// reads every attribute, the shapes, the round offsets, the checksums and
// the first and last value, lazily, then closes everything and frees
// libhdf5's memory (where glibc's heap checks catch most corruption), and
// reports through a pipe. A file the child refused is refused in the
// parent with the child's message, without touching it; a child that hung
// (past metadata_seconds()) or crashed means a damaged file. Only a file the
// child read cleanly is opened in the parent.
#pragma once

#include <string>

namespace stack {

// Throws InputError when the child refuses the file, hangs or crashes.
// `read` is what the child does with the file (it throws InputError to
// refuse it).
void check_metadata_in_child(const std::string& path, void (*read)(const std::string& path));

// The child's time limit: 20 s, or STACK_METADATA_SECONDS (the fuzzer
// uses 2).
int metadata_seconds();

}  // namespace stack
