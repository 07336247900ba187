#include "module/jit_options.h"

#include <cstring>

#include "core/args.h"
#include "core/error.h"

namespace dc {
namespace {

constexpr uint32_t kKnownJitFlags = DC_JIT_LINE_INFO | DC_JIT_DEBUG;
constexpr uint32_t kMaxLogSize = 64u << 20;

void* option_value(uintptr_t v) { return reinterpret_cast<void*>(v); }

}  // namespace

LoadOptions validate_load_options(const dc_module_options* o) {
  LoadOptions out;
  if (!o) return out;
  require_struct_size(o->struct_size, kModuleOptionsV1Size, "options", "DC_MODULE_OPTIONS_INIT");
  require_flags(o->flags, kKnownJitFlags, "options->flags", "DC_JIT_*");
  if (o->optimization_level < -1 || o->optimization_level > 4)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->optimization_level is %d; use 0..4, or -1 for the driver's default",
         o->optimization_level);
  if (o->max_registers < 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->max_registers is %d; use 0 for no limit or a positive count",
         o->max_registers);
  if (o->log_size > kMaxLogSize)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->log_size is %u bytes, more than the %u allowed", o->log_size,
         kMaxLogSize);
  if (o->reserved != 0) fail(DC_ERROR_INVALID_ARGUMENT, "options->reserved is %u; it must be 0", o->reserved);
  out.flags = o->flags;
  out.optimization_level = o->optimization_level;
  out.max_registers = o->max_registers;
  if (o->log_size) out.log_size = o->log_size;
  return out;
}

std::string trimmed(const LogBuffer& buffer) {
  std::string s(buffer.data.get(), strnlen(buffer.data.get(), buffer.size));
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

JitOptionList jit_option_list(const LoadOptions& o, bool ptx, LogBuffer& info_log, LogBuffer& error_log) {
  JitOptionList l;
  l.keys = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  l.values = {info_log.data.get(), option_value(info_log.size), error_log.data.get(), option_value(error_log.size)};
  if (ptx) {
    // ptxas's resource report ("Used 12 registers...") is the useful part of the info log.
    l.keys.push_back(CU_JIT_LOG_VERBOSE);
    l.values.push_back(option_value(1));
  }
  if (o.flags & DC_JIT_LINE_INFO) {
    l.keys.push_back(CU_JIT_GENERATE_LINE_INFO);
    l.values.push_back(option_value(1));
  }
  if (o.flags & DC_JIT_DEBUG) {
    l.keys.push_back(CU_JIT_GENERATE_DEBUG_INFO);
    l.values.push_back(option_value(1));
  }
  if (o.optimization_level >= 0) {
    l.keys.push_back(CU_JIT_OPTIMIZATION_LEVEL);
    l.values.push_back(option_value(static_cast<uintptr_t>(o.optimization_level)));
  }
  if (o.max_registers > 0) {
    l.keys.push_back(CU_JIT_MAX_REGISTERS);
    l.values.push_back(option_value(static_cast<uintptr_t>(o.max_registers)));
  }
  return l;
}

std::string jit_log_error_line(const std::string& log) {
  size_t nl = log.find('\n');
  std::string line = log.substr(0, nl);
  // Prefer the line that names the error.
  for (size_t start = 0; start < log.size();) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string l = log.substr(start, end - start);
    if (l.find("error") != std::string::npos || l.find("fatal") != std::string::npos) return l;
    start = end + 1;
  }
  return line;
}

}  // namespace dc
