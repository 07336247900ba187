// Kernel arguments (dc_arg) checked against the kernel's parameters: the
// count, each kind and size where the layout is known (Function::params_known),
// and each buffer: usable, reachable from the kernel's device, the offset
// inside it. Shared by the one-shot launch and the prepared launch's binding.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>

#include "core/handle_table.h"
#include "dccuda.h"
#include "memory/buffer.h"
#include "module/function.h"

namespace dc {

// How the failing argument is named in a message: "args[2]" for an array,
// "arg" for dc_launch_set_arg's single argument.
struct ArgName {
  bool single = false;
  uint32_t index = 0;
};

// Fails unless `num_args` arguments fit the kernel (its parameter count, when
// known) and `args` is given when num_args > 0.
void check_arg_count(const Function& f, const dc_arg* args, uint32_t num_args);

// Checks the argument's kind and, where the layout is known, its size against
// parameter `where.index`. DC_ARG_VALUE needs `value` (and a nonzero size when
// the layout is unknown); DC_ARG_BUFFER needs an 8-byte parameter.
void check_arg(const Function& f, const dc_arg& arg, ArgName where);

// Pins arg.buffer for the call (DC_ERROR_INVALID_HANDLE naming it otherwise).
Pinned<Buffer> pin_buffer_arg(const dc_arg& arg, ArgName where);

// The device address a buffer argument passes: buffer + offset, after
// checking that the buffer is usable, that the kernel's device can reach it
// (its own memory, a peer's with peer access enabled, managed memory, or host
// memory mapped for it) and that the offset lies inside it.
CUdeviceptr buffer_arg_address(const Function& f, const Buffer& b, uint64_t offset, ArgName where);

}  // namespace dc
