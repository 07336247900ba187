#include "core/handle_report.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "platform/process.h"

namespace dc {
namespace {

const char* buffer_kind_name(int32_t kind) noexcept {
  switch (kind) {
    case DC_BUFFER_DEVICE: return "device memory";
    case DC_BUFFER_PINNED: return "pinned host memory";
    case DC_BUFFER_MANAGED: return "managed memory";
    case DC_BUFFER_WRAPPED_DEVICE: return "wrapped device memory";
    case DC_BUFFER_REGISTERED_HOST: return "registered host memory";
    case DC_BUFFER_MODULE_GLOBAL: return "a module's global";
  }
  return "memory";
}

void copy_name(char (&to)[64], const char* from) noexcept {
  std::strncpy(to, from ? from : "", sizeof to - 1);
  to[sizeof to - 1] = '\0';
}

void leak_report_at_exit() {
  if (platform::forked_child()) return;  // the handles are the parent's
  std::vector<LiveHandle> handles;
  try {
    handles = HandleTable::live_handles();
    if (handles.empty()) return;
    std::string text = handle_report_text(handles, steady_now_ns());
    std::fprintf(stderr, "dccuda: leak report at exit (DCCUDA_LEAK_REPORT / DC_INIT_REPORT_LEAKS): %zu handle%s never "
                 "released:\n%s", handles.size(), handles.size() == 1 ? " was" : "s were", text.c_str());
    std::fflush(stderr);
  } catch (...) {
    std::fputs("dccuda: leak report at exit: out of memory while writing it\n", stderr);
  }
}

}  // namespace

dc_handle_info handle_info(const LiveHandle& h, uint64_t now_ns) noexcept {
  dc_handle_info info{};
  info.struct_size = sizeof info;
  info.handle_type = static_cast<int32_t>(h.type);
  info.handle = h.handle;
  info.age_ns = now_ns > h.created_ns ? now_ns - h.created_ns : 0;
  info.thread_id = h.thread_id;
  copy_name(info.created_by, h.created_by);
  info.device_ordinal = h.description.device_ordinal;
  info.buffer_kind = h.description.buffer_kind;
  info.buffer_size = h.description.size;
  info.buffer_view = h.description.view ? 1u : 0u;
  return info;
}

std::string handle_report_text(const std::vector<LiveHandle>& handles, uint64_t now_ns) {
  if (handles.empty()) return std::string();
  uint64_t per_type[kHandleTypeCount] = {};
  for (const LiveHandle& h : handles) ++per_type[static_cast<int>(h.type)];
  std::string out = strf("%zu live handle%s:", handles.size(), handles.size() == 1 ? "" : "s");
  const char* separator = " ";
  for (int t = 1; t < kHandleTypeCount; ++t) {
    if (!per_type[t]) continue;
    out += strf("%s%llu %s", separator, static_cast<unsigned long long>(per_type[t]),
                handle_type_name(static_cast<HandleType>(t)));
    separator = ", ";
  }
  out += "\n";
  for (const LiveHandle& h : handles) {
    uint64_t age = now_ns > h.created_ns ? now_ns - h.created_ns : 0;
    out += strf("  %s 0x%016llx  age %.3f s  made by %s on thread %llu", handle_type_name(h.type),
                static_cast<unsigned long long>(h.handle), static_cast<double>(age) / 1e9,
                *h.created_by ? h.created_by : "(unknown call)", h.thread_id);
    if (h.description.device_ordinal >= 0) out += strf("  device %d", h.description.device_ordinal);
    if (h.type == HandleType::Buffer)
      out += strf("  %llu bytes of %s%s", static_cast<unsigned long long>(h.description.size),
                  buffer_kind_name(h.description.buffer_kind), h.description.view ? " (a view)" : "");
    out += "\n";
  }
  return out;
}

void arm_leak_report() noexcept {
  static std::atomic<bool> armed{false};
  if (armed.exchange(true)) return;
  // Registered after dccuda's own statics were made, so it runs before they
  // are destroyed (atexit runs in reverse order of registration).
  if (std::atexit(leak_report_at_exit) != 0) armed = false;
}

}  // namespace dc
