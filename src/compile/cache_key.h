// The kernel cache's key: SHA-256 over everything a compile's output depends
// on (source, in-memory headers, NVRTC options, name expressions, output kind,
// architecture, NVRTC and driver versions), plus the contents of the header
// files the source includes from its include paths, so that editing such a
// header is never answered with a stale kernel.
#pragma once

#include <cstdint>
#include <string>

#include "compile/compile_request.h"
#include "compile/sha256.h"

namespace dc {

struct CacheKey {
  Digest digest{};
  std::string hex;  // the digest in hexadecimal: the entry's file name
};

// `driver_version` is cuDriverGetVersion, or 0 without a driver.
CacheKey make_cache_key(const CompileRequest& request, int32_t nvrtc_major, int32_t nvrtc_minor,
                        int32_t driver_version);

}  // namespace dc
