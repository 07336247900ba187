// The in-process kernel cache: compiled outputs by key, least recently used
// evicted first once the size limit is reached. Thread-safe.
#pragma once

#include <cstddef>
#include <memory>

#include "compile/program.h"
#include "compile/sha256.h"

namespace dc {

// The limit of the in-process cache: the disk cache's limit, at most 256 MiB
// (it only holds what this process compiled or loaded).
size_t memory_cache_limit();

std::shared_ptr<const CompiledOutput> memory_cache_find(const Digest& key);
void memory_cache_insert(const Digest& key, std::shared_ptr<const CompiledOutput> output);
void memory_cache_clear();

// Entries and bytes held now (for tests and diagnostics).
size_t memory_cache_entries();

// The cache's size limit in bytes (config().cache_max_bytes, else 1 GiB).
uint64_t cache_max_bytes();

}  // namespace dc
