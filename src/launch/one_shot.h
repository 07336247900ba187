// dc_launch_kernel and dc_launch_kernel_packed: everything checked on every
// call, small argument arrays kept on the stack (no allocation up to
// kInlineArgs arguments), buffers pinned for the call.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "module/function.h"
#include "stream/stream.h"

namespace dc {

constexpr uint32_t kInlineArgs = 16;

void launch_once(Function& f, const dc_launch_config* config, const dc_arg* args, uint32_t num_args, Stream& stream);

void launch_once_packed(Function& f, const dc_launch_config* config, const void* params, uint64_t size,
                        Stream& stream);

}  // namespace dc
