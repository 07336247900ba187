#include "core/config.h"

#include <atomic>
#include <strings.h>

#include <cstring>
#include <mutex>

#include "core/error.h"
#include "core/handle_report.h"
#include "platform/environment.h"
#include "platform/process.h"

namespace dc {
namespace {

std::mutex g_mutex;
// Set once, never freed (read during exit too); published for config_if_fixed.
std::atomic<Config*> g_config{nullptr};

// The value as the message shows it: quoted, and cut where it is long.
std::string shown(const char* value) {
  std::string v(value);
  if (v.size() > 80) v = v.substr(0, 80) + "...";
  return "'" + v + "'";
}

// Reads dccuda's variables with one set of rules; a malformed value fails
// (DC_ERROR_INVALID_ARGUMENT) naming the variable, the value and what is
// accepted.
class EnvironmentReader {
 public:
  // A string setting (a path or a library name): unset, or not empty.
  std::string text(const char* name, const char* what) {
    const char* v = platform::environment_value(name);
    if (!v) return {};
    if (!*v) refuse(name, v, "is empty", what);
    return v;
  }

  // A count or a size: decimal digits only, within [lo, hi]; 0 when unset.
  uint64_t integer(const char* name, uint64_t lo, uint64_t hi) {
    const char* v = platform::environment_value(name);
    if (!v) return 0;
    std::string accepted = strf("a decimal integer from %llu to %llu (digits only: no sign, spaces, hexadecimal, "
                                "exponent or unit)",
                                static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi));
    if (!*v) refuse(name, v, "is empty", accepted.c_str());
    uint64_t x = 0;
    for (const char* p = v; *p; ++p) {
      if (*p < '0' || *p > '9') refuse(name, v, "is not a decimal integer", accepted.c_str());
      unsigned digit = static_cast<unsigned>(*p - '0');
      if (x > (UINT64_MAX - digit) / 10) refuse(name, v, "is too large", accepted.c_str());
      x = x * 10 + digit;
    }
    if (x < lo || x > hi) refuse(name, v, "is out of range", accepted.c_str());
    return x;
  }

  // A yes/no setting: false when unset.
  bool yes_no(const char* name) {
    const char* v = platform::environment_value(name);
    if (!v) return false;
    static constexpr const char* kAccepted = "1, true, yes, on (yes) or 0, false, no, off (no), in any letter case";
    if (!*v) refuse(name, v, "is empty", kAccepted);
    for (const char* yes : {"1", "true", "yes", "on"})
      if (strcasecmp(v, yes) == 0) return true;
    for (const char* no : {"0", "false", "no", "off"})
      if (strcasecmp(v, no) == 0) return false;
    refuse(name, v, "is not a yes/no value", kAccepted);
  }

  // Another program's variable, followed where it makes sense: an empty
  // value counts as unset (as the shells and the XDG rules have it).
  std::string foreign(const char* name) {
    const char* v = platform::environment_value(name);
    return v ? std::string(v) : std::string();
  }

 private:
  [[noreturn]] static void refuse(const char* name, const char* value, const char* problem, const char* accepted) {
    fail(DC_ERROR_INVALID_ARGUMENT, "the environment variable %s=%s %s; accepted: %s; fix it or unset %s for the "
         "default", name, shown(value).c_str(), problem, accepted, name);
  }
};

// In a privileged process the environment is the caller's: nothing of it is
// read (secure_getenv answers NULL), and the warnings say what was ignored.
void note_ignored_variables(Config& c) {
  if (!platform::process_is_privileged()) return;
  std::string names;
  for (const char* const* v = kConfigVariables; *v; ++v)
    if (platform::environment_has(*v)) names += std::string(names.empty() ? "" : ", ") + *v;
  if (names.empty()) return;
  c.warnings.push_back("environment: " + names + " ignored: this is a privileged process (set-user-ID, "
                       "set-group-ID or file capabilities: AT_SECURE), whose environment belongs to its caller and "
                       "must not choose a library to load or the kernel cache; give settings through dc_init");
}

// The settings from the environment, less the variables `options` replaces.
Config from_environment(const dc_init_options* options) {
  EnvironmentReader env;
  Config c;
  note_ignored_variables(c);
  if (!options || !options->driver_library)
    c.driver_library = env.text("DCCUDA_DRIVER_LIBRARY", "a file name or path of the CUDA driver library");
  if (!options || !options->nvrtc_library)
    c.nvrtc_library = env.text("DCCUDA_NVRTC_LIBRARY", "a file name or path of libnvrtc");
  c.nvjitlink_library = env.text("DCCUDA_NVJITLINK_LIBRARY", "a file name or path of libnvJitLink");
  if (!options || !options->cache_dir) c.cache_dir = env.text("DCCUDA_CACHE_DIR", "a directory path");
  c.nvml_library = env.text("DCCUDA_NVML_LIBRARY", "a file name or path of NVML (libnvidia-ml.so.1)");
  c.cublas_library = env.text("DCCUDA_CUBLAS_LIBRARY", "a file name or path of cuBLAS (libcublas.so.13)");
  c.cufft_library = env.text("DCCUDA_CUFFT_LIBRARY", "a file name or path of libcufft");
  // 0 is a value here (no cache), so set-or-not decides, not the number.
  if (platform::environment_value("DCCUDA_FFT_PLAN_CACHE"))
    c.fft_plan_cache = static_cast<uint32_t>(env.integer("DCCUDA_FFT_PLAN_CACHE", 0, kMaxFftPlanCache));
  c.nccl_library = env.text("DCCUDA_NCCL_LIBRARY", "a file name or path of NCCL (libnccl.so.2)");
  if (!options || !options->cache_max_bytes) c.cache_max_bytes = env.integer("DCCUDA_CACHE_MAX_BYTES", 1, kMaxCacheBytes);
  if (env.yes_no("DCCUDA_CACHE_DISABLE")) c.flags |= DC_INIT_NO_DISK_CACHE | DC_INIT_NO_MEMORY_CACHE;
  if (env.yes_no("DCCUDA_LEAK_REPORT")) c.flags |= DC_INIT_REPORT_LEAKS;

  c.staging_min_bytes = env.integer("DCCUDA_STAGING_MIN_BYTES", 1, kMaxStagingMinBytes);
  c.staging_min_bytes_to_device = env.integer("DCCUDA_STAGING_MIN_BYTES_H2D", 1, kMaxStagingMinBytes);
  c.staging_chunk_bytes = env.integer("DCCUDA_STAGING_CHUNK_BYTES", kMinStagingChunkBytes, kMaxStagingChunkBytes);
  c.staging_min_chunk_bytes =
      env.integer("DCCUDA_STAGING_MIN_CHUNK_BYTES", kMinStagingChunkBytes, kMaxStagingChunkBytes);
  if (c.staging_chunk_bytes && c.staging_min_chunk_bytes > c.staging_chunk_bytes)
    fail(DC_ERROR_INVALID_ARGUMENT, "the environment variable DCCUDA_STAGING_MIN_CHUNK_BYTES=%llu exceeds "
         "DCCUDA_STAGING_CHUNK_BYTES=%llu; the smallest chunk cannot be larger than the largest: lower it or unset it",
         static_cast<unsigned long long>(c.staging_min_chunk_bytes),
         static_cast<unsigned long long>(c.staging_chunk_bytes));
  c.staging_small_bytes = env.integer("DCCUDA_STAGING_SMALL_BYTES", 1, kMaxStagingMinBytes);
  c.staging_buffers = static_cast<uint32_t>(env.integer("DCCUDA_STAGING_BUFFERS", 1, kMaxStagingBuffers));
  c.copy_threads = static_cast<uint32_t>(env.integer("DCCUDA_COPY_THREADS", 1, kMaxCopyThreads));
  // Unset is the built-in default, so set-or-not decides, as for the plan cache.
  if (platform::environment_value("DCCUDA_COPY_STREAMING")) c.copy_streaming = env.yes_no("DCCUDA_COPY_STREAMING") ? 1 : 0;
  c.cache_key_file = env.text("DCCUDA_CACHE_KEY_FILE", "the path of a file of yours (mode 0600) holding a key of at "
                              "least 32 bytes");

  std::string xdg = env.foreign("XDG_CACHE_HOME");
  if (!xdg.empty() && xdg[0] == '/') c.xdg_cache_home = xdg;  // a relative one is ignored (XDG rule)
  c.home = env.foreign("HOME");
#if defined(_WIN32)
  c.local_app_data = env.foreign("LOCALAPPDATA");
#endif
  c.cuda_home = env.foreign("CUDA_HOME");
  c.cuda_path = env.foreign("CUDA_PATH");
  c.ld_library_path = env.foreign("LD_LIBRARY_PATH");
  c.nvtx_injection_path = env.foreign("NVTX_INJECTION64_PATH");
  return c;
}

}  // namespace

const char* const kConfigVariables[] = {
    "DCCUDA_DRIVER_LIBRARY", "DCCUDA_NVRTC_LIBRARY", "DCCUDA_NVJITLINK_LIBRARY", "DCCUDA_NVML_LIBRARY", "DCCUDA_CUBLAS_LIBRARY",
    "DCCUDA_CUFFT_LIBRARY",
    "DCCUDA_FFT_PLAN_CACHE", "DCCUDA_NCCL_LIBRARY", "DCCUDA_CACHE_DIR",
    "DCCUDA_CACHE_MAX_BYTES", "DCCUDA_CACHE_DISABLE", "DCCUDA_LEAK_REPORT", "DCCUDA_CACHE_KEY_FILE", "DCCUDA_STAGING_MIN_BYTES",
    "DCCUDA_STAGING_MIN_BYTES_H2D",
    "DCCUDA_STAGING_CHUNK_BYTES", "DCCUDA_STAGING_MIN_CHUNK_BYTES", "DCCUDA_STAGING_BUFFERS", "DCCUDA_COPY_THREADS",
    "DCCUDA_STAGING_SMALL_BYTES", "DCCUDA_COPY_STREAMING",
    "XDG_CACHE_HOME", "HOME", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "NVTX_INJECTION64_PATH", nullptr};

const Config& config() {
  if (Config* c = g_config.load(std::memory_order_acquire)) return *c;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (Config* c = g_config.load(std::memory_order_relaxed)) return *c;
  Config* made = new Config(from_environment(nullptr));  // a malformed variable throws: nothing installed
  platform::note_initialised();
  if (made->flags & DC_INIT_REPORT_LEAKS) arm_leak_report();
  g_config.store(made, std::memory_order_release);
  return *made;
}

const Config* config_if_fixed() noexcept { return g_config.load(std::memory_order_acquire); }

void install_config(const dc_init_options* options) {
  if (options) {
    if (options->struct_size < kInitOptionsV1Size)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->struct_size is %u, smaller than any published dc_init_options (%u); "
           "initialise it with DC_INIT_OPTIONS_INIT", options->struct_size, kInitOptionsV1Size);
    constexpr uint32_t known =
        DC_INIT_NO_NVRTC | DC_INIT_NO_DISK_CACHE | DC_INIT_NO_MEMORY_CACHE | DC_INIT_REPORT_LEAKS;
    if (options->flags & ~known)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->flags has unknown bits 0x%x; use DC_INIT_* flags only",
           options->flags & ~known);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_config.load(std::memory_order_relaxed))
    fail(DC_ERROR_INVALID_STATE, "the library is already initialised (an earlier dc_ call did it); call dc_init "
         "once, before any other dc_ call");
  Config c = from_environment(options);
  if (options) {
    if (options->driver_library) c.driver_library = options->driver_library;
    if (options->nvrtc_library) c.nvrtc_library = options->nvrtc_library;
    if (options->cache_dir) c.cache_dir = options->cache_dir;
    if (options->cache_max_bytes) c.cache_max_bytes = options->cache_max_bytes;
    c.flags |= options->flags;
  }
  platform::note_initialised();
  if (c.flags & DC_INIT_REPORT_LEAKS) arm_leak_report();
  g_config.store(new Config(std::move(c)), std::memory_order_release);
}

}  // namespace dc
