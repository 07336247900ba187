// The kernel cache's directory: which one the settings choose, and opening
// it for one operation. Every cache file is then reached relative to the
// open directory (openat, renameat, unlinkat), never by a path that could be
// swapped under the operation.
#pragma once

#include <string>

#include "platform/regular_file.h"

namespace dc {

// The directory in use, "" when the disk cache is disabled. Fixed at first
// use: DC_INIT_NO_DISK_CACHE / DCCUDA_CACHE_DISABLE disable it; else
// dc_init's cache_dir, $DCCUDA_CACHE_DIR, $XDG_CACHE_HOME/dccuda, ~/.cache/dccuda.
const std::string& disk_cache_directory();

// Opens the directory for one operation (creating it, private to the user,
// when `create` and it is missing). An invalid descriptor when it cannot be
// opened or the disk cache is disabled.
platform::UniqueFd open_cache_directory(bool create);

}  // namespace dc
