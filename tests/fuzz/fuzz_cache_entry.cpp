// libFuzzer target: the kernel cache's entry reader (src/compile/cache_entry.cpp),
// which reads files anyone with access to the cache directory can write.
// The first byte picks the mode:
//   even: the rest is a whole file, read under the key it names itself (so
//         the header checks are passed or failed by the input alone);
//   odd:  the rest is a payload, wrapped in a valid header with its size and
//         SHA-256 (so the fuzzer reaches the payload parser at once).
// Every entry that decodes must encode back to the same bytes, and must have
// passed the header check the disk cache makes before reading a payload.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compile/cache_entry.h"
#include "compile/sha256.h"
#include "dccuda.h"

namespace {

// Aborts, saying which invariant broke (libFuzzer keeps the input).
#define require(cond) require_at(cond, #cond, __LINE__)
void require_at(bool cond, const char* what, int line) {
  if (cond) return;
  std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, line, what);
  std::abort();
}

void put64(std::vector<uint8_t>& out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}
void put32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool wrap = data[0] & 1;
  const uint8_t* body = data + 1;
  size_t n = size - 1;
  std::vector<uint8_t> file;
  dc::Digest key{};
  if (!wrap) {
    file.assign(body, body + n);
    if (n >= 48) std::memcpy(key.data(), body + 16, key.size());
  } else {
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 7 + 1);
    file.assign(dc::kCacheEntryHeaderSize, 0);
    std::memcpy(file.data(), dc::kCacheEntryMagic, sizeof dc::kCacheEntryMagic);
    put32(file, 8, dc::kCacheEntryFormat);
    put32(file, 12, static_cast<uint32_t>(dc::kCacheEntryHeaderSize));
    std::memcpy(file.data() + 16, key.data(), key.size());
    put64(file, 48, n);
    dc::Digest check = dc::sha256(body, n);
    std::memcpy(file.data() + 56, check.data(), check.size());
    file.insert(file.end(), body, body + n);
  }
  std::string why;
  auto out = dc::decode_cache_entry(file.data(), file.size(), key, &why);
  if (!out) {
    require(!why.empty());
    return 0;
  }
  require(!out->image.empty());
  // The disk cache reads a payload only after this check of the header alone.
  require(dc::cache_entry_header_fits(file.data(), file.size(), key, UINT64_MAX, &why));
  if (out->kind == DC_OUTPUT_PTX) require(out->image.back() == 0);
  // A file that decodes is exactly what the writer would have written (but
  // for the reserved header bytes 88..95, which readers ignore).
  std::fill(file.begin() + 88, file.begin() + 96, 0);
  require(dc::encode_cache_entry(key, *out) == file);
  return 0;
}
