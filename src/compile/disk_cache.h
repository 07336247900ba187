// The on-disk kernel cache: one file per entry, `<dir>/<sha256>.dcc`.
//
// Writes are atomic: the entry is written to a temporary file of its own,
// flushed with fsync and renamed over the final name, so a reader sees either
// no file or a complete one, and processes writing the same entry at once
// each replace it whole. Every file carries a header with a checksum
// (cache_entry.h): a truncated, corrupt or foreign file is ignored and
// replaced by the next store. The total size is kept under the limit by
// deleting the least recently used entries (a hit refreshes the file's
// modification time). Failures to write never fail a compile.
#pragma once

#include <memory>
#include <string>

#include "compile/cache_key.h"
#include "compile/program.h"

namespace dc {

// The directory in use, "" when the disk cache is disabled. Fixed at first
// use: DC_INIT_NO_DISK_CACHE / DCCUDA_CACHE_DISABLE disable it; else
// dc_init's cache_dir, $DCCUDA_CACHE_DIR, $XDG_CACHE_HOME/dccuda, ~/.cache/dccuda.
const std::string& disk_cache_directory();

// The cached output for `key`, or nullptr on a miss or a bad file.
std::shared_ptr<const CompiledOutput> disk_cache_load(const CacheKey& key);

// Stores `output` under `key`; silently does nothing if it cannot.
void disk_cache_store(const CacheKey& key, const CompiledOutput& output);

// Deletes every entry (and left-over temporary file). Fails with DC_ERROR_IO.
void disk_cache_clear();

// Writes `path` whole or not at all: a temporary file of its own, flushed
// (fsync when `durable`), renamed over `path`. Creates the directory. Returns
// false on any failure (and leaves nothing behind).
bool write_file_atomically(const std::string& path, const void* data, size_t size, bool durable);

}  // namespace dc
