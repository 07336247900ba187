#include "compile/link_request.h"

#include <cstring>

#include "compile/arch.h"
#include "compile/input_file.h"
#include "compile/toolkit.h"
#include "core/args.h"
#include "core/error.h"
#include "core/handle_table.h"
#include "device/device.h"

namespace dc {
namespace {

constexpr uint32_t kKnownFlags = DC_LINK_LTO | DC_LINK_DEBUG | DC_LINK_LINE_INFO | DC_LINK_USE_DRIVER |
                                 DC_LINK_NO_CACHE;
// Far above any real link, low enough that a garbage count is reported
// instead of walking wild memory for long.
constexpr uint32_t kMaxInputs = 4096;
constexpr uint32_t kMaxOptions = 65536;

bool starts_with(const std::vector<uint8_t>& b, const void* magic, size_t n) {
  return b.size() >= n && std::memcmp(b.data(), magic, n) == 0;
}

// A cheap look at the first bytes, so that bytes of the wrong kind are
// refused with dccuda's words before the linker sees them. Kinds without a
// fixed signature (PTX text, a host object of another system) pass.
void check_signature(const LinkInput& in, const std::string& arg) {
  static const uint8_t kElf[] = {0x7f, 'E', 'L', 'F'};
  static const uint8_t kFatbin[] = {0x50, 0xed, 0x55, 0xba};
  static const uint8_t kLtoIr[] = {0xed, 0x43, 0x4e, 0x7f};
  static const char kArchive[] = "!<arch>\n";
  const std::vector<uint8_t>& b = in.bytes;
  bool ok = true;
  const char* expected = "";
  switch (in.kind) {
    case DC_LINK_INPUT_CUBIN:
      ok = starts_with(b, kElf, 4), expected = "an ELF image (0x7f 'E' 'L' 'F')";
      break;
    case DC_LINK_INPUT_FATBIN:
      ok = starts_with(b, kFatbin, 4), expected = "a fatbin (magic 0xBA55ED50)";
      break;
    case DC_LINK_INPUT_LTOIR:
      ok = starts_with(b, kLtoIr, 4), expected = "LTO-IR (magic 0x7F4E43ED, NVRTC's DC_OUTPUT_LTOIR)";
      break;
    case DC_LINK_INPUT_LIBRARY:
      ok = starts_with(b, kArchive, 8), expected = "an archive (\"!<arch>\")";
      break;
    case DC_LINK_INPUT_PTX:
      ok = !starts_with(b, kElf, 4) && !starts_with(b, kFatbin, 4) && !starts_with(b, kLtoIr, 4),
      expected = "PTX text (it is a binary image: give its kind)";
      break;
    default:
      break;
  }
  if (!ok)
    fail(DC_ERROR_INVALID_IMAGE, "%s (%s) is not %s; give the kind the bytes are", arg.c_str(),
         link_input_kind_name(in.kind), expected);
}

LinkInput read_input(const dc_link_input& i, uint32_t index) {
  std::string arg = "inputs[" + std::to_string(index) + "]";
  if (i.kind < DC_LINK_INPUT_CUBIN || i.kind > DC_LINK_INPUT_DEVICE_RUNTIME)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s.kind is %d; use a DC_LINK_INPUT_* kind (0 to 7)", arg.c_str(), i.kind);
  if (i.reserved != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s.reserved is %u; it must be 0", arg.c_str(), i.reserved);
  int sources = (i.program != nullptr) + (i.data != nullptr || i.size != 0) + (i.path != nullptr);
  bool runtime = i.kind == DC_LINK_INPUT_DEVICE_RUNTIME;
  if (i.kind == DC_LINK_INPUT_PROGRAM ? (i.program == nullptr || sources != 1)
                                      : (i.program != nullptr || sources > 1 || (sources == 0 && !runtime)))
    fail(DC_ERROR_INVALID_ARGUMENT, "%s gives %d sources of bytes (program %s, data %s, size %llu, path %s); give "
         "exactly one: program with DC_LINK_INPUT_PROGRAM, else data and size, or path%s", arg.c_str(), sources,
         i.program ? "set" : "NULL", i.data ? "set" : "NULL", static_cast<unsigned long long>(i.size),
         i.path ? "set" : "NULL", runtime ? " (or none: the toolkit's device runtime)" : "");
  if (i.path && !*i.path) fail(DC_ERROR_INVALID_ARGUMENT, "%s.path is empty; give a file's path or NULL", arg.c_str());
  if (i.data && i.size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "%s.size is 0; give the size of data in bytes", arg.c_str());
  if (!i.data && i.size != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s.data is NULL but its size is %llu; pass the bytes", arg.c_str(),
         static_cast<unsigned long long>(i.size));

  LinkInput in;
  in.kind = runtime ? DC_LINK_INPUT_LIBRARY : i.kind;
  if (i.kind == DC_LINK_INPUT_PROGRAM) {
    std::string what = arg + ".program";
    Pinned<Program> p = pin<Program>(i.program, what.c_str());
    in.program = p->shared_output();
    in.kind = in.program->kind;  // DC_OUTPUT_* and DC_LINK_INPUT_* share 0..2
  } else if (i.data) {
    const uint8_t* b = static_cast<const uint8_t*>(i.data);
    in.bytes.assign(b, b + i.size);
  } else {
    std::string path = i.path ? std::string(i.path) : toolkit_device_runtime();
    in.bytes = read_input_file(path, arg + ".path");
    if (!i.name) in.name = path;
  }
  if (i.name) in.name = i.name;
  if (in.name.empty()) in.name = "input " + std::to_string(index);
  if (!in.program) check_signature(in, arg);
  return in;
}

}  // namespace

const char* link_input_kind_name(int32_t kind) noexcept {
  switch (kind) {
    case DC_LINK_INPUT_CUBIN: return "CUBIN";
    case DC_LINK_INPUT_PTX: return "PTX";
    case DC_LINK_INPUT_LTOIR: return "LTO-IR";
    case DC_LINK_INPUT_FATBIN: return "fatbin";
    case DC_LINK_INPUT_OBJECT: return "host object";
    case DC_LINK_INPUT_LIBRARY: return "library";
    case DC_LINK_INPUT_PROGRAM: return "program";
    case DC_LINK_INPUT_DEVICE_RUNTIME: return "device runtime";
    default: return "unknown";
  }
}

bool LinkRequest::has_ltoir() const noexcept {
  for (const LinkInput& in : inputs)
    if (in.kind == DC_LINK_INPUT_LTOIR) return true;
  return false;
}

std::vector<std::string> LinkRequest::nvjitlink_args() const {
  std::vector<std::string> a;
  a.push_back("-arch=sm_" + std::to_string(arch));
  if (flags & DC_LINK_LTO) a.emplace_back("-lto");
  if (optimization_level >= 0) a.push_back("-O" + std::to_string(optimization_level));
  if (flags & DC_LINK_DEBUG) a.emplace_back("-g");
  if (flags & DC_LINK_LINE_INFO) a.emplace_back("-lineinfo");
  if (max_registers > 0) a.push_back("-maxrregcount=" + std::to_string(max_registers));
  a.insert(a.end(), options.begin(), options.end());
  return a;
}

LinkRequest make_link_request(const dc_link_input* inputs, uint32_t count, const dc_link_options* options,
                              const Device* device) {
  // Count first: NULL with a count of 0 is an empty array (the DC_ARRAY rule), refused as empty.
  if (count == 0) fail(DC_ERROR_INVALID_ARGUMENT, "count is 0; give at least one input to link");
  require_arg(inputs, "inputs");
  if (count > kMaxInputs)
    fail(DC_ERROR_INVALID_ARGUMENT, "count is %u, more than the %u inputs allowed; check the count", count, kMaxInputs);
  dc_link_options defaults = DC_LINK_OPTIONS_INIT;
  const dc_link_options& o = options ? *options : defaults;
  if (options) require_struct_size(options->struct_size, kLinkOptionsV1Size, "options", "DC_LINK_OPTIONS_INIT");
  require_flags(o.flags, kKnownFlags, "options->flags", "DC_LINK_*");
  if (o.optimization_level < -1 || o.optimization_level > 3)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->optimization_level is %d; use 0 to 3, or -1 for the linker's default",
         o.optimization_level);
  if (o.max_registers < 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->max_registers is %d; use 0 for no limit or a positive count",
         o.max_registers);
  if (o.num_options > kMaxOptions)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->num_options is %u, more than the %u allowed; check the count",
         o.num_options, kMaxOptions);
  if (o.num_options && !o.options)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->options is NULL but num_options is %u; pass the array or a count of 0",
         o.num_options);

  LinkRequest r;
  for (uint32_t i = 0; i < o.num_options; ++i) {
    if (!o.options[i] || !*o.options[i])
      fail(DC_ERROR_INVALID_ARGUMENT, "options->options[%u] is %s; every entry must be an option", i,
           o.options[i] ? "empty" : "NULL");
    r.options.emplace_back(o.options[i]);
  }
  if (device) r.device_arch = device->limits().compute_major * 10 + device->limits().compute_minor;
  if (o.arch != 0) {
    if (o.arch < 10 || o.arch > 9999)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->arch is %d; give 10 * major + minor (90 for sm_90) or 0 for the "
           "device's own", o.arch);
    r.arch = o.arch;
  } else if (device) {
    r.arch = r.device_arch;
  } else {
    fail(DC_ERROR_INVALID_ARGUMENT, "linking needs a target architecture: pass a device, or set options->arch "
         "(e.g. 90 for sm_90)");
  }
  r.flags = o.flags & ~DC_LINK_NO_CACHE;
  r.optimization_level = o.optimization_level;
  r.max_registers = o.max_registers;
  r.inputs.reserve(count);
  for (uint32_t i = 0; i < count; ++i) r.inputs.push_back(read_input(inputs[i], i));
  if (r.has_ltoir()) r.flags |= DC_LINK_LTO;
  // Kept apart from `flags`, which the cache key hashes: caching is no part of the output.
  if (o.flags & DC_LINK_NO_CACHE) r.no_cache = true;
  return r;
}

}  // namespace dc
