// dc_module_load_file's reading of the image: the file is opened without
// blocking (platform/regular_file.h), and only a regular, non-empty file of
// at most 2 GiB is read, whole.
#pragma once

#include <cstdint>
#include <vector>

namespace dc {

// The bytes of the module file at `path`. Fails with DC_ERROR_NOT_FOUND (no
// such file), DC_ERROR_IO (a directory, not a regular file, unreadable) or
// DC_ERROR_INVALID_IMAGE (empty, or too large for any module image), naming
// the path.
std::vector<uint8_t> read_module_file(const char* path);

}  // namespace dc
