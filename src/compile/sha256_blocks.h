// SHA-256's compression function, over whole 64-byte blocks: the portable
// one, and the one of the x86 SHA extensions where the CPU has them (about
// eight times faster: the kernel cache hashes every entry it reads, so a new
// process's cache hit spends a good part of its time here). Sha256 picks one
// once per process; both give the same state for the same input (the tests
// compare them).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dc::sha256_blocks {

using Compress = void (*)(uint32_t state[8], const uint8_t* data, size_t blocks) noexcept;

void portable(uint32_t state[8], const uint8_t* data, size_t blocks) noexcept;

// The SHA extensions' version, or nullptr where this CPU or build has none.
Compress hardware() noexcept;

// How hardware() decides (x86 only; elsewhere -1 and false): glibc's record
// of CPUID (1 or 0; -1 where this glibc has none), else CPUID itself.
int glibc_says_sha() noexcept;
bool cpuid_says_sha() noexcept;

// The one Sha256 uses: hardware() where there is one, else portable.
Compress chosen() noexcept;

}  // namespace dc::sha256_blocks
