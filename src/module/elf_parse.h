// Reading a CUBIN (an NVIDIA ELF image): checking that it lies within the
// bytes given, its kernels (symbols marked as CUDA entry points), and their
// parameter layouts from the `.nv.info.<kernel>` sections, for drivers that
// cannot enumerate kernels or report parameters (before 12.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "module/ptx_parse.h"

namespace dc {

// True if `data` starts with the ELF magic.
bool is_elf(const void* data, size_t size);

// Checks that the ELF headers and every section lie within `size` bytes (the
// driver reads an image without being told its size). Returns "" if so, else
// what is wrong.
std::string elf_bounds_problem(const void* data, size_t size);

// The kernels of a CUBIN whose bounds were checked. Layouts come from the
// EIATTR_KPARAM_INFO records; a kernel without readable records has an
// unknown layout.
std::vector<ImageKernel> parse_cubin_kernels(const void* data, size_t size);

// The CUDA architecture a CUBIN was built for (10 * major + minor), 0 if unknown.
int32_t cubin_arch(const void* data, size_t size);

}  // namespace dc
