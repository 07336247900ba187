#include "core/config.h"

#include <cstdlib>
#include <mutex>

#include "core/error.h"

namespace dc {
namespace {

std::mutex g_mutex;
Config* g_config = nullptr;  // set once, never freed (read during exit too)

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

Config from_environment() {
  Config c;
  c.driver_library = env("DCCUDA_DRIVER_LIBRARY");
  c.nvrtc_library = env("DCCUDA_NVRTC_LIBRARY");
  c.cache_dir = env("DCCUDA_CACHE_DIR");
  std::string max = env("DCCUDA_CACHE_MAX_BYTES");
  if (!max.empty()) c.cache_max_bytes = std::strtoull(max.c_str(), nullptr, 10);
  std::string disable = env("DCCUDA_CACHE_DISABLE");
  if (!disable.empty() && disable != "0") c.flags |= DC_INIT_NO_DISK_CACHE | DC_INIT_NO_MEMORY_CACHE;
  return c;
}

}  // namespace

const Config& config() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_config) g_config = new Config(from_environment());
  return *g_config;
}

void install_config(const dc_init_options* options) {
  Config c = from_environment();
  if (options) {
    if (options->struct_size < kInitOptionsV1Size)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->struct_size is %u, smaller than any published dc_init_options (%u); "
           "initialise it with DC_INIT_OPTIONS_INIT", options->struct_size, kInitOptionsV1Size);
    constexpr uint32_t known = DC_INIT_NO_NVRTC | DC_INIT_NO_DISK_CACHE | DC_INIT_NO_MEMORY_CACHE;
    if (options->flags & ~known)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->flags has unknown bits 0x%x; use DC_INIT_* flags only",
           options->flags & ~known);
    if (options->driver_library) c.driver_library = options->driver_library;
    if (options->nvrtc_library) c.nvrtc_library = options->nvrtc_library;
    if (options->cache_dir) c.cache_dir = options->cache_dir;
    if (options->cache_max_bytes) c.cache_max_bytes = options->cache_max_bytes;
    c.flags |= options->flags;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_config)
    fail(DC_ERROR_INVALID_STATE, "the library is already initialised (an earlier dc_ call did it); call dc_init "
         "once, before any other dc_ call");
  g_config = new Config(std::move(c));
}

}  // namespace dc
