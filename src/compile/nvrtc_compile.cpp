#include "compile/nvrtc_compile.h"

#include <vector>

#include "core/error.h"
#include "loader/nvrtc.h"

namespace dc {
namespace {

const char* nvrtc_error_name(const NvrtcApi& api, nvrtcResult r) {
  const char* s = api.nvrtcGetErrorString ? api.nvrtcGetErrorString(r) : nullptr;
  return s ? s : "NVRTC error";
}

// Owns an nvrtcProgram for the length of one compile.
class ProgramGuard {
 public:
  explicit ProgramGuard(const NvrtcApi& api) : api_(api) {}
  ~ProgramGuard() {
    if (program_) api_.nvrtcDestroyProgram(&program_);
  }
  ProgramGuard(const ProgramGuard&) = delete;
  ProgramGuard& operator=(const ProgramGuard&) = delete;
  nvrtcProgram* out() { return &program_; }
  nvrtcProgram get() const { return program_; }

 private:
  const NvrtcApi& api_;
  nvrtcProgram program_ = nullptr;
};

[[noreturn]] void fail_call(const NvrtcApi& api, nvrtcResult r, const char* entry) {
  dc_status status = r == NVRTC_ERROR_OUT_OF_MEMORY ? DC_ERROR_OUT_OF_MEMORY : DC_ERROR_COMPILE;
  fail_nvrtc(status, r, "%s failed with %s (%d)", entry, nvrtc_error_name(api, r), static_cast<int>(r));
}

std::string program_log(const NvrtcApi& api, nvrtcProgram p) {
  size_t size = 0;
  if (api.nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  if (api.nvrtcGetProgramLog(p, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

[[noreturn]] void fail_compile(const NvrtcApi& api, nvrtcResult r, const CompileRequest& req, std::string log) {
  std::string first = first_error_line(log);
  const char* name = req.program_name.c_str();
  set_error_detail(std::move(log));
  switch (r) {
    case NVRTC_ERROR_COMPILATION:
      fail_nvrtc(DC_ERROR_COMPILE, r, "%s did not compile: %s; the full log is in dc_last_error_detail()", name,
                 first.c_str());
    case NVRTC_ERROR_INVALID_OPTION:
      fail_nvrtc(DC_ERROR_INVALID_ARGUMENT, r, "NVRTC rejected an option while compiling %s: %s; check "
                 "options->options, defines, include_paths and std", name, first.c_str());
    case NVRTC_ERROR_BUILTIN_OPERATION_FAILURE:
      fail_nvrtc(DC_ERROR_NO_COMPILER, r, "NVRTC could not run (%s): its libnvrtc-builtins library is probably "
                 "missing or of another version; install the NVRTC of the same CUDA release as %s",
                 nvrtc_error_name(api, r), nvrtc_state().path.c_str());
    case NVRTC_ERROR_OUT_OF_MEMORY:
      fail_nvrtc(DC_ERROR_OUT_OF_MEMORY, r, "NVRTC ran out of host memory compiling %s", name);
    default:
      fail_nvrtc(DC_ERROR_COMPILE, r, "compiling %s failed with %s (%d)%s%s", name, nvrtc_error_name(api, r),
                 static_cast<int>(r), first.empty() ? "" : ": ", first.c_str());
  }
}

std::vector<uint8_t> fetch_output(const NvrtcApi& api, nvrtcProgram p, int32_t kind) {
  size_t size = 0;
  std::vector<uint8_t> image;
  nvrtcResult r;
  switch (kind) {
    case DC_OUTPUT_PTX:
      if ((r = api.nvrtcGetPTXSize(p, &size)) != NVRTC_SUCCESS) fail_call(api, r, "nvrtcGetPTXSize");
      image.resize(size);
      if (size && (r = api.nvrtcGetPTX(p, reinterpret_cast<char*>(image.data()))) != NVRTC_SUCCESS)
        fail_call(api, r, "nvrtcGetPTX");
      // The driver reads PTX up to its NUL: make sure there is exactly one, counted.
      while (!image.empty() && image.back() == 0) image.pop_back();
      image.push_back(0);
      break;
    case DC_OUTPUT_CUBIN:
      if ((r = api.nvrtcGetCUBINSize(p, &size)) != NVRTC_SUCCESS) fail_call(api, r, "nvrtcGetCUBINSize");
      if (size == 0)
        fail(DC_ERROR_COMPILE, "NVRTC produced no CUBIN; a CUBIN needs a real architecture (sm_XY), which "
             "options->arch or the device gives");
      image.resize(size);
      if ((r = api.nvrtcGetCUBIN(p, reinterpret_cast<char*>(image.data()))) != NVRTC_SUCCESS)
        fail_call(api, r, "nvrtcGetCUBIN");
      break;
    default:
      if (!api.nvrtcGetLTOIRSize || !api.nvrtcGetLTOIR)
        fail(DC_ERROR_NOT_SUPPORTED, "NVRTC %d.%d cannot make LTO-IR (nvrtcGetLTOIR needs NVRTC 12.0 or newer)",
             nvrtc_state().major, nvrtc_state().minor);
      if ((r = api.nvrtcGetLTOIRSize(p, &size)) != NVRTC_SUCCESS) fail_call(api, r, "nvrtcGetLTOIRSize");
      if (size == 0) fail(DC_ERROR_COMPILE, "NVRTC produced no LTO-IR");
      image.resize(size);
      if ((r = api.nvrtcGetLTOIR(p, reinterpret_cast<char*>(image.data()))) != NVRTC_SUCCESS)
        fail_call(api, r, "nvrtcGetLTOIR");
      break;
  }
  return image;
}

}  // namespace

std::string first_error_line(const std::string& log) {
  std::string first_nonempty;
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.find("error") != std::string::npos) {
      first_nonempty = line;
      break;
    }
    if (first_nonempty.empty() && !line.empty()) first_nonempty = line;
    start = end + 1;
  }
  constexpr size_t kMax = 400;
  if (first_nonempty.size() > kMax) first_nonempty = first_nonempty.substr(0, kMax) + "...";
  return first_nonempty;
}

std::shared_ptr<const CompiledOutput> run_nvrtc(const CompileRequest& req) {
  const NvrtcApi& api = require_nvrtc();
  std::vector<const char*> header_names, header_sources, args;
  for (const std::string& h : req.header_names) header_names.push_back(h.c_str());
  for (const std::string& h : req.header_sources) header_sources.push_back(h.c_str());
  std::vector<std::string> arg_strings = req.nvrtc_args();
  for (const std::string& a : arg_strings) args.push_back(a.c_str());

  ProgramGuard program(api);
  nvrtcResult r = api.nvrtcCreateProgram(program.out(), req.source.c_str(), req.program_name.c_str(),
                                         static_cast<int>(header_names.size()), header_sources.data(),
                                         header_names.data());
  if (r != NVRTC_SUCCESS) fail_call(api, r, "nvrtcCreateProgram");
  for (const std::string& e : req.name_expressions) {
    r = api.nvrtcAddNameExpression(program.get(), e.c_str());
    if (r != NVRTC_SUCCESS)
      fail_nvrtc(DC_ERROR_INVALID_ARGUMENT, r, "name expression \"%s\" was refused by NVRTC (%s)", e.c_str(),
                 nvrtc_error_name(api, r));
  }
  r = api.nvrtcCompileProgram(program.get(), static_cast<int>(args.size()), args.data());
  std::string log = program_log(api, program.get());
  if (r != NVRTC_SUCCESS) fail_compile(api, r, req, std::move(log));

  auto out = std::make_shared<CompiledOutput>();
  out->kind = req.output;
  out->arch = req.arch;
  out->image = fetch_output(api, program.get(), req.output);
  out->log = std::move(log);
  for (const std::string& e : req.name_expressions) {
    const char* lowered = nullptr;
    r = api.nvrtcGetLoweredName(program.get(), e.c_str(), &lowered);
    if (r != NVRTC_SUCCESS || !lowered)
      fail_nvrtc(DC_ERROR_COMPILE, r, "NVRTC has no lowered name for the name expression \"%s\" (%s); it must "
                 "name a __global__ function or __device__ variable, e.g. \"scale<float>\" or \"&scale<float>\"",
                 e.c_str(), nvrtc_error_name(api, r));
    out->lowered_names.emplace_back(e, lowered);
  }
  return out;
}

}  // namespace dc
