// What the fake driver reads out of a module image (a test double: no code is
// generated). Written independently of dccuda's own image readers, so that
// the library's readers are checked against a second implementation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fake {

struct ImageParam {
  size_t offset;
  size_t size;
};

struct ImageKernel {
  std::string name;
  bool params_known = false;
  std::vector<ImageParam> params;
  int registers = 0;        // 0: not given by the image
  size_t static_shared = 0;
  int max_threads = 0;      // __launch_bounds__ (PTX .maxntid, CUBIN EIATTR_MAX_THREADS); 0: none
};

struct ImageGlobal {
  std::string name;
  size_t size = 0;
  std::vector<uint8_t> init;  // initial bytes (may be shorter than size: the rest is zero)
};

struct ParsedImage {
  bool ok = false;
  int result = 0;           // the CUresult when !ok
  std::string log;          // JIT error log when !ok, info log when ok
  bool from_ptx = false;
  int ptx_isa = 0;          // 10 * major + minor (PTX only)
  int arch = 0;             // .target / the CUBIN's SM
  std::vector<ImageKernel> kernels;
  std::vector<ImageGlobal> globals;
};

// Reads the image at `image` (no size: PTX is NUL-terminated, binaries carry
// their size) for a device of `device_arch`, loaded by a driver that accepts
// PTX up to `max_ptx_isa`.
ParsedImage parse_image(const void* image, int device_arch, int max_ptx_isa);

}  // namespace fake
