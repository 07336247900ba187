// Entry points: memory pools you control (dc_pool), allocation from them, and
// the statistics of dccuda's own pool.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "memory/buffer.h"
#include "memory/memory_state.h"
#include "memory/pool.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_pool_create(dc_device device, uint64_t max_size, uint32_t flags, dc_pool* pool) {
  return guarded("dc_pool_create", [&] {
    clear_out(pool);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(pool, "pool");
    if (flags & ~DC_POOL_EXPORTABLE)
      fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x has bits this call does not take (0x%x); it accepts "
           "DC_POOL_EXPORTABLE only", flags, flags & ~DC_POOL_EXPORTABLE);
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Pool> p = Pool::create(d.share(), max_size, flags);
    *pool = issue_handle<dc_pool>(p.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_pool_release(dc_pool pool) { close_handle<Pool>(pool); }

DC_API dc_status dc_pool_set_attribute(dc_pool pool, int32_t attribute, uint64_t value) {
  return guarded("dc_pool_set_attribute", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    p->check_usable();
    ContextScope bind(p->device());
    p->set_attribute(attribute, value);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_attribute(dc_pool pool, int32_t attribute, uint64_t* value) {
  return guarded("dc_pool_attribute", [&] {
    clear_out(value);
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    require_arg(value, "value");
    p->check_usable();
    ContextScope bind(p->device());
    *value = p->attribute(attribute);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_statistics(dc_pool pool, dc_pool_stats* stats) {
  return guarded("dc_pool_statistics", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    require_arg(stats, "stats");
    require_struct_size(stats->struct_size, sizeof(dc_pool_stats), "stats", "DC_POOL_STATS_INIT");
    p->check_usable();
    ContextScope bind(p->device());
    read_pool_stats(p->device(), p->handle(), stats);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_pool_statistics(dc_device device, dc_pool_stats* stats) {
  return guarded("dc_device_pool_statistics", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(stats, "stats");
    require_struct_size(stats->struct_size, sizeof(dc_pool_stats), "stats", "DC_POOL_STATS_INIT");
    d->check_usable();
    ContextScope bind(*d);
    // Not made before the device's first allocation: nothing reserved yet.
    MemoryState* state = existing_memory_state(*d);
    read_pool_stats(*d, state ? state->pool : nullptr, stats);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_reset_high_water(dc_pool pool) {
  return guarded("dc_pool_reset_high_water", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    p->check_usable();
    ContextScope bind(p->device());
    p->reset_high_water();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_trim(dc_pool pool, uint64_t keep_bytes) {
  return guarded("dc_pool_trim", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    p->check_usable();
    ContextScope bind(p->device());
    p->trim(keep_bytes);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_set_access(dc_pool pool, dc_device accessor, int32_t enable) {
  return guarded("dc_pool_set_access", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    Pinned<Device> a = pin<Device>(accessor, "accessor");
    if (enable != 0 && enable != 1) fail(DC_ERROR_INVALID_ARGUMENT, "enable is %d; pass 1 to grant, 0 to revoke", enable);
    forbid_in_host_callback();
    p->check_usable();
    a->check_usable();
    ContextScope bind(p->device());
    p->set_access(*a, enable == 1);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_alloc_from_pool(dc_pool pool, dc_stream stream, uint64_t size, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_from_pool", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    Pinned<Stream> s;
    if (stream) s = pin<Stream>(stream, "stream");
    require_arg(buffer, "buffer");
    if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; allocate at least 1 byte");
    forbid_in_host_callback();
    p->check_usable();
    if (s) {
      s->check_usable();
      if (&s->device() != &p->device())
        fail(DC_ERROR_INVALID_ARGUMENT, "stream belongs to device %d, the pool to device %d; allocate on a stream of "
             "the pool's device", s->device().ordinal(), p->device().ordinal());
    }
    ContextScope bind(p->device());
    Ref<Buffer> b = Buffer::alloc_from_pool(*p, s ? s.get() : nullptr, size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

}  // extern "C"
