// Entry points: version, status, the last error, initialisation.
#include "dccuda.h"

#include "compile/cache_directory.h"
#include "core/args.h"
#include "core/config.h"
#include "core/error.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "core/handle_table.h"
#include "core/status.h"
#include "loader/driver.h"
#include "loader/nvrtc.h"

using namespace dc;

extern "C" {

DC_API uint32_t dc_version(void) { return DCCUDA_VERSION; }

DC_API const char* dc_status_name(dc_status status) { return status_name(status); }

DC_API const char* dc_cuda_error_name(int32_t cuda_result) { return cuda_result_name(cuda_result); }

DC_API const char* dc_last_error_message(void) { return thread_error().message.c_str(); }

DC_API dc_status dc_last_error_status(void) { return thread_error().status; }

DC_API int32_t dc_last_error_cuda(void) { return thread_error().cuda; }

DC_API int32_t dc_last_error_nvrtc(void) { return thread_error().nvrtc; }

DC_API const char* dc_last_error_detail(void) { return thread_error().detail.c_str(); }

DC_API dc_status dc_init(const dc_init_options* options) {
  return guarded("dc_init", [&] {
    forbid_after_fork();
    install_config(options);
    nvrtc_state();  // loaded now so that a broken NVRTC shows at init, not later
    require_driver();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_driver_version(int32_t* version) {
  return guarded("dc_driver_version", [&] {
    clear_out(version);
    forbid_after_fork();
    require_arg(version, "version");
    require_driver();
    *version = driver_state().version;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_driver_library(const char** path) {
  return guarded("dc_driver_library", [&] {
    clear_out(path);
    forbid_after_fork();
    require_arg(path, "path");
    require_driver();
    *path = driver_state().path.c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_nvrtc_version(int32_t* major, int32_t* minor) {
  return guarded("dc_nvrtc_version", [&] {
    clear_out(major);
    clear_out(minor);
    forbid_after_fork();
    require_arg(major, "major");
    require_arg(minor, "minor");
    require_nvrtc();
    *major = nvrtc_state().major;
    *minor = nvrtc_state().minor;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_config_warnings(const char** warnings) {
  return guarded("dc_config_warnings", [&] {
    clear_out(warnings);
    forbid_after_fork();
    require_arg(warnings, "warnings");
    // Settled once: the settings' warnings, then the cache directory's.
    static const std::string* text = [] {
      std::string all;
      for (const std::string& w : config().warnings) all += w + "\n";
      if (!disk_cache_warning().empty()) all += disk_cache_warning() + "\n";
      return new std::string(all);
    }();
    *warnings = text->c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_handle_count(int32_t handle_type, uint64_t* count) {
  return guarded("dc_handle_count", [&] {
    clear_out(count);
    forbid_after_fork();
    require_arg(count, "count");
    if (handle_type < DC_HANDLE_DEVICE || handle_type > DC_HANDLE_COMM)
      fail(DC_ERROR_INVALID_ARGUMENT, "handle_type %d is not a DC_HANDLE_* value (%d..%d)", handle_type,
           DC_HANDLE_DEVICE, DC_HANDLE_COMM);
    *count = HandleTable::live_count(static_cast<HandleType>(handle_type));
    return DC_SUCCESS;
  });
}

}  // extern "C"

static_assert(DC_HANDLE_DEVICE == static_cast<int>(HandleType::Device));
static_assert(DC_HANDLE_BUFFER == static_cast<int>(HandleType::Buffer));
static_assert(DC_HANDLE_STREAM == static_cast<int>(HandleType::Stream));
static_assert(DC_HANDLE_EVENT == static_cast<int>(HandleType::Event));
static_assert(DC_HANDLE_PROGRAM == static_cast<int>(HandleType::Program));
static_assert(DC_HANDLE_MODULE == static_cast<int>(HandleType::Module));
static_assert(DC_HANDLE_FUNCTION == static_cast<int>(HandleType::Function));
static_assert(DC_HANDLE_LAUNCH == static_cast<int>(HandleType::Launch));
static_assert(DC_HANDLE_GRAPH == static_cast<int>(HandleType::Graph));
static_assert(DC_HANDLE_QUEUE == static_cast<int>(HandleType::Queue));
static_assert(DC_HANDLE_CONTROL == static_cast<int>(HandleType::Control));
static_assert(DC_HANDLE_POOL == static_cast<int>(HandleType::Pool));
static_assert(DC_HANDLE_POOL + 1 == DC_HANDLE_LIBRARY);
static_assert(DC_HANDLE_LIBRARY == static_cast<int>(HandleType::Library));
static_assert(DC_HANDLE_BLAS == static_cast<int>(HandleType::Blas));
static_assert(DC_HANDLE_FFT_PLAN == static_cast<int>(HandleType::FftPlan));
static_assert(DC_HANDLE_COMM == static_cast<int>(HandleType::Comm));
static_assert(DC_HANDLE_COMM + 1 == kHandleTypeCount);
