#include "fake_nccl_reduce.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace fake_nccl {
namespace {

float half_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while (!(man & 0x400u));
      bits = sign | (uint32_t(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0);
  if (absx >= 0x477ff000u) return sign | 0x7c00u;  // rounds past 65504: infinity
  if (absx < 0x33000001u) return sign;              // below half the smallest subnormal
  int exp = static_cast<int>(absx >> 23);
  uint32_t man = (absx & 0x7fffffu) | 0x800000u;
  int shift = exp < 113 ? 126 - exp : 13;           // subnormal halves shift further
  uint32_t base = exp < 113 ? 0 : uint32_t(exp - 112) << 10;
  uint32_t kept = man >> shift, rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
  uint32_t v = base + (exp < 113 ? kept : (kept & 0x3ffu));
  if (rest > half || (rest == half && (v & 1u))) ++v;
  return sign | static_cast<uint16_t>(v);
}

float bf16_to_float(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

template <class T>
T apply(T a, T b, ncclRedOp_t op) {
  switch (op) {
    case ncclProd: return static_cast<T>(a * b);
    case ncclMax: return std::max(a, b);
    case ncclMin: return std::min(a, b);
    default: return static_cast<T>(a + b);  // ncclSum, ncclAvg (divided at the end)
  }
}

template <class T>
void accumulate_as(void* dst, const void* src, size_t n, ncclRedOp_t op) {
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, static_cast<char*>(dst) + i * sizeof(T), sizeof(T));
    std::memcpy(&b, static_cast<const char*>(src) + i * sizeof(T), sizeof(T));
    a = apply(a, b, op);
    std::memcpy(static_cast<char*>(dst) + i * sizeof(T), &a, sizeof(T));
  }
}

template <float (*Load)(uint16_t), uint16_t (*Store)(float)>
void accumulate_16(void* dst, const void* src, size_t n, ncclRedOp_t op) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t a, b;
    std::memcpy(&a, static_cast<char*>(dst) + 2 * i, 2);
    std::memcpy(&b, static_cast<const char*>(src) + 2 * i, 2);
    a = Store(apply(Load(a), Load(b), op));
    std::memcpy(static_cast<char*>(dst) + 2 * i, &a, 2);
  }
}

template <class T>
void divide_as(void* dst, size_t n, int d) {
  for (size_t i = 0; i < n; ++i) {
    T a;
    std::memcpy(&a, static_cast<char*>(dst) + i * sizeof(T), sizeof(T));
    a = static_cast<T>(a / static_cast<T>(d));
    std::memcpy(static_cast<char*>(dst) + i * sizeof(T), &a, sizeof(T));
  }
}

template <float (*Load)(uint16_t), uint16_t (*Store)(float)>
void divide_16(void* dst, size_t n, int d) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t a;
    std::memcpy(&a, static_cast<char*>(dst) + 2 * i, 2);
    a = Store(Load(a) / static_cast<float>(d));
    std::memcpy(static_cast<char*>(dst) + 2 * i, &a, 2);
  }
}

}  // namespace

size_t type_size(ncclDataType_t type) {
  switch (type) {
    case ncclInt8: case ncclUint8: return 1;
    case ncclFloat16: case ncclBfloat16: return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
    case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
  }
  return 0;
}

void accumulate(void* dst, const void* src, size_t n, ncclDataType_t type, ncclRedOp_t op) {
  switch (type) {
    case ncclInt8: return accumulate_as<int8_t>(dst, src, n, op);
    case ncclUint8: return accumulate_as<uint8_t>(dst, src, n, op);
    case ncclInt32: return accumulate_as<int32_t>(dst, src, n, op);
    case ncclUint32: return accumulate_as<uint32_t>(dst, src, n, op);
    case ncclInt64: return accumulate_as<int64_t>(dst, src, n, op);
    case ncclUint64: return accumulate_as<uint64_t>(dst, src, n, op);
    case ncclFloat16: return accumulate_16<half_to_float, float_to_half>(dst, src, n, op);
    case ncclFloat32: return accumulate_as<float>(dst, src, n, op);
    case ncclFloat64: return accumulate_as<double>(dst, src, n, op);
    case ncclBfloat16: return accumulate_16<bf16_to_float, float_to_bf16>(dst, src, n, op);
  }
}

void divide(void* dst, size_t n, ncclDataType_t type, int d) {
  switch (type) {
    case ncclInt8: return divide_as<int8_t>(dst, n, d);
    case ncclUint8: return divide_as<uint8_t>(dst, n, d);
    case ncclInt32: return divide_as<int32_t>(dst, n, d);
    case ncclUint32: return divide_as<uint32_t>(dst, n, d);
    case ncclInt64: return divide_as<int64_t>(dst, n, d);
    case ncclUint64: return divide_as<uint64_t>(dst, n, d);
    case ncclFloat16: return divide_16<half_to_float, float_to_half>(dst, n, d);
    case ncclFloat32: return divide_as<float>(dst, n, d);
    case ncclFloat64: return divide_as<double>(dst, n, d);
    case ncclBfloat16: return divide_16<bf16_to_float, float_to_bf16>(dst, n, d);
  }
}

}  // namespace fake_nccl
