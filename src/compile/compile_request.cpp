#include "compile/compile_request.h"

#include "compile/arch.h"
#include "compile/toolkit.h"
#include "core/args.h"
#include "core/error.h"
#include "device/device.h"

namespace dc {
namespace {

constexpr uint32_t kKnownFlags = DC_COMPILE_FAST_MATH | DC_COMPILE_LINE_INFO | DC_COMPILE_DEVICE_DEBUG |
                                 DC_COMPILE_RELOCATABLE | DC_COMPILE_ARCH_SPECIFIC | DC_COMPILE_NO_CACHE |
                                 DC_COMPILE_TOOLKIT_HEADERS;
// A sanity bound on every list: far above any real use, low enough that a
// garbage count is reported instead of walking wild memory for long.
constexpr uint32_t kMaxListLength = 65536;

std::vector<std::string> copy_strings(uint32_t count, const char* const* items, const char* name, bool allow_empty) {
  std::vector<std::string> out;
  if (count == 0) return out;
  if (count > kMaxListLength)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s has %u entries, more than the %u allowed; check the count", name, count,
         kMaxListLength);
  if (!items) fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL but its count is %u; pass the array or a count of 0", name, count);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!items[i]) fail(DC_ERROR_INVALID_ARGUMENT, "%s[%u] is NULL; every entry must be a string", name, i);
    if (!allow_empty && !*items[i]) fail(DC_ERROR_INVALID_ARGUMENT, "%s[%u] is empty", name, i);
    out.emplace_back(items[i]);
  }
  return out;
}

}  // namespace

std::vector<std::string> CompileRequest::nvrtc_args() const {
  std::vector<std::string> args;
  args.reserve(options.size() + 1);
  if (arch) {
    std::string a = (output == DC_OUTPUT_CUBIN ? "sm_" : "compute_") + std::to_string(arch);
    if (arch_specific) a += 'a';
    args.push_back("--gpu-architecture=" + a);
  }
  args.insert(args.end(), options.begin(), options.end());
  return args;
}

CompileRequest make_compile_request(const char* source, const char* program_name, const dc_compile_options* options,
                                    const Device* device) {
  require_arg(source, "source");
  dc_compile_options defaults = DC_COMPILE_OPTIONS_INIT;
  const dc_compile_options& o = options ? *options : defaults;
  if (options) require_struct_size(options->struct_size, kCompileOptionsV1Size, "options", "DC_COMPILE_OPTIONS_INIT");
  if (o.output != DC_OUTPUT_CUBIN && o.output != DC_OUTPUT_PTX && o.output != DC_OUTPUT_LTOIR)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->output is %d; use DC_OUTPUT_CUBIN (0), DC_OUTPUT_PTX (1) or "
         "DC_OUTPUT_LTOIR (2)", o.output);
  require_flags(o.flags, kKnownFlags, "options->flags", "DC_COMPILE_*");
  if (o.max_registers < 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->max_registers is %d; use 0 for no limit or a positive count",
         o.max_registers);

  CompileRequest r;
  r.source = source;
  r.program_name = program_name && *program_name ? program_name : "dccuda.cu";
  r.output = o.output;
  r.flags = o.flags;
  std::vector<std::string> raw = copy_strings(o.num_options, o.options, "options->options", false);
  std::vector<std::string> defines = copy_strings(o.num_defines, o.defines, "options->defines", false);
  for (size_t i = 0; i < defines.size(); ++i)
    if (defines[i][0] == '=')
      fail(DC_ERROR_INVALID_ARGUMENT, "options->defines[%zu] is \"%s\", which has no name; use \"NAME\" or "
           "\"NAME=VALUE\"", i, defines[i].c_str());
  r.include_paths = copy_strings(o.num_include_paths, o.include_paths, "options->include_paths", false);
  r.header_names = copy_strings(o.num_headers, o.header_names, "options->header_names", false);
  r.header_sources = copy_strings(o.num_headers, o.header_sources, "options->header_sources", true);
  r.name_expressions = copy_strings(o.num_name_expressions, o.name_expressions, "options->name_expressions", false);
  if (o.std && !*o.std) fail(DC_ERROR_INVALID_ARGUMENT, "options->std is empty; use NULL for NVRTC's default or e.g. \"c++17\"");

  r.arch_specific = (o.flags & DC_COMPILE_ARCH_SPECIFIC) != 0;
  r.arch = requested_arch(o.arch, o.output, device);
  if (o.arch == 0 && device) r.device_ordinal = device->ordinal();
  if (r.arch_specific && r.arch == 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "DC_COMPILE_ARCH_SPECIFIC needs an architecture: pass a device or set "
         "options->arch");

  std::vector<std::string>& a = r.options;
  if (r.output == DC_OUTPUT_LTOIR) a.emplace_back("-dlto");
  if (o.std) a.push_back(std::string("--std=") + o.std);
  if (o.flags & DC_COMPILE_FAST_MATH) a.emplace_back("--use_fast_math");
  if (o.flags & DC_COMPILE_LINE_INFO) a.emplace_back("--generate-line-info");
  if (o.flags & DC_COMPILE_DEVICE_DEBUG) a.emplace_back("--device-debug");
  if (o.flags & DC_COMPILE_RELOCATABLE) a.emplace_back("--relocatable-device-code=true");
  if (o.max_registers > 0) a.push_back("--maxrregcount=" + std::to_string(o.max_registers));
  for (const std::string& d : defines) a.push_back("--define-macro=" + d);
  for (const std::string& p : r.include_paths) a.push_back("--include-path=" + p);
  // After the caller's own paths, which win. Not in r.include_paths: the
  // include scan would read hundreds of toolkit headers for every key; the
  // folders are in the options, and so in the key.
  if (o.flags & DC_COMPILE_TOOLKIT_HEADERS)
    for (const std::string& p : toolkit_include_dirs()) a.push_back("--include-path=" + p);
  for (std::string& raw_option : raw) a.push_back(std::move(raw_option));
  return r;
}

}  // namespace dc
