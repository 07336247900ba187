// The JIT settings a load passes to the driver (dc_module_options), shared by
// modules (cuModuleLoadDataEx) and libraries (cuLibraryLoadData).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dc {

// The first published size of dc_module_options.
constexpr uint32_t kModuleOptionsV1Size = sizeof(dc_module_options);

struct LoadOptions {
  uint32_t flags = 0;
  int32_t optimization_level = -1;
  int32_t max_registers = 0;
  uint32_t log_size = 16 * 1024;
};

// Checks `options` (may be null: the defaults); fails with
// DC_ERROR_INVALID_ARGUMENT naming the bad field.
LoadOptions validate_load_options(const dc_module_options* options);

// A JIT log buffer: not zero-filled (16 KiB twice per load would cost more
// than a CUBIN load's own overhead); only the first byte is cleared.
struct LogBuffer {
  explicit LogBuffer(uint32_t n) : size(n), data(new char[n]) { data[0] = '\0'; }
  uint32_t size;
  std::unique_ptr<char[]> data;
};

// The log's text without trailing blanks.
std::string trimmed(const LogBuffer& buffer);

// The option keys and values of a load, pointing into the two logs (which
// must outlive the driver call). `ptx`: ask for ptxas's verbose report.
struct JitOptionList {
  std::vector<CUjit_option> keys;
  std::vector<void*> values;
};
JitOptionList jit_option_list(const LoadOptions& options, bool ptx, LogBuffer& info_log, LogBuffer& error_log);

// The line of a JIT log that names the error (else its first line).
std::string jit_log_error_line(const std::string& log);

}  // namespace dc
