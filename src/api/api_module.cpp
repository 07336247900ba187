// Entry points: modules and functions.
#include "dccuda.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include "compile/compile_request.h"
#include "compile/compiler.h"
#include "compile/program.h"
#include "core/args.h"
#include "core/cuda_check.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "loader/driver.h"
#include "module/function.h"
#include "module/module.h"
#include "module/module_global.h"
#include "platform/regular_file.h"
#include "stream/host_callback.h"

using namespace dc;

namespace {

// No module image is this large; a file that claims to be is refused unread.
constexpr uint64_t kMaxModuleFileBytes = uint64_t(2) << 30;

std::vector<uint8_t> read_image_file(const char* path) {
  platform::RegularFile file;
  int e = 0;
  switch (platform::open_regular_file(platform::kWorkingDirectory, path, true, &file, &e)) {
    case platform::OpenResult::kOk:
      break;
    case platform::OpenResult::kNotFound:
      fail(DC_ERROR_NOT_FOUND, "the file %s does not exist; check the path (relative paths start at the current "
           "directory)", path);
    case platform::OpenResult::kDirectory:
      fail(DC_ERROR_IO, "%s is a directory, not a module file", path);
    case platform::OpenResult::kNotRegular:
      fail(DC_ERROR_IO, "%s is not a regular file (a device, pipe or socket); a module file is a regular file of "
           "PTX, CUBIN or fatbin", path);
    case platform::OpenResult::kSymlink:
    case platform::OpenResult::kFailed:
      fail(DC_ERROR_IO, "cannot open %s: %s", path, std::strerror(e));
  }
  uint64_t size = file.file_size();
  if (size == 0) fail(DC_ERROR_INVALID_IMAGE, "the file %s is empty; it holds no PTX, CUBIN or fatbin", path);
  if (size > kMaxModuleFileBytes)
    fail(DC_ERROR_INVALID_IMAGE, "file too large: %s has %llu bytes, more than any module image (at most %llu); "
         "check the path", path, static_cast<unsigned long long>(size),
         static_cast<unsigned long long>(kMaxModuleFileBytes));
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  errno = 0;
  if (!platform::read_exactly(file.fd.get(), bytes.data(), bytes.size()))
    fail(DC_ERROR_IO, "cannot read %s (%llu bytes): %s", path, static_cast<unsigned long long>(size),
         errno ? std::strerror(errno) : "it became shorter while being read");
  return bytes;
}

}  // namespace

extern "C" {

DC_API dc_status dc_module_load(dc_device device, const void* image, uint64_t size, const dc_module_options* options,
                                dc_module* module) {
  return guarded("dc_module_load", [&] {
    clear_out(module);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(module, "module");
    Ref<Module> m = Module::load(d.share(), image, static_cast<size_t>(size), options);
    *module = issue_handle<dc_module>(m.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_load_file(dc_device device, const char* path, const dc_module_options* options,
                                     dc_module* module) {
  return guarded("dc_module_load_file", [&] {
    clear_out(module);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(path, "path");
    require_arg(module, "module");
    std::vector<uint8_t> bytes = read_image_file(path);
    Ref<Module> m = Module::load(d.share(), bytes.data(), bytes.size(), options);
    *module = issue_handle<dc_module>(m.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_load_program(dc_device device, dc_program program, const dc_module_options* options,
                                        dc_module* module) {
  return guarded("dc_module_load_program", [&] {
    clear_out(module);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    Pinned<Program> p = pin<Program>(program, "program");
    require_arg(module, "module");
    const CompiledOutput& out = p->output();
    if (out.kind == DC_OUTPUT_LTOIR)
      fail(DC_ERROR_INVALID_ARGUMENT, "the program holds LTO-IR, which the driver cannot load; link it with "
           "nvJitLink, or compile to DC_OUTPUT_CUBIN or DC_OUTPUT_PTX");
    Ref<Module> m = Module::load(d.share(), out.image.data(), out.image.size(), options);
    *module = issue_handle<dc_module>(m.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_compile_and_load(dc_device device, const char* source, const char* program_name,
                                            const dc_compile_options* options, dc_module* module) {
  return guarded("dc_module_compile_and_load", [&] {
    clear_out(module);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(module, "module");
    if (options && options->struct_size >= kCompileOptionsV1Size && options->output == DC_OUTPUT_LTOIR)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->output is DC_OUTPUT_LTOIR, which cannot be loaded; use "
           "DC_OUTPUT_CUBIN or DC_OUTPUT_PTX");
    CompileRequest request = make_compile_request(source, program_name, options, d.get());
    Ref<Program> p = compile_program(std::move(request), d.get());
    const CompiledOutput& out = p->output();
    Ref<Module> m = Module::load(d.share(), out.image.data(), out.image.size(), nullptr);
    *module = issue_handle<dc_module>(m.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_module_release(dc_module module) { close_handle<Module>(module); }

DC_API dc_status dc_module_jit_log(dc_module module, const char** log) {
  return guarded("dc_module_jit_log", [&] {
    clear_out(log);
    forbid_after_fork();
    Pinned<Module> m = pin<Module>(module, "module");
    require_arg(log, "log");
    *log = m->jit_log().c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_get_function(dc_module module, const char* name, dc_function* function) {
  return guarded("dc_module_get_function", [&] {
    clear_out(function);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Module> m = pin<Module>(module, "module");
    require_arg(name, "name");
    require_arg(function, "function");
    Ref<Function> f = m->get_function(name);
    *function = issue_handle<dc_function>(f.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_function_count(dc_module module, uint32_t* count) {
  return guarded("dc_module_function_count", [&] {
    clear_out(count);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Module> m = pin<Module>(module, "module");
    require_arg(count, "count");
    *count = static_cast<uint32_t>(m->function_names().size());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_function_name(dc_module module, uint32_t index, const char** name) {
  return guarded("dc_module_function_name", [&] {
    clear_out(name);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Module> m = pin<Module>(module, "module");
    require_arg(name, "name");
    const std::vector<std::string>& names = m->function_names();
    if (index >= names.size())
      fail(DC_ERROR_OUT_OF_RANGE, "index %u is out of range: the module has %zu kernel%s", index, names.size(),
           names.size() == 1 ? "" : "s");
    *name = names[index].c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_module_get_global(dc_module module, const char* name, dc_buffer* buffer) {
  return guarded("dc_module_get_global", [&] {
    clear_out(buffer);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Module> m = pin<Module>(module, "module");
    require_arg(name, "name");
    require_arg(buffer, "buffer");
    if (!*name) fail(DC_ERROR_INVALID_ARGUMENT, "name is empty; pass a __device__ or __constant__ variable's name");
    m->check_usable();
    CUdeviceptr address = 0;
    size_t size = 0;
    {
      ContextScope bind(m->device());
      CUresult r = driver_api().cuModuleGetGlobal(&address, &size, m->cu_module(), name);
      if (r == CUDA_ERROR_NOT_FOUND)
        fail_cuda(DC_ERROR_NOT_FOUND, r, "the module has no __device__ or __constant__ variable \"%s\"; variables "
                  "in C++ namespaces have mangled names: declare it extern \"C\", or pass \"&%s\" as a name "
                  "expression to dc_compile and use dc_program_lowered_name", name, name);
      check(r, "cuModuleGetGlobal", &m->device());
    }
    Ref<Object> b = make_module_global_buffer(m.share(), address, size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_function_release(dc_function function) { close_handle<Function>(function); }

DC_API dc_status dc_function_name(dc_function function, const char** name) {
  return guarded("dc_function_name", [&] {
    clear_out(name);
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(name, "name");
    *name = f->name().c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_get_info(dc_function function, dc_function_info* info) {
  return guarded("dc_function_get_info", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(info, "info");
    require_struct_size(info->struct_size, static_cast<uint32_t>(sizeof(dc_function_info)), "info",
                        "DC_FUNCTION_INFO_INIT");
    f->fill_info(info);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_attribute(dc_function function, int32_t attribute, int32_t* value) {
  return guarded("dc_function_attribute", [&] {
    clear_out(value);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(value, "value");
    *value = f->attribute(attribute);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_set_attribute(dc_function function, int32_t attribute, int32_t value) {
  return guarded("dc_function_set_attribute", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    f->set_attribute(attribute, value);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_set_cache_config(dc_function function, int32_t preference) {
  return guarded("dc_function_set_cache_config", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    f->set_cache_config(preference);
    return DC_SUCCESS;
  });
}

namespace {
[[noreturn]] void fail_params_unknown(const Function& f) {
  fail(DC_ERROR_NOT_SUPPORTED, "%s: the parameter layout is unknown: the driver (CUDA %s) cannot report it "
       "(cuFuncGetParamInfo needs a driver for CUDA 12.4 or newer) and the module's image did not declare it; "
       "update the NVIDIA driver", f.name().c_str(), cuda_version_string(driver_state().version).c_str());
}
}  // namespace

DC_API dc_status dc_function_param_count(dc_function function, uint32_t* count) {
  return guarded("dc_function_param_count", [&] {
    clear_out(count);
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(count, "count");
    if (!f->params_known()) fail_params_unknown(*f);
    *count = f->param_count();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_param_info(dc_function function, uint32_t index, uint64_t* offset, uint64_t* size) {
  return guarded("dc_function_param_info", [&] {
    clear_out(offset);
    clear_out(size);
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(offset, "offset");
    require_arg(size, "size");
    if (!f->params_known()) fail_params_unknown(*f);
    if (index >= f->param_count())
      fail(DC_ERROR_OUT_OF_RANGE, "%s: index %u is out of range: the kernel has %u parameter%s", f->name().c_str(),
           index, f->param_count(), f->param_count() == 1 ? "" : "s");
    *offset = f->param(index).offset;
    *size = f->param(index).size;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_function_native(dc_function function, void** cu_function) {
  return guarded("dc_function_native", [&] {
    clear_out(cu_function);
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(cu_function, "cu_function");
    *cu_function = f->cu_function();
    return DC_SUCCESS;
  });
}

}  // extern "C"

static_assert(DC_CACHE_PREFER_NONE == CU_FUNC_CACHE_PREFER_NONE);
static_assert(DC_CACHE_PREFER_SHARED == CU_FUNC_CACHE_PREFER_SHARED);
static_assert(DC_CACHE_PREFER_L1 == CU_FUNC_CACHE_PREFER_L1);
static_assert(DC_CACHE_PREFER_EQUAL == CU_FUNC_CACHE_PREFER_EQUAL);
static_assert(DC_JIT_LINE_INFO == 0x1u && DC_JIT_DEBUG == 0x2u);
