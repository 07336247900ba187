// A kernel's parameter layout: where each parameter lies in the packed
// parameter block, as cuFuncGetParamInfo reports it (or as the image declares
// it, on drivers before 12.4).
#pragma once

#include <cstdint>
#include <vector>

namespace dc {

struct ParamInfo {
  uint32_t offset = 0;
  uint32_t size = 0;
};

struct ParamLayout {
  bool known = false;             // false: neither the driver nor the image could tell
  std::vector<ParamInfo> params;  // in declaration order
  uint32_t total_bytes = 0;       // end of the last parameter; 0 without parameters
};

}  // namespace dc
