// The on-disk form of one kernel cache entry. Every file starts with a header
// (magic, format version, the key it was stored under, the payload's size and
// a check of it), so that a truncated, corrupt or foreign file is recognised
// and never loaded.
//
// A private cache (format 1) checks the payload with its SHA-256: nothing
// secret, so it holds only against accidents; the cache directory's owner
// check (cache_directory.h) is what keeps others out. A shared cache
// (format 2, DCCUDA_CACHE_KEY_FILE) authenticates the whole entry, header and
// payload, with HMAC-SHA256 under a key only its users hold: whoever can
// write the directory without the key cannot plant or change an entry, nor
// move one to another key (the key is inside the MAC, and a renamed file's
// name no longer matches it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compile/program.h"
#include "compile/sha256.h"

namespace dc {

constexpr char kCacheEntryMagic[8] = {'D', 'C', 'C', 'U', 'D', 'A', 'K', 'C'};
constexpr uint32_t kCacheEntryFormat = 1;              // SHA-256 of the payload
constexpr uint32_t kCacheEntryAuthenticatedFormat = 2; // HMAC-SHA256 of header and payload
constexpr size_t kCacheEntryHeaderSize = 96;

// `mac_key` empty: a private entry (format 1); else authenticated under it (format 2).
std::vector<uint8_t> encode_cache_entry(const Digest& key, const CompiledOutput& output,
                                        std::string_view mac_key = {});

// Whether a file of `file_size` bytes starting with `header` (its first
// kCacheEntryHeaderSize bytes) can be the entry stored under `key`, judged
// before the payload is read: magic, format, the key, and a payload size
// equal to what follows the header and at most `max_payload` (the cache's
// limit). A huge or truncated file is refused here, unread.
bool cache_entry_header_fits(const uint8_t* header, uint64_t file_size, const Digest& key, uint64_t max_payload,
                             std::string* why, std::string_view mac_key = {});

// The entry's output, or nullptr (with `why` saying what was wrong) if the
// bytes are not a complete, intact entry stored under `key`.
// With a `mac_key`, only an entry authenticated under it decodes.
std::shared_ptr<const CompiledOutput> decode_cache_entry(const uint8_t* data, size_t size, const Digest& key,
                                                         std::string* why, std::string_view mac_key = {});

}  // namespace dc
