#include "launch/launch_shape.h"

#include "core/args.h"
#include "core/error.h"

namespace dc {
namespace {

const char kAxis[3] = {'x', 'y', 'z'};

}  // namespace

void fail_shared_memory(const LaunchShape& shape, const Function& f) {
  const DeviceLimits& lim = f.device().limits();
  fail(DC_ERROR_INVALID_ARGUMENT,
       "%s: shared_memory_bytes is %u; the kernel may now use at most %d bytes of dynamic shared memory "
       "(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); raise its limit with dc_function_set_attribute(function, "
       "8, bytes), up to device %d's opt-in limit of %d bytes per block less the kernel's static shared memory",
       f.name().c_str(), shape.shared, f.max_dynamic_shared_bytes(), f.device().ordinal(),
       lim.max_shared_per_block_optin);
}

LaunchShape read_launch_config(const dc_launch_config* config, const Function& f, const char* what) {
  if (!config) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL; pass a dc_launch_config initialised with DC_LAUNCH_CONFIG_INIT", what);
  require_struct_size(config->struct_size, static_cast<uint32_t>(sizeof(dc_launch_config)), what,
                      "DC_LAUNCH_CONFIG_INIT");
  // Only the fields of the struct this library knows: a caller built
  // against a larger one keeps its extra fields to itself.
  LaunchShape s;
  for (int i = 0; i < 3; ++i) {
    s.grid[i] = config->grid[i];
    s.block[i] = config->block[i];
    s.cluster[i] = config->cluster[i];
  }
  s.shared = config->shared_memory_bytes;
  s.flags = config->flags;
  s.priority = config->priority;

  const Device& d = f.device();
  const DeviceLimits& lim = d.limits();
  const char* name = f.name().c_str();
  if (s.flags & ~kLaunchFlags) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->flags has unknown bits 0x%x; use DC_LAUNCH_* flags only", name, what,
         s.flags & ~kLaunchFlags);
  for (int i = 0; i < 3; ++i) {
    if (s.grid[i] == 0 || (lim.max_grid_dim[i] > 0 && s.grid[i] > static_cast<uint32_t>(lim.max_grid_dim[i])))
      [[unlikely]] {
      if (s.grid[i] == 0)
        fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->grid[%d] is 0; the grid counts blocks and each dimension must be at "
             "least 1", name, what, i);
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->grid[%d] is %u blocks; device %d allows at most %d blocks in %c", name,
           what, i, s.grid[i], d.ordinal(), lim.max_grid_dim[i], kAxis[i]);
    }
    if (s.block[i] == 0 || (lim.max_block_dim[i] > 0 && s.block[i] > static_cast<uint32_t>(lim.max_block_dim[i])))
      [[unlikely]] {
      if (s.block[i] == 0)
        fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->block[%d] is 0; each block dimension must be at least 1 thread", name,
             what, i);
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->block[%d] is %u threads; device %d allows at most %d threads in %c",
           name, what, i, s.block[i], d.ordinal(), lim.max_block_dim[i], kAxis[i]);
    }
  }
  if (lim.max_threads_per_block > 0 && s.threads_per_block() > static_cast<uint64_t>(lim.max_threads_per_block))
    [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->block is %u x %u x %u = %llu threads; device %d allows at most %d threads "
         "per block", name, what, s.block[0], s.block[1], s.block[2],
         static_cast<unsigned long long>(s.threads_per_block()), d.ordinal(), lim.max_threads_per_block);
  check_shared_memory(s, f);
  if (s.flags & DC_LAUNCH_COOPERATIVE && !lim.cooperative_launch) [[unlikely]]
    fail(DC_ERROR_NOT_SUPPORTED, "%s: device %d does not support cooperative launches (DC_LAUNCH_COOPERATIVE); "
         "launch without grid-wide synchronisation", name, d.ordinal());
  if (s.flags & DC_LAUNCH_PROGRAMMATIC_SERIALIZATION && lim.compute_major < 9) [[unlikely]]
    fail(DC_ERROR_NOT_SUPPORTED, "%s: DC_LAUNCH_PROGRAMMATIC_SERIALIZATION needs compute capability 9.0 or newer; "
         "device %d has %d.%d", name, d.ordinal(), lim.compute_major, lim.compute_minor);
  bool any_cluster = s.cluster[0] || s.cluster[1] || s.cluster[2];
  if (any_cluster) [[unlikely]] {
    if (!s.cluster[0] || !s.cluster[1] || !s.cluster[2])
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->cluster is %u x %u x %u; give all three cluster dimensions (each at "
           "least 1), or all 0 for no clusters", name, what, s.cluster[0], s.cluster[1], s.cluster[2]);
    if (!lim.cluster_launch)
      fail(DC_ERROR_NOT_SUPPORTED, "%s: device %d (compute capability %d.%d) does not support thread-block clusters, "
           "which need 9.0 or newer; set %s->cluster to 0, 0, 0", name, d.ordinal(), lim.compute_major,
           lim.compute_minor, what);
    for (int i = 0; i < 3; ++i)
      if (s.grid[i] % s.cluster[i] != 0)
        fail(DC_ERROR_INVALID_ARGUMENT, "%s: %s->grid[%d] is %u blocks, not a multiple of %s->cluster[%d] = %u; the "
             "grid counts blocks, not clusters: make each grid dimension a multiple of the cluster's", name, what, i,
             s.grid[i], what, i, s.cluster[i]);
  }
  return s;
}

void make_launch_attributes(const LaunchShape& s, LaunchAttributes* out) {
  unsigned n = 0;
  if (s.flags & DC_LAUNCH_COOPERATIVE) {
    out->attrs[n] = {};
    out->attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    out->attrs[n].value.cooperative = 1;
    ++n;
  }
  if (s.flags & DC_LAUNCH_PROGRAMMATIC_SERIALIZATION) {
    out->attrs[n] = {};
    out->attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    out->attrs[n].value.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  if (s.has_cluster()) {
    out->attrs[n] = {};
    out->attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    out->attrs[n].value.clusterDim.x = s.cluster[0];
    out->attrs[n].value.clusterDim.y = s.cluster[1];
    out->attrs[n].value.clusterDim.z = s.cluster[2];
    ++n;
  }
  if (s.priority != 0) {
    out->attrs[n] = {};
    out->attrs[n].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    out->attrs[n].value.priority = s.priority;
    ++n;
  }
  out->count = n;
}

}  // namespace dc
