#include "compile/nvjitlink_link.h"

#include "compile/nvrtc_compile.h"
#include "core/error.h"
#include "loader/nvjitlink.h"

namespace dc {
namespace {

// nvJitLink.h's names of its results (it has no function that names them).
const char* result_name(nvJitLinkResult r) {
  static const char* const kNames[] = {
      "NVJITLINK_SUCCESS", "NVJITLINK_ERROR_UNRECOGNIZED_OPTION", "NVJITLINK_ERROR_MISSING_ARCH",
      "NVJITLINK_ERROR_INVALID_INPUT", "NVJITLINK_ERROR_PTX_COMPILE", "NVJITLINK_ERROR_NVVM_COMPILE",
      "NVJITLINK_ERROR_INTERNAL", "NVJITLINK_ERROR_THREADPOOL", "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
      "NVJITLINK_ERROR_FINALIZE", "NVJITLINK_ERROR_NULL_INPUT", "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
      "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE", "NVJITLINK_ERROR_ARCH_MISMATCH", "NVJITLINK_ERROR_OUTDATED_LIBRARY",
      "NVJITLINK_ERROR_MISSING_FATBIN", "NVJITLINK_ERROR_UNRECOGNIZED_ARCH", "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
      "NVJITLINK_ERROR_LTO_NOT_ENABLED"};
  int i = static_cast<int>(r);
  return i >= 0 && i < static_cast<int>(sizeof kNames / sizeof kNames[0]) ? kNames[i] : "an nvJitLink error";
}

class HandleGuard {
 public:
  explicit HandleGuard(const NvJitLinkApi& api) : api_(api) {}
  ~HandleGuard() {
    if (handle_) api_.nvJitLinkDestroy(&handle_);
  }
  HandleGuard(const HandleGuard&) = delete;
  HandleGuard& operator=(const HandleGuard&) = delete;
  nvJitLinkHandle* out() { return &handle_; }
  nvJitLinkHandle get() const { return handle_; }

 private:
  const NvJitLinkApi& api_;
  nvJitLinkHandle handle_ = nullptr;
};

using LogSize = nvJitLinkResult (*)(nvJitLinkHandle, size_t*);
using LogText = nvJitLinkResult (*)(nvJitLinkHandle, char*);

std::string read_log(nvJitLinkHandle h, LogSize size_of, LogText text_of) {
  size_t size = 0;
  if (!h || size_of(h, &size) != NVJITLINK_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  if (text_of(h, log.data()) != NVJITLINK_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == '\r')) log.pop_back();
  return log;
}

nvJitLinkInputType input_type(int32_t kind) {
  switch (kind) {
    case DC_LINK_INPUT_CUBIN: return NVJITLINK_INPUT_CUBIN;
    case DC_LINK_INPUT_PTX: return NVJITLINK_INPUT_PTX;
    case DC_LINK_INPUT_LTOIR: return NVJITLINK_INPUT_LTOIR;
    case DC_LINK_INPUT_FATBIN: return NVJITLINK_INPUT_FATBIN;
    case DC_LINK_INPUT_OBJECT: return NVJITLINK_INPUT_OBJECT;
    default: return NVJITLINK_INPUT_LIBRARY;
  }
}

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

std::shared_ptr<const CompiledOutput> run_nvjitlink(const LinkRequest& req) {
  const NvJitLinkApi& api = require_nvjitlink();
  std::vector<std::string> args = req.nvjitlink_args();
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  HandleGuard h(api);
  nvJitLinkResult r = api.nvJitLinkCreate(h.out(), static_cast<uint32_t>(argv.size()), argv.data());
  if (r != NVJITLINK_SUCCESS) {
    std::string log = read_log(h.get(), api.nvJitLinkGetErrorLogSize, api.nvJitLinkGetErrorLog);
    std::string first = first_error_line(log);
    set_error_detail(log);
    fail(DC_ERROR_INVALID_ARGUMENT, "nvJitLink rejected the options \"%s\" with %s (%d)%s%s; check options->arch "
         "(an architecture this nvJitLink knows) and options->options",
         joined(args).c_str(), result_name(r), static_cast<int>(r), first.empty() ? "" : ": ", first.c_str());
  }
  for (const LinkInput& in : req.inputs) {
    r = api.nvJitLinkAddData(h.get(), input_type(in.kind), in.data(), in.size(), in.name.c_str());
    if (r != NVJITLINK_SUCCESS) {
      std::string log = read_log(h.get(), api.nvJitLinkGetErrorLogSize, api.nvJitLinkGetErrorLog);
      std::string first = first_error_line(log);
      set_error_detail(log);
      fail(DC_ERROR_INVALID_IMAGE, "nvJitLink refused the input %s (%s, %zu bytes) with %s (%d)%s%s; check that it "
           "is of the kind given and made for sm_%d or older by a compiler no newer than nvJitLink %d.%d",
           in.name.c_str(), link_input_kind_name(in.kind), in.size(), result_name(r), static_cast<int>(r),
           first.empty() ? "" : ": ", first.c_str(), req.arch, nvjitlink_state().major, nvjitlink_state().minor);
    }
  }
  r = api.nvJitLinkComplete(h.get());
  if (r != NVJITLINK_SUCCESS) {
    std::string log = read_log(h.get(), api.nvJitLinkGetErrorLogSize, api.nvJitLinkGetErrorLog);
    std::string first = first_error_line(log);
    set_error_detail(log);
    fail(DC_ERROR_COMPILE, "the link failed with %s (%d)%s%s; the full log is in dc_last_error_detail()",
         result_name(r), static_cast<int>(r), first.empty() ? "" : ": ", first.c_str());
  }
  size_t size = 0;
  if ((r = api.nvJitLinkGetLinkedCubinSize(h.get(), &size)) != NVJITLINK_SUCCESS || size == 0)
    fail(DC_ERROR_COMPILE, "nvJitLinkGetLinkedCubinSize failed with %s (%d) or gave no CUBIN", result_name(r),
         static_cast<int>(r));
  auto out = std::make_shared<CompiledOutput>();
  out->kind = DC_OUTPUT_CUBIN;
  out->arch = req.arch;
  out->image.resize(size);
  if ((r = api.nvJitLinkGetLinkedCubin(h.get(), out->image.data())) != NVJITLINK_SUCCESS)
    fail(DC_ERROR_COMPILE, "nvJitLinkGetLinkedCubin failed with %s (%d)", result_name(r), static_cast<int>(r));
  out->log = read_log(h.get(), api.nvJitLinkGetInfoLogSize, api.nvJitLinkGetInfoLog);
  return out;
}

}  // namespace dc
