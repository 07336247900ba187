// The seam between modules and buffers. A module's __device__ / __constant__
// variable is handed out as a dc_buffer of kind DC_BUFFER_MODULE_GLOBAL that
// owns nothing and keeps the module alive. The buffer class belongs to the
// memory code; this factory is the one place that makes such a buffer, so
// that the module code needs nothing else from it.
#pragma once

#include "core/object.h"
#include "module/module.h"

namespace dc {

// A buffer object (HandleType::Buffer) over the module's __device__ or
// __constant__ variable `name` (cuModuleGetGlobal), holding a reference to
// `module`. Give it to the caller with issue_handle<dc_buffer>. Fails with
// DC_ERROR_CONTEXT_LOST if the module is unusable, DC_ERROR_NOT_FOUND if it
// has no such variable, and as the driver call fails otherwise.
Ref<Object> make_module_global_buffer(Ref<Module> module, const char* name);

}  // namespace dc
