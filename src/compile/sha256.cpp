#include "compile/sha256.h"

#include <algorithm>
#include <cstring>

#include "compile/sha256_blocks.h"

namespace dc {
namespace {

inline uint32_t rotr(uint32_t x, int n) noexcept { return (x >> n) | (x << (32 - n)); }

inline uint32_t load_be32(const uint8_t* p) noexcept {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

}  // namespace

Sha256::Sha256() noexcept
    : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

}  // namespace dc

namespace dc::sha256_blocks {

void portable(uint32_t state[8], const uint8_t* p, size_t blocks) noexcept {
  for (; blocks > 0; --blocks, p += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) w[i] = load_be32(p + 4 * i);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],
             h = state[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      uint32_t ch = (e & f) ^ (~e & g);
      uint32_t t1 = h + s1 + ch + kRound[i] + w[i];
      uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      uint32_t t2 = s0 + maj;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

Compress chosen() noexcept {
  static const Compress compress = hardware() ? hardware() : portable;
  return compress;
}

}  // namespace dc::sha256_blocks

namespace dc {

void Sha256::blocks(const uint8_t* p, size_t count) noexcept { sha256_blocks::chosen()(h_, p, count); }

void Sha256::update(const void* data, size_t size) noexcept {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += size;
  if (buffered_) {
    size_t take = 64 - buffered_ < size ? 64 - buffered_ : size;
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < 64) return;
    blocks(buffer_, 1);
    buffered_ = 0;
  }
  if (size >= 64) {
    blocks(p, size / 64);
    p += size / 64 * 64;
    size %= 64;
  }
  if (size) {
    std::memcpy(buffer_, p, size);
    buffered_ = size;
  }
}

void Sha256::field_u64(uint64_t v) noexcept {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
  update(b, sizeof b);
}

void Sha256::field(std::string_view s) noexcept {
  field_u64(s.size());
  update(s);
}

Digest Sha256::finish() noexcept {
  uint64_t bits = total_ * 8;
  uint8_t pad[72] = {0x80};
  size_t pad_len = (buffered_ < 56 ? 56 - buffered_ : 120 - buffered_);
  for (int i = 0; i < 8; ++i) pad[pad_len + static_cast<size_t>(i)] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  update(pad, pad_len + 8);
  Digest out;
  for (int i = 0; i < 8; ++i) {
    out[static_cast<size_t>(4 * i)] = static_cast<uint8_t>(h_[i] >> 24);
    out[static_cast<size_t>(4 * i + 1)] = static_cast<uint8_t>(h_[i] >> 16);
    out[static_cast<size_t>(4 * i + 2)] = static_cast<uint8_t>(h_[i] >> 8);
    out[static_cast<size_t>(4 * i + 3)] = static_cast<uint8_t>(h_[i]);
  }
  return out;
}

Digest sha256(const void* data, size_t size) noexcept {
  Sha256 h;
  h.update(data, size);
  return h.finish();
}

Digest hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts) noexcept {
  constexpr size_t kBlock = 64;
  uint8_t k[kBlock] = {};
  if (key.size() > kBlock) {
    Digest short_key = sha256(key.data(), key.size());
    std::copy(short_key.begin(), short_key.end(), k);
  } else {
    std::copy(key.begin(), key.end(), k);
  }
  uint8_t pad[kBlock];
  for (size_t i = 0; i < kBlock; ++i) pad[i] = static_cast<uint8_t>(k[i] ^ 0x36);
  Sha256 inner;
  inner.update(pad, kBlock);
  for (std::string_view p : parts) inner.update(p);
  Digest inner_digest = inner.finish();
  for (size_t i = 0; i < kBlock; ++i) pad[i] = static_cast<uint8_t>(k[i] ^ 0x5c);
  Sha256 outer;
  outer.update(pad, kBlock);
  outer.update(inner_digest.data(), inner_digest.size());
  return outer.finish();
}

std::string to_hex(const Digest& d) {
  static const char kHex[] = "0123456789abcdef";
  std::string s(64, '0');
  for (size_t i = 0; i < d.size(); ++i) {
    s[2 * i] = kHex[d[i] >> 4];
    s[2 * i + 1] = kHex[d[i] & 15];
  }
  return s;
}

}  // namespace dc
