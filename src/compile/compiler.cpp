#include "compile/compiler.h"

#include "compile/arch.h"
#include "compile/cache_key.h"
#include "compile/disk_cache.h"
#include "compile/memory_cache.h"
#include "compile/nvrtc_compile.h"
#include "compile/nvrtc_identity.h"
#include "compile/single_flight.h"
#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "loader/driver.h"
#include "loader/nvrtc.h"

namespace dc {
namespace {

int32_t loaded_driver_version() {
  const DriverState& d = driver_state();
  return d.status == DC_SUCCESS ? d.version : 0;
}

// The program's name for the log, "a program" when it has none.
const char* shown_name(const CompileRequest& r) noexcept {
  return r.program_name.empty() ? "a program" : r.program_name.c_str();
}

struct Caches {
  bool memory;
  bool disk;
};

std::shared_ptr<const CompiledOutput> find(const CacheKey& key, Caches use, int32_t* source) {
  if (use.memory) {
    if (auto hit = memory_cache_find(key.digest)) {
      *source = DC_CACHE_MEMORY;
      DC_LOG(DC_LOG_TRACE, "cache", "key %.16s...: found in the memory cache", key.hex.c_str());
      return hit;
    }
  }
  if (use.disk) {
    if (auto hit = disk_cache_load(key)) {
      if (use.memory) memory_cache_insert(key.digest, hit);
      *source = DC_CACHE_DISK;
      DC_LOG(DC_LOG_TRACE, "cache", "key %.16s...: found on disk", key.hex.c_str());
      return hit;
    }
  }
  return nullptr;
}

// Compiles a request every cache missed, once: in this process the first
// thread to miss `key` leads and the others wait for it (single_flight.h);
// across processes the leader holds the entry's lock file and the others wait
// for it (disk_cache.h). A waiter then looks in the caches again: the
// leader's output is there. If the leader failed (a compile error: nothing
// stored), a waiter compiles by itself, so that it reports its own error.
std::shared_ptr<const CompiledOutput> compile_once(CompileRequest& r, const CacheKey& key, Caches use,
                                                   int32_t* source) {
  FlightTicket ticket(key.digest);
  if (!ticket.leader()) {
    ticket.wait_for_leader();
    if (auto hit = find(key, use, source)) return hit;
  } else if (use.disk) {
    DiskEntryLock lock = disk_cache_lock_entry(key);
    if (lock.waited())
      if (auto hit = find(key, use, source)) return hit;
    std::shared_ptr<const CompiledOutput> out = run_nvrtc(r);
    if (use.memory) memory_cache_insert(key.digest, out);
    disk_cache_store(key, *out);
    return out;  // the lock goes after the store: the processes waiting find the entry
  }
  std::shared_ptr<const CompiledOutput> out = run_nvrtc(r);
  if (use.memory) memory_cache_insert(key.digest, out);
  if (use.disk) disk_cache_store(key, *out);
  return out;
}

std::shared_ptr<const CompiledOutput> lookup_or_compile(CompileRequest& r, int32_t* source) {
  *source = DC_CACHE_MISS;
  Caches use{!(config().flags & DC_INIT_NO_MEMORY_CACHE), !disk_cache_directory().empty()};
  if ((r.flags & DC_COMPILE_NO_CACHE) || (!use.memory && !use.disk)) {
    DC_LOG(DC_LOG_DEBUG, "cache", "%s: compiled without the kernel cache (%s)", shown_name(r),
           (r.flags & DC_COMPILE_NO_CACHE) ? "DC_COMPILE_NO_CACHE"
                                           : "both caches are off: DC_INIT_NO_MEMORY_CACHE and no usable cache "
                                             "directory (DCCUDA_CACHE_DISABLE, DC_INIT_NO_DISK_CACHE, or a directory "
                                             "refused: see dc_config_warnings)");
    load_nvrtc_for_compile();
    settle_arch(r);
    return run_nvrtc(r);
  }
  // The lookup does not load NVRTC when an earlier process recorded its version.
  int32_t driver = loaded_driver_version();
  NvrtcVersion assumed = nvrtc_version_for_key();
  CacheKey key = make_cache_key(r, assumed.major, assumed.minor, driver);
  if (auto hit = find(key, use, source)) return hit;

  // A miss: NVRTC compiles it. The architecture or the version may turn out
  // different from what the lookup assumed: then the key is too.
  NvrtcVersion loaded = load_nvrtc_for_compile();
  bool arch_changed = settle_arch(r);
  if (arch_changed || loaded.major != assumed.major || loaded.minor != assumed.minor) {
    DC_LOG(DC_LOG_TRACE, "cache", "%s: looked up again: %s", shown_name(r),
           arch_changed ? "the device's architecture was settled after the first lookup"
                        : "the NVRTC loaded differs from the version the first lookup assumed");
    key = make_cache_key(r, loaded.major, loaded.minor, driver);
    if (auto hit = find(key, use, source)) return hit;
  }
  DC_LOG(DC_LOG_DEBUG, "cache", "%s: kernel cache miss (key %.16s...): not in %s; NVRTC compiles it (a new source, "
         "options, headers, architecture, NVRTC or driver version each make a new key)", shown_name(r),
         key.hex.c_str(), use.memory && use.disk ? "the memory cache nor on disk"
                          : use.memory          ? "the memory cache (the disk cache is off)"
                                                : "the disk cache (the memory cache is off)");
  return compile_once(r, key, use, source);
}

}  // namespace

void check_ptx_loadable(const CompiledOutput& ptx) {
  int32_t driver = loaded_driver_version();
  int32_t max_isa = driver_max_ptx_isa(driver);
  int32_t isa = ptx_isa_version(ptx.image.data(), ptx.image.size());
  if (max_isa == 0 || isa == 0 || isa <= max_isa) return;
  const NvrtcState& nvrtc = nvrtc_state();
  fail(DC_ERROR_NOT_SUPPORTED,
       "NVRTC %d.%d makes PTX ISA %s, but the installed driver (CUDA %s) loads PTX up to ISA %s: NVRTC is newer "
       "than the driver; compile to a CUBIN (DC_OUTPUT_CUBIN, the default, needs no JIT), use the NVRTC of CUDA %s "
       "or older (DCCUDA_NVRTC_LIBRARY), or update the NVIDIA driver",
       nvrtc.major, nvrtc.minor, dotted_version(isa).c_str(), cuda_version_string(driver).c_str(),
       dotted_version(max_isa).c_str(), cuda_version_string(driver).c_str());
}

Ref<Program> compile_program(CompileRequest request, const Device* device) {
  int32_t source = DC_CACHE_MISS;
  std::shared_ptr<const CompiledOutput> out = lookup_or_compile(request, &source);
  if (device && out->kind == DC_OUTPUT_PTX) check_ptx_loadable(*out);
  return make_ref<Program>(std::move(out), source);
}

}  // namespace dc
