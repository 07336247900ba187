// libFuzzer target: dccuda's module image readers (src/module/image.cpp,
// elf_parse.cpp, ptx_parse.cpp) on arbitrary bytes, as dc_module_load hands
// them over before the driver sees the image: kind detection and bounds
// (prepare_image), the kernels and parameter layouts (image_kernels: PTX
// `.entry` lists, CUBIN symbols and .nv.info records, fatbin members), the
// CUBIN architecture, and the PTX parser on the same bytes as text.
// A crash, a sanitizer report or a broken invariant (an abort) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/error.h"
#include "module/elf_parse.h"
#include "module/image.h"
#include "module/ptx_parse.h"

namespace {

// Aborts, saying which invariant broke (libFuzzer keeps the input).
#define require(cond) require_at(cond, #cond, __LINE__)
void require_at(bool cond, const char* what, int line) {
  if (cond) return;
  std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, line, what);
  std::abort();
}

void check_layouts(const std::vector<dc::ImageKernel>& kernels) {
  for (const dc::ImageKernel& k : kernels) {
    if (!k.layout.known) continue;
    // Parameters lie inside the block the layout describes.
    for (const dc::ParamInfo& p : k.layout.params)
      require(static_cast<uint64_t>(p.offset) + p.size <= k.layout.total_bytes);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The text view first: the PTX parser takes any bytes.
  check_layouts(dc::parse_ptx_kernels(std::string_view(reinterpret_cast<const char*>(data), size)));
  dc::is_elf(data, size);
  std::string problem = dc::elf_bounds_problem(data, size);
  if (problem.empty() && dc::is_elf(data, size)) {
    check_layouts(dc::parse_cubin_kernels(data, size));
    dc::cubin_arch(data, size);
  }
  try {
    dc::PreparedImage image = dc::prepare_image(data, size);
    require(image.data != nullptr && image.size > 0);
    if (image.kind == dc::ImageKind::Ptx) {
      // What the driver gets is NUL-terminated within the bytes handed over
      // (the driver reads PTX up to its first NUL).
      require(std::memchr(image.data, 0, image.size) != nullptr);
    } else {
      require(image.size <= size);
    }
    check_layouts(dc::image_kernels(image));
  } catch (const dc::Failure& f) {
    require(f.status == DC_ERROR_INVALID_IMAGE || f.status == DC_ERROR_INVALID_ARGUMENT);
  }
  return 0;
}
