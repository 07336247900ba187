#include "nccl_reference.h"

#include <cmath>
#include <cstring>

#include "dccuda.h"

namespace nccl_ref {
namespace {

bool is_integer(int32_t t) { return t <= DC_NCCL_UINT64; }

uint16_t to_half(double v) {
  // Small integers only (|v| < 2048 is exact in half); fractions from avg are
  // rounded here to the nearest half, which tolerance() allows for.
  float f = static_cast<float>(v);
  if (f == 0) return 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  f = std::fabs(f);
  int e;
  float m = std::frexp(f, &e);  // f = m * 2^e, m in [0.5, 1)
  int exp = e - 1 + 15;
  uint32_t man = static_cast<uint32_t>(std::lround((m * 2 - 1) * 1024));
  if (man == 1024) man = 0, ++exp;
  return sign | static_cast<uint16_t>(exp << 10) | static_cast<uint16_t>(man);
}

double from_half(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(man, -24) : std::ldexp(1024 + man, exp - 25);
  return h & 0x8000 ? -v : v;
}

uint16_t to_bf16(double v) {
  float f = static_cast<float>(v);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

double from_bf16(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

template <class T>
void put(uint8_t* out, T v) {
  std::memcpy(out, &v, sizeof v);
}
template <class T>
T get(const uint8_t* in) {
  T v;
  std::memcpy(&v, in, sizeof v);
  return v;
}

}  // namespace

size_t size_of(int32_t t) {
  switch (t) {
    case DC_NCCL_INT8: case DC_NCCL_UINT8: return 1;
    case DC_NCCL_FLOAT16: case DC_NCCL_BFLOAT16: return 2;
    case DC_NCCL_INT32: case DC_NCCL_UINT32: case DC_NCCL_FLOAT32: return 4;
    default: return 8;
  }
}

const char* type_name(int32_t t) {
  static const char* const names[] = {"?", "int8", "uint8", "int32", "uint32", "int64", "uint64",
                                      "float16", "float32", "float64", "bfloat16"};
  return t >= 1 && t <= 10 ? names[t] : "?";
}

const char* op_name(int32_t op) {
  static const char* const names[] = {"?", "sum", "prod", "min", "max", "avg"};
  return op >= 1 && op <= 5 ? names[op] : "?";
}

void encode(int32_t t, double v, uint8_t* out) {
  switch (t) {
    case DC_NCCL_INT8: return put<int8_t>(out, static_cast<int8_t>(v));
    case DC_NCCL_UINT8: return put<uint8_t>(out, static_cast<uint8_t>(v));
    case DC_NCCL_INT32: return put<int32_t>(out, static_cast<int32_t>(v));
    case DC_NCCL_UINT32: return put<uint32_t>(out, static_cast<uint32_t>(v));
    case DC_NCCL_INT64: return put<int64_t>(out, static_cast<int64_t>(v));
    case DC_NCCL_UINT64: return put<uint64_t>(out, static_cast<uint64_t>(v));
    case DC_NCCL_FLOAT16: return put<uint16_t>(out, to_half(v));
    case DC_NCCL_FLOAT32: return put<float>(out, static_cast<float>(v));
    case DC_NCCL_FLOAT64: return put<double>(out, v);
    case DC_NCCL_BFLOAT16: return put<uint16_t>(out, to_bf16(v));
  }
}

double decode(int32_t t, const uint8_t* in) {
  switch (t) {
    case DC_NCCL_INT8: return get<int8_t>(in);
    case DC_NCCL_UINT8: return get<uint8_t>(in);
    case DC_NCCL_INT32: return get<int32_t>(in);
    case DC_NCCL_UINT32: return get<uint32_t>(in);
    case DC_NCCL_INT64: return static_cast<double>(get<int64_t>(in));
    case DC_NCCL_UINT64: return static_cast<double>(get<uint64_t>(in));
    case DC_NCCL_FLOAT16: return from_half(get<uint16_t>(in));
    case DC_NCCL_FLOAT32: return get<float>(in);
    case DC_NCCL_FLOAT64: return get<double>(in);
    case DC_NCCL_BFLOAT16: return from_bf16(get<uint16_t>(in));
  }
  return 0;
}

double reduce(int32_t t, int32_t op, const std::vector<double>& values) {
  double r = values[0];
  for (size_t i = 1; i < values.size(); ++i) {
    double v = values[i];
    switch (op) {
      case DC_NCCL_PROD: r *= v; break;
      case DC_NCCL_MIN: r = std::fmin(r, v); break;
      case DC_NCCL_MAX: r = std::fmax(r, v); break;
      default: r += v; break;
    }
  }
  if (op == DC_NCCL_AVG) {
    r /= static_cast<double>(values.size());
    if (is_integer(t)) r = std::trunc(r);
  }
  return r;
}

double tolerance(int32_t t, double expected) {
  double rel = t == DC_NCCL_FLOAT16 ? 1.0 / 1024 : t == DC_NCCL_BFLOAT16 ? 1.0 / 128 : t == DC_NCCL_FLOAT32 ? 1e-6
                                                                                                              : 0;
  return rel * std::fabs(expected);
}

}  // namespace nccl_ref
