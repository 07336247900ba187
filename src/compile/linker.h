// dc_link's work: choose the linker (nvJitLink, else the driver's cuLink),
// look in the kernel cache (memory, then disk), and only on a miss link, once
// per key across threads and processes, as compiles are (compiler.h).
#pragma once

#include "compile/link_request.h"
#include "compile/program.h"
#include "core/object.h"

namespace dc {

class Device;

// `device`: the device whose context cuLink links in (NULL: nvJitLink only).
Ref<Program> link_program(const LinkRequest& request, Device* device);

}  // namespace dc
