// dc_compile's work: the in-memory cache, then the disk cache, then NVRTC.
#pragma once

#include "compile/compile_request.h"
#include "compile/program.h"
#include "core/object.h"

namespace dc {

class Device;

// Compiles `request` (or finds it in the caches; NVRTC is loaded only to
// compile). `device`, when given, is where the output will be loaded: PTX
// newer than its driver loads is then refused with DC_ERROR_NOT_SUPPORTED
// instead of failing later at load.
Ref<Program> compile_program(CompileRequest request, const Device* device);

// Fails with DC_ERROR_NOT_SUPPORTED if `ptx` is of a newer ISA than the
// loaded driver accepts (NVRTC newer than the driver); does nothing without a
// driver or when the driver is newer than this library's table.
void check_ptx_loadable(const CompiledOutput& ptx);

}  // namespace dc
