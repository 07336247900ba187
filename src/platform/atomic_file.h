// Writing a file whole or not at all, inside a directory already open: a
// temporary file of its own (created exclusively, never through a link),
// flushed, renamed over the final name. Readers see no file or a complete
// one; writers of the same name each replace it whole. Working relative to
// the directory's descriptor keeps a directory swapped in under the path
// from receiving the file. POSIX here; a Windows branch goes beside it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace dc::platform {

// Writes `name` in the directory `dir_fd` with permissions `mode` (before the
// umask); `temp_name` is the temporary file's name (unique to the writer).
// fsyncs the file and the directory when `durable`. False on any failure,
// leaving nothing behind.
bool write_file_atomically(int dir_fd, const std::string& name, const std::string& temp_name, const void* data,
                           size_t size, bool durable, mode_t mode) noexcept;

}  // namespace dc::platform
