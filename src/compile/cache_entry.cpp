#include "compile/cache_entry.h"

#include <cstring>

#include "dccuda.h"

namespace dc {
namespace {

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_bytes(std::vector<uint8_t>& out, const void* p, size_t n) {
  put_u64(out, n);
  const uint8_t* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Bounds-checked reading of the payload.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool u32(uint32_t* v) {
    if (static_cast<size_t>(end_ - p_) < 4) return false;
    *v = get_u32(p_);
    p_ += 4;
    return true;
  }
  bool bytes(const uint8_t** data, size_t* n) {
    if (static_cast<size_t>(end_ - p_) < 8) return false;
    uint64_t len = get_u64(p_);
    p_ += 8;
    if (len > static_cast<uint64_t>(end_ - p_)) return false;
    *data = p_;
    *n = static_cast<size_t>(len);
    p_ += len;
    return true;
  }
  bool string(std::string* s) {
    const uint8_t* d;
    size_t n;
    if (!bytes(&d, &n)) return false;
    s->assign(reinterpret_cast<const char*>(d), n);
    return true;
  }
  bool done() const { return p_ == end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// The check in bytes 56..87: the payload's SHA-256, or the HMAC of the
// header's first 56 bytes (magic, format, header size, key, payload size)
// and the payload.
Digest entry_check(const uint8_t* header, const uint8_t* payload, size_t payload_size, std::string_view mac_key) {
  if (mac_key.empty()) return sha256(payload, payload_size);
  return hmac_sha256(mac_key, {std::string_view(reinterpret_cast<const char*>(header), 56),
                               std::string_view(reinterpret_cast<const char*>(payload), payload_size)});
}

uint32_t format_for(std::string_view mac_key) {
  return mac_key.empty() ? kCacheEntryFormat : kCacheEntryAuthenticatedFormat;
}

}  // namespace

std::vector<uint8_t> encode_cache_entry(const Digest& key, const CompiledOutput& o, std::string_view mac_key) {
  std::vector<uint8_t> payload;
  payload.reserve(o.image.size() + o.log.size() + 256);
  put_u32(payload, static_cast<uint32_t>(o.kind));
  put_u32(payload, static_cast<uint32_t>(o.arch));
  put_bytes(payload, o.image.data(), o.image.size());
  put_bytes(payload, o.log.data(), o.log.size());
  put_u32(payload, static_cast<uint32_t>(o.lowered_names.size()));
  for (const auto& [expression, lowered] : o.lowered_names) {
    put_bytes(payload, expression.data(), expression.size());
    put_bytes(payload, lowered.data(), lowered.size());
  }
  // Header fields at fixed offsets (see decode_cache_entry).
  std::vector<uint8_t> out(kCacheEntryHeaderSize + payload.size(), 0);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  };
  auto put64 = [&](size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  };
  std::memcpy(out.data(), kCacheEntryMagic, sizeof kCacheEntryMagic);
  put32(8, format_for(mac_key));
  put32(12, static_cast<uint32_t>(kCacheEntryHeaderSize));
  std::memcpy(out.data() + 16, key.data(), key.size());
  put64(48, payload.size());
  Digest check = entry_check(out.data(), payload.data(), payload.size(), mac_key);
  std::memcpy(out.data() + 56, check.data(), check.size());
  // 88..95: reserved, zero.
  if (!payload.empty()) std::memcpy(out.data() + kCacheEntryHeaderSize, payload.data(), payload.size());
  return out;
}

bool cache_entry_header_fits(const uint8_t* h, uint64_t file_size, const Digest& key, uint64_t max_payload,
                             std::string* why, std::string_view mac_key) {
  auto reject = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (file_size < kCacheEntryHeaderSize) return reject("shorter than the entry header (truncated)");
  if (std::memcmp(h, kCacheEntryMagic, 8) != 0) return reject("not a dccuda cache entry (bad magic)");
  if (get_u32(h + 8) != format_for(mac_key))
    return reject(mac_key.empty() ? "written in another entry format" : "not authenticated (a private entry)");
  if (get_u32(h + 12) != kCacheEntryHeaderSize) return reject("bad header size");
  if (std::memcmp(h + 16, key.data(), key.size()) != 0) return reject("stored under another key");
  uint64_t payload_size = get_u64(h + 48);
  if (payload_size != file_size - kCacheEntryHeaderSize) return reject("payload size does not match the file");
  if (payload_size > max_payload) return reject("larger than the cache's size limit");
  return true;
}

std::shared_ptr<const CompiledOutput> decode_cache_entry(const uint8_t* data, size_t size, const Digest& key,
                                                         std::string* why, std::string_view mac_key) {
  auto reject = [&](const char* reason) -> std::shared_ptr<const CompiledOutput> {
    if (why) *why = reason;
    return nullptr;
  };
  if (size < kCacheEntryHeaderSize) return reject("shorter than the entry header (truncated)");
  if (std::memcmp(data, kCacheEntryMagic, 8) != 0) return reject("not a dccuda cache entry (bad magic)");
  if (get_u32(data + 8) != format_for(mac_key))
    return reject(mac_key.empty() ? "written in another entry format" : "not authenticated (a private entry)");
  if (get_u32(data + 12) != kCacheEntryHeaderSize) return reject("bad header size");
  if (std::memcmp(data + 16, key.data(), key.size()) != 0) return reject("stored under another key");
  uint64_t payload_size = get_u64(data + 48);
  if (payload_size != size - kCacheEntryHeaderSize) return reject("payload size does not match the file (truncated)");
  const uint8_t* payload = data + kCacheEntryHeaderSize;
  Digest check = entry_check(data, payload, static_cast<size_t>(payload_size), mac_key);
  if (std::memcmp(data + 56, check.data(), check.size()) != 0)
    return reject(mac_key.empty() ? "checksum mismatch (corrupt)" : "authentication failed (changed, or another key)");

  auto out = std::make_shared<CompiledOutput>();
  Reader r(payload, static_cast<size_t>(payload_size));
  uint32_t kind = 0, arch = 0, count = 0;
  const uint8_t* image = nullptr;
  size_t image_size = 0;
  if (!r.u32(&kind) || !r.u32(&arch) || !r.bytes(&image, &image_size) || !r.string(&out->log) || !r.u32(&count))
    return reject("malformed payload");
  if (kind != DC_OUTPUT_CUBIN && kind != DC_OUTPUT_PTX && kind != DC_OUTPUT_LTOIR) return reject("unknown output kind");
  if (image_size == 0 || (kind == DC_OUTPUT_PTX && image[image_size - 1] != 0)) return reject("malformed image");
  out->kind = static_cast<int32_t>(kind);
  out->arch = static_cast<int32_t>(arch);
  out->image.assign(image, image + image_size);
  for (uint32_t i = 0; i < count; ++i) {
    std::string expression, lowered;
    if (!r.string(&expression) || !r.string(&lowered)) return reject("malformed lowered names");
    out->lowered_names.emplace_back(std::move(expression), std::move(lowered));
  }
  if (!r.done()) return reject("trailing bytes in the payload");
  return out;
}

}  // namespace dc
