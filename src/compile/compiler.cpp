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
#include "loader/driver.h"
#include "loader/nvrtc.h"

namespace dc {
namespace {

int32_t loaded_driver_version() {
  const DriverState& d = driver_state();
  return d.status == DC_SUCCESS ? d.version : 0;
}

struct Caches {
  bool memory;
  bool disk;
};

std::shared_ptr<const CompiledOutput> find(const CacheKey& key, Caches use, int32_t* source) {
  if (use.memory) {
    if (auto hit = memory_cache_find(key.digest)) {
      *source = DC_CACHE_MEMORY;
      return hit;
    }
  }
  if (use.disk) {
    if (auto hit = disk_cache_load(key)) {
      if (use.memory) memory_cache_insert(key.digest, hit);
      *source = DC_CACHE_DISK;
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
    key = make_cache_key(r, loaded.major, loaded.minor, driver);
    if (auto hit = find(key, use, source)) return hit;
  }
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
