// Entry points: runtime compilation (NVRTC) and the kernel cache.
#include "dccuda.h"

#include "compile/arch.h"
#include "compile/compile_request.h"
#include "compile/compiler.h"
#include "compile/disk_cache.h"
#include "compile/memory_cache.h"
#include "compile/program.h"
#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "loader/nvrtc.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_compile(const char* source, const char* program_name, const dc_compile_options* options,
                            dc_device device, dc_program* program) {
  return guarded("dc_compile", [&] {
    clear_out(program);
    forbid_after_fork();
    require_arg(program, "program");
    Pinned<Device> d;
    if (device) d = pin<Device>(device, "device");
    CompileRequest request = make_compile_request(source, program_name, options, d.get());
    Ref<Program> p = compile_program(std::move(request), d.get());
    *program = issue_handle<dc_program>(p.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_program_release(dc_program program) { close_handle<Program>(program); }

DC_API dc_status dc_nvrtc_supported_archs(int32_t* archs, uint32_t capacity, uint32_t* count) {
  return guarded("dc_nvrtc_supported_archs", [&] {
    clear_out(count);
    forbid_after_fork();
    require_arg(count, "count");
    if (!archs && capacity != 0)
      fail(DC_ERROR_INVALID_ARGUMENT, "archs is NULL but capacity is %u; pass an array, or NULL and 0 to ask for "
           "the count", capacity);
    require_nvrtc();
    const std::vector<int32_t>& supported = nvrtc_supported_archs();
    if (supported.empty())
      fail(DC_ERROR_NOT_SUPPORTED, "NVRTC %d.%d cannot list its architectures (nvrtcGetSupportedArchs needs NVRTC "
           "11.2 or newer)", nvrtc_state().major, nvrtc_state().minor);
    uint32_t n = static_cast<uint32_t>(supported.size());
    if (archs) {
      if (capacity < n)
        fail(DC_ERROR_OUT_OF_RANGE, "capacity is %u, but NVRTC supports %u architectures; pass an array of %u", capacity,
             n, n);
      for (uint32_t i = 0; i < n; ++i) archs[i] = supported[i];
    }
    *count = n;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_program_output(dc_program program, int32_t* kind, const void** data, uint64_t* size) {
  return guarded("dc_program_output", [&] {
    clear_out(kind);
    clear_out(data);
    clear_out(size);
    forbid_after_fork();
    Pinned<Program> p = pin<Program>(program, "program");
    const CompiledOutput& out = p->output();
    if (kind) *kind = out.kind;
    if (data) *data = out.image.data();
    if (size) *size = out.image.size();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_program_log(dc_program program, const char** log) {
  return guarded("dc_program_log", [&] {
    clear_out(log);
    forbid_after_fork();
    Pinned<Program> p = pin<Program>(program, "program");
    require_arg(log, "log");
    *log = p->output().log.c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_program_lowered_name(dc_program program, const char* name_expression, const char** lowered_name) {
  return guarded("dc_program_lowered_name", [&] {
    clear_out(lowered_name);
    forbid_after_fork();
    Pinned<Program> p = pin<Program>(program, "program");
    require_arg(name_expression, "name_expression");
    require_arg(lowered_name, "lowered_name");
    const std::string* lowered = p->lowered_name(name_expression);
    if (!lowered) {
      std::string given;
      for (const auto& [expression, unused] : p->output().lowered_names) {
        (void)unused;
        given += given.empty() ? "\"" : ", \"";
        given += expression + "\"";
      }
      fail(DC_ERROR_NOT_FOUND, "\"%s\" was not one of the program's name expressions (%s); add it to "
           "options->name_expressions when compiling", name_expression, given.empty() ? "it has none" : given.c_str());
    }
    *lowered_name = lowered->c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_program_cache_source(dc_program program, int32_t* source) {
  return guarded("dc_program_cache_source", [&] {
    clear_out(source);
    forbid_after_fork();
    Pinned<Program> p = pin<Program>(program, "program");
    require_arg(source, "source");
    *source = p->cache_source();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_cache_clear(uint32_t flags) {
  return guarded("dc_cache_clear", [&] {
    forbid_after_fork();
    if (flags == 0)
      fail(DC_ERROR_INVALID_ARGUMENT, "flags is 0; pass DC_CACHE_CLEAR_MEMORY and/or DC_CACHE_CLEAR_DISK");
    require_flags(flags, DC_CACHE_CLEAR_MEMORY | DC_CACHE_CLEAR_DISK, "flags", "DC_CACHE_CLEAR_*");
    if (flags & DC_CACHE_CLEAR_MEMORY) memory_cache_clear();
    if (flags & DC_CACHE_CLEAR_DISK) disk_cache_clear();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_cache_directory(const char** path) {
  return guarded("dc_cache_directory", [&] {
    clear_out(path);
    forbid_after_fork();
    require_arg(path, "path");
    *path = disk_cache_directory().c_str();
    return DC_SUCCESS;
  });
}

}  // extern "C"

static_assert(DC_OUTPUT_CUBIN == 0 && DC_OUTPUT_PTX == 1 && DC_OUTPUT_LTOIR == 2);
