// The on-disk form of one kernel cache entry. Every file starts with a header
// (magic, format version, the key it was stored under, the payload's size and
// SHA-256), so that a truncated, corrupt or foreign file is recognised and
// never loaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compile/program.h"
#include "compile/sha256.h"

namespace dc {

constexpr char kCacheEntryMagic[8] = {'D', 'C', 'C', 'U', 'D', 'A', 'K', 'C'};
constexpr uint32_t kCacheEntryFormat = 1;
constexpr size_t kCacheEntryHeaderSize = 96;

std::vector<uint8_t> encode_cache_entry(const Digest& key, const CompiledOutput& output);

// Whether a file of `file_size` bytes starting with `header` (its first
// kCacheEntryHeaderSize bytes) can be the entry stored under `key`, judged
// before the payload is read: magic, format, the key, and a payload size
// equal to what follows the header and at most `max_payload` (the cache's
// limit). A huge or truncated file is refused here, unread.
bool cache_entry_header_fits(const uint8_t* header, uint64_t file_size, const Digest& key, uint64_t max_payload,
                             std::string* why);

// The entry's output, or nullptr (with `why` saying what was wrong) if the
// bytes are not a complete, intact entry stored under `key`.
std::shared_ptr<const CompiledOutput> decode_cache_entry(const uint8_t* data, size_t size, const Digest& key,
                                                         std::string* why);

}  // namespace dc
