// Reading kernel names and parameter lists out of PTX text, for drivers that
// cannot enumerate a module's kernels or report their parameters (before 12.4).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "module/param_layout.h"

namespace dc {

struct ImageKernel {
  std::string name;
  ParamLayout layout;
};

// Every `.entry` of the PTX, in order, with its `.param` list laid out as the
// driver lays it out (each parameter at its alignment). A parameter list that
// cannot be understood leaves that kernel's layout unknown.
std::vector<ImageKernel> parse_ptx_kernels(std::string_view ptx);

}  // namespace dc
