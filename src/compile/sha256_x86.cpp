// SHA-256 blocks with the x86 SHA extensions (SHA-NI: Intel since Ice Lake
// and Goldmont, AMD since Zen), chosen at run time by CPUID so that the
// library still runs on CPUs without them.
#include "compile/sha256_blocks.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#endif

namespace dc::sha256_blocks {
namespace {

// What glibc (2.33 and newer) read of CPUID at start-up, for
// CPU_FEATURE_ACTIVE of <sys/platform/x86.h>: leaf index 0 is CPUID leaf 1,
// index 1 is leaf 7; registers eax, ebx, ecx, edx. Looked up at run time:
// the portable binaries need only glibc 2.28.
struct GlibcCpuidLeaf {
  unsigned int cpuid[4];
  unsigned int active[4];
};

}  // namespace

int glibc_says_sha() noexcept {
#if defined(__linux__) && defined(__GLIBC__)
  using Leaf = const GlibcCpuidLeaf* (*)(unsigned int);
  auto leaf = reinterpret_cast<Leaf>(dlsym(RTLD_DEFAULT, "__x86_get_cpuid_feature_leaf"));
  if (!leaf) return -1;
  const GlibcCpuidLeaf* one = leaf(0);
  const GlibcCpuidLeaf* seven = leaf(1);
  if (!one || !seven) return -1;
  bool ssse3 = one->active[2] & (1u << 9), sse41 = one->active[2] & (1u << 19);
  bool sha = seven->active[1] & (1u << 29);
  return ssse3 && sse41 && sha;
#else
  return -1;
#endif
}

bool cpuid_says_sha() noexcept {
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid(1, a, b, c, d);
  bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
  __cpuid_count(7, 0, a, b, c, d);
  bool sha = b & (1u << 29);
  return ssse3 && sse41 && sha;
}

namespace {

// glibc's record where there is one (a symbol lookup, about 3 us); else
// three CPUID instructions. Each CPUID traps to the hypervisor in a virtual
// machine (about 4 us each on the development VM), and this runs in a new
// process's first cache lookup.
bool cpu_has_sha() noexcept {
  int glibc = glibc_says_sha();
  return glibc >= 0 ? glibc == 1 : cpuid_says_sha();
}

// The state is kept as the instructions want it: ABEF in one register, CDGH
// in the other. Each round group adds four words of the message schedule to
// four round constants and runs four rounds (two sha256rnds2).
__attribute__((target("sha,sse4.1"))) void compress_sha_ni(uint32_t state[8], const uint8_t* data,
                                                             size_t blocks) noexcept {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[0]));
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[4]));
  tmp = _mm_shuffle_epi32(tmp, 0xB1);              // CDAB
  state1 = _mm_shuffle_epi32(state1, 0x1B);        // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);       // CDGH

  for (; blocks > 0; --blocks, data += 64) {
    const __m128i abef = state0, cdgh = state1;
    __m128i w[4];  // w[i % 4]: the schedule's words 4i..4i+3
    for (int i = 0; i < 16; ++i) {
      __m128i m;
      if (i < 4) {
        m = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), byte_swap);
      } else {
        // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time.
        __m128i t = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
        m = _mm_sha256msg2_epu32(t, w[(i + 3) & 3]);
      }
      w[i & 3] = m;
      __m128i k = _mm_add_epi32(m, _mm_load_si128(reinterpret_cast<const __m128i*>(&kRound[4 * i])));
      state1 = _mm_sha256rnds2_epu32(state1, state0, k);
      k = _mm_shuffle_epi32(k, 0x0E);
      state0 = _mm_sha256rnds2_epu32(state0, state1, k);
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }

  tmp = _mm_shuffle_epi32(state0, 0x1B);          // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);       // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);    // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);       // ABEF -> HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[0]), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[4]), state1);
}

}  // namespace

Compress hardware() noexcept {
  static const bool has = cpu_has_sha();
  return has ? compress_sha_ni : nullptr;
}

}  // namespace dc::sha256_blocks

#else

namespace dc::sha256_blocks {
int glibc_says_sha() noexcept { return -1; }
bool cpuid_says_sha() noexcept { return false; }
Compress hardware() noexcept { return nullptr; }
}  // namespace dc::sha256_blocks

#endif
