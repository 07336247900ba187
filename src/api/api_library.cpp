// Entry points: context-independent libraries (dc_library).
#include "dccuda.h"

#include <vector>

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "module/function.h"
#include "module/library.h"
#include "module/module_file.h"
#include "stream/host_callback.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_library_load(const void* image, uint64_t size, const dc_module_options* options,
                                 dc_library* library) {
  return guarded("dc_library_load", [&] {
    clear_out(library);
    forbid_after_fork();
    forbid_in_host_callback();
    require_arg(library, "library");
    Ref<Library> l = Library::load(image, static_cast<size_t>(size), options);
    *library = issue_handle<dc_library>(l.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_library_load_file(const char* path, const dc_module_options* options, dc_library* library) {
  return guarded("dc_library_load_file", [&] {
    clear_out(library);
    forbid_after_fork();
    forbid_in_host_callback();
    require_arg(path, "path");
    require_arg(library, "library");
    std::vector<uint8_t> bytes = read_module_file(path);
    Ref<Library> l = Library::load(bytes.data(), bytes.size(), options);
    *library = issue_handle<dc_library>(l.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_library_release(dc_library library) { close_handle<Library>(library); }

DC_API dc_status dc_library_function_count(dc_library library, uint32_t* count) {
  return guarded("dc_library_function_count", [&] {
    clear_out(count);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Library> l = pin<Library>(library, "library");
    require_arg(count, "count");
    *count = static_cast<uint32_t>(l->function_names().size());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_library_function_name(dc_library library, uint32_t index, const char** name) {
  return guarded("dc_library_function_name", [&] {
    clear_out(name);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Library> l = pin<Library>(library, "library");
    require_arg(name, "name");
    const std::vector<std::string>& names = l->function_names();
    if (index >= names.size())
      fail(DC_ERROR_OUT_OF_RANGE, "index %u is out of range: the library has %zu kernel%s", index, names.size(),
           names.size() == 1 ? "" : "s");
    *name = names[index].c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_library_get_function(dc_library library, dc_device device, const char* name,
                                         dc_function* function) {
  return guarded("dc_library_get_function", [&] {
    clear_out(function);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Library> l = pin<Library>(library, "library");
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(name, "name");
    require_arg(function, "function");
    Ref<Function> f = l->get_function(d.share(), name);
    *function = issue_handle<dc_function>(f.get());
    return DC_SUCCESS;
  });
}

}  // extern "C"
