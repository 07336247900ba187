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

// The entry's output, or nullptr (with `why` saying what was wrong) if the
// bytes are not a complete, intact entry stored under `key`.
std::shared_ptr<const CompiledOutput> decode_cache_entry(const uint8_t* data, size_t size, const Digest& key,
                                                         std::string* why);

}  // namespace dc
