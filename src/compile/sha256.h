// SHA-256 (FIPS 180-4), written here so that the kernel cache's keys and
// checksums are the same in every process, on every machine and with every
// compiler: never a process-randomised std::hash.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace dc {

using Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256() noexcept;
  void update(const void* data, size_t size) noexcept;
  void update(std::string_view s) noexcept { update(s.data(), s.size()); }
  // Length-prefixed, so that ("ab", "c") and ("a", "bc") hash differently.
  void field(std::string_view s) noexcept;
  void field_u64(uint64_t v) noexcept;
  Digest finish() noexcept;

 private:
  void blocks(const uint8_t* p, size_t count) noexcept;  // whole 64-byte blocks
  uint32_t h_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_ = 0;
};

Digest sha256(const void* data, size_t size) noexcept;

// HMAC-SHA256 (RFC 2104) of the concatenation of `parts` under `key`: the MAC
// of shared kernel cache entries (cache_entry.h).
Digest hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts) noexcept;
std::string to_hex(const Digest& d);

}  // namespace dc
