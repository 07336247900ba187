#include "compile/linker.h"

#include "compile/cache_key.h"
#include "compile/disk_cache.h"
#include "compile/memory_cache.h"
#include "compile/nvjitlink_link.h"
#include "compile/single_flight.h"
#include "core/config.h"
#include "core/error.h"
#include "loader/driver.h"
#include "loader/nvjitlink.h"

namespace dc {
namespace {

struct Backend {
  bool driver = false;
  int32_t version_major = 0;  // nvJitLink's version, or the driver's (cuDriverGetVersion) for cuLink
  int32_t version_minor = 0;
};

Backend choose_backend(const LinkRequest& r) {
  Backend b;
  std::string why;
  if (r.flags & DC_LINK_USE_DRIVER) {
    b.driver = true;
    why = "DC_LINK_USE_DRIVER was given";
  } else {
    const NvJitLinkState& s = nvjitlink_state();
    if (s.status == DC_SUCCESS) {
      b.version_major = s.major;
      b.version_minor = s.minor;
      return b;
    }
    b.driver = true;
    why = s.message;
  }
  check_driver_can_link(r, why.c_str());
  const DriverState& d = driver_state();
  b.version_major = d.status == DC_SUCCESS ? d.version : 0;
  return b;
}

// Everything the linked CUBIN depends on: the linker and its version, the
// options, and every input's kind and bytes (not its name or path: the same
// bytes from another file link the same).
CacheKey link_cache_key(const LinkRequest& r, const Backend& b) {
  Sha256 h;
  // A new key layout must change this tag, so that old entries never match.
  h.field("dccuda link cache key 1");
  h.field(b.driver ? "cuLink" : "nvJitLink");
  h.field_u64(static_cast<uint64_t>(b.version_major));
  h.field_u64(static_cast<uint64_t>(b.version_minor));
  h.field_u64(static_cast<uint64_t>(r.arch));
  h.field_u64(r.flags);
  h.field_u64(static_cast<uint64_t>(static_cast<int64_t>(r.optimization_level)));
  h.field_u64(static_cast<uint64_t>(r.max_registers));
  h.field_u64(r.options.size());
  for (const std::string& o : r.options) h.field(o);
  h.field_u64(r.inputs.size());
  for (const LinkInput& in : r.inputs) {
    h.field_u64(static_cast<uint64_t>(in.kind));
    h.field_u64(in.size());
    h.update(in.data(), in.size());
  }
  CacheKey key;
  key.digest = h.finish();
  key.hex = to_hex(key.digest);
  return key;
}

std::shared_ptr<const CompiledOutput> run_link(const LinkRequest& r, const Backend& b, Device* device) {
  if (b.driver) return run_driver_link(r, *device);
  return run_nvjitlink(r);
}

struct Caches {
  bool memory;
  bool disk;
};

std::shared_ptr<const CompiledOutput> find(const CacheKey& key, Caches use, int32_t* source) {
  if (use.memory)
    if (auto hit = memory_cache_find(key.digest)) {
      *source = DC_CACHE_MEMORY;
      return hit;
    }
  if (use.disk)
    if (auto hit = disk_cache_load(key)) {
      if (use.memory) memory_cache_insert(key.digest, hit);
      *source = DC_CACHE_DISK;
      return hit;
    }
  return nullptr;
}

void store(const CacheKey& key, Caches use, const std::shared_ptr<const CompiledOutput>& out) {
  if (use.memory) memory_cache_insert(key.digest, out);
  if (use.disk) disk_cache_store(key, *out);
}

}  // namespace

Ref<Program> link_program(const LinkRequest& r, Device* device) {
  Backend b = choose_backend(r);
  int32_t source = DC_CACHE_MISS;
  Caches use{!(config().flags & DC_INIT_NO_MEMORY_CACHE), !disk_cache_directory().empty()};
  if (r.no_cache || (!use.memory && !use.disk)) return make_ref<Program>(run_link(r, b, device), source);

  CacheKey key = link_cache_key(r, b);
  if (auto hit = find(key, use, &source)) return make_ref<Program>(std::move(hit), source);
  // One link per key: the first thread to miss leads, the others wait and
  // look again; across processes the entry's lock file does the same. A
  // failed leader stores nothing: a waiter then links itself and reports its
  // own error.
  FlightTicket ticket(key.digest);
  if (!ticket.leader()) {
    ticket.wait_for_leader();
    if (auto hit = find(key, use, &source)) return make_ref<Program>(std::move(hit), source);
  }
  DiskEntryLock lock;
  if (use.disk) {
    lock = disk_cache_lock_entry(key);
    if (lock.waited())
      if (auto hit = find(key, use, &source)) return make_ref<Program>(std::move(hit), source);
  }
  std::shared_ptr<const CompiledOutput> out = run_link(r, b, device);
  store(key, use, out);
  return make_ref<Program>(std::move(out), DC_CACHE_MISS);
}

}  // namespace dc
