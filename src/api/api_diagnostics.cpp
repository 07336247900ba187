// Entry points: seeing inside (the log hook, live handles, telemetry, profiler ranges).
#include "dccuda.h"

#include <cstring>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/error.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "core/handle_report.h"
#include "core/handle_table.h"
#include "core/log.h"
#include "device/device.h"
#include "device/telemetry.h"
#include "device/cuda_check.h"
#include "launch/launch_trace.h"
#include "loader/driver.h"
#include "loader/nvml.h"
#include "loader/nvtx.h"
#include "platform/process.h"
#include "stream/stream.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_set_log_callback(int32_t min_level, dc_log_fn fn, void* user_data) {
  return guarded("dc_set_log_callback", [&] {
    forbid_after_fork();
    set_log_callback(min_level, fn, user_data);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_handle_report(char* text, uint64_t capacity, uint64_t* length) {
  return guarded("dc_handle_report", [&] {
    clear_out(length);
    forbid_after_fork();
    require_arg(length, "length");
    if (!text && capacity)
      fail(DC_ERROR_INVALID_ARGUMENT, "text is NULL but capacity is %llu; pass a buffer of capacity bytes, or NULL "
           "and 0 to ask for the length", static_cast<unsigned long long>(capacity));
    std::string report = handle_report_text(HandleTable::live_handles(), steady_now_ns());
    // As every out, *length stays 0 on failure: the message gives the size.
    if (text && capacity <= report.size())
      fail(DC_ERROR_OUT_OF_RANGE, "capacity %llu is too small for the report: it is %zu bytes and a terminating NUL; "
           "pass a buffer of at least %zu bytes (text NULL and capacity 0 ask for the length)",
           static_cast<unsigned long long>(capacity), report.size(), report.size() + 1);
    *length = report.size();
    if (!text) return DC_SUCCESS;
    std::memcpy(text, report.data(), report.size());
    text[report.size()] = '\0';
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_handle_visit(dc_handle_fn fn, void* user_data) {
  return guarded("dc_handle_visit", [&] {
    forbid_after_fork();
    if (!fn) fail(DC_ERROR_INVALID_ARGUMENT, "fn is NULL; pass the function to call for each live handle");
    std::vector<LiveHandle> handles = HandleTable::live_handles();
    uint64_t now = steady_now_ns();
    for (const LiveHandle& h : handles) {
      dc_handle_info info = handle_info(h, now);
      fn(user_data, &info);
    }
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_telemetry_get(dc_device device, dc_device_telemetry* telemetry) {
  return guarded("dc_device_telemetry_get", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(telemetry, "telemetry");
    if (telemetry->struct_size < kDeviceTelemetryV1Size)
      fail(DC_ERROR_INVALID_ARGUMENT, "telemetry->struct_size is %u, smaller than any published dc_device_telemetry "
           "(%u); initialise it with DC_DEVICE_TELEMETRY_INIT", telemetry->struct_size, kDeviceTelemetryV1Size);
    device_telemetry(*d, telemetry);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_telemetry_library(const char** path) {
  return guarded("dc_telemetry_library", [&] {
    clear_out(path);
    forbid_after_fork();
    require_arg(path, "path");
    const NvmlState& s = nvml_state();
    if (s.status != DC_SUCCESS) fail(s.status, "%s", s.message.c_str());
    *path = s.path.c_str();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_range_push(const char* name) {
  return guarded("dc_range_push", [&] {
    forbid_after_fork();
    require_arg(name, "name");
    nvtx_range_push(name);
    return DC_SUCCESS;
  });
}

DC_API void dc_range_pop(void) {
  if (!platform::forked_child()) nvtx_range_pop();
}

DC_API dc_status dc_mark(const char* name) {
  return guarded("dc_mark", [&] {
    forbid_after_fork();
    require_arg(name, "name");
    nvtx_mark(name);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_set_name(dc_stream stream, const char* name) {
  return guarded("dc_stream_set_name", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(name, "name");
    nvtx_name_stream(s->handle(), name);
    return DC_SUCCESS;
  });
}

namespace {
dc_status profiler_switch(const char* call, dc_device device, bool start) {
  return guarded(call, [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    d->check_usable();
    ContextScope bind(*d);
    const DriverApi& api = driver_api();
    if (start) check(api.cuProfilerStart(), "cuProfilerStart", d.get());
    else check(api.cuProfilerStop(), "cuProfilerStop", d.get());
    return DC_SUCCESS;
  });
}
}  // namespace

DC_API dc_status dc_profiler_start(dc_device device) { return profiler_switch("dc_profiler_start", device, true); }

DC_API dc_status dc_profiler_stop(dc_device device) { return profiler_switch("dc_profiler_stop", device, false); }

DC_API dc_status dc_set_launch_trace(dc_launch_trace_fn on_launch, dc_launch_trace_fn on_complete, void* user_data) {
  return guarded("dc_set_launch_trace", [&] {
    forbid_after_fork();
    set_launch_trace(on_launch, on_complete, user_data);
    return DC_SUCCESS;
  });
}

}  // extern "C"
