// The kernel cache's directory: which one the settings choose, whether it may
// be trusted, and opening it for one operation.
//
// Trust model: whoever can write the cache chooses the code dc_compile
// returns (a cache hit is loaded and run as it is). So a private cache (the
// default) is used only if its directory is owned by this process's
// effective user and neither its group nor others may write it; dccuda makes
// the directories it creates 0700 and its files 0600. Any other directory is
// refused: the disk cache is off, and dc_config_warnings (dccuda-info) says
// why. A deliberately shared cache names a key file (DCCUDA_CACHE_KEY_FILE,
// a file of the user's, mode 0600): its directory may then belong to anyone
// and be writable by its group (not by others), and every entry is
// authenticated with HMAC-SHA256 under that key (cache_entry.h), so only
// holders of the key can add entries anyone will use.
//
// Every cache file is reached relative to the directory opened for the
// operation (openat, renameat, unlinkat), and the open directory is checked
// again each time (fstat): one swapped in under the path is refused too.
#pragma once

#include <sys/types.h>

#include <string>

#include "platform/regular_file.h"

namespace dc {

// The directory in use, "" when the disk cache is disabled or the directory
// was refused. Fixed at first use: DC_INIT_NO_DISK_CACHE /
// DCCUDA_CACHE_DISABLE disable it; else dc_init's cache_dir,
// $DCCUDA_CACHE_DIR, $XDG_CACHE_HOME/dccuda, ~/.cache/dccuda (created, 0700,
// if missing).
const std::string& disk_cache_directory();

// Why the configured directory (or key file) is not used, "" if nothing was
// refused. One sentence, for dc_config_warnings.
const std::string& disk_cache_warning();

// The shared cache's key (the entries' MAC key), "" for a private cache.
const std::string& disk_cache_mac_key();

// The mode of the files dccuda writes there: 0600, or 0640 in a shared cache
// (its group reads them).
mode_t disk_cache_file_mode();

// Whether a file of the directory (its fstat) may be read as an entry: in a
// private cache, one the user owns that others may not write.
bool disk_cache_file_trusted(const struct stat& st);

// Opens the directory for one operation (creating it, 0700, when `create`
// and it is missing) and checks it again. An invalid descriptor when the
// disk cache is off, the directory cannot be opened or no longer passes.
platform::UniqueFd open_cache_directory(bool create);

}  // namespace dc
