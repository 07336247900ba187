// Entry points: launching kernels (one-shot and prepared) and the 1-D
// configuration helper.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "launch/launch_batch.h"
#include "launch/occupancy.h"
#include "launch/one_shot.h"
#include "launch/prepared_launch.h"
#include "module/function.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_launch_config_1d(dc_function function, uint64_t n, uint32_t shared_memory_bytes,
                                     dc_launch_config* config) {
  return guarded("dc_launch_config_1d", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(config, "config");
    require_struct_size(config->struct_size, static_cast<uint32_t>(sizeof(dc_launch_config)), "config",
                        "DC_LAUNCH_CONFIG_INIT");
    f->check_usable();
    ContextScope bind(f->device());
    config_1d(*f, n, shared_memory_bytes, config);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_kernel(dc_function function, const dc_launch_config* config, const dc_arg* args,
                                  uint32_t num_args, dc_stream stream) {
  return guarded("dc_launch_kernel", [&] {
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    launch_once(*f, config, args, num_args, *s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_kernel_packed(dc_function function, const dc_launch_config* config, const void* params,
                                         uint64_t size, dc_stream stream) {
  return guarded("dc_launch_kernel_packed", [&] {
    forbid_after_fork();
    Pinned<Function> f = pin<Function>(function, "function");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    launch_once_packed(*f, config, params, size, *s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_create(dc_function function, const dc_launch_config* config, dc_launch* launch) {
  return guarded("dc_launch_create", [&] {
    clear_out(launch);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(launch, "launch");
    f->check_usable();
    ContextScope bind(f->device());
    Ref<Launch> l = Launch::create(f.share(), config);
    *launch = issue_handle<dc_launch>(l.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_set_config(dc_launch launch, const dc_launch_config* config) {
  return guarded("dc_launch_set_config", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Launch> l = pin<Launch>(launch, "launch");
    l->function().check_usable();
    ContextScope bind(l->function().device());
    l->set_config(config);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_set_arg(dc_launch launch, uint32_t index, const dc_arg* arg) {
  return guarded("dc_launch_set_arg", [&] {
    forbid_after_fork();
    Pinned<Launch> l = pin<Launch>(launch, "launch");
    require_arg(arg, "arg");
    l->set_arg(index, *arg);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_set_args(dc_launch launch, const dc_arg* args, uint32_t num_args) {
  return guarded("dc_launch_set_args", [&] {
    forbid_after_fork();
    Pinned<Launch> l = pin<Launch>(launch, "launch");
    l->set_args(args, num_args);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_enqueue(dc_launch launch, dc_stream stream) {
  return guarded("dc_launch_enqueue", [&] {
    forbid_after_fork();
    Pinned<Launch> l = pin<Launch>(launch, "launch");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    l->enqueue(*s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_launch_enqueue_batch(const dc_launch* launches, uint32_t count, dc_stream stream) {
  return guarded("dc_launch_enqueue_batch", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    enqueue_batch(launches, count, *s);
    return DC_SUCCESS;
  });
}

DC_API void dc_launch_release(dc_launch launch) { close_handle<Launch>(launch); }

}  // extern "C"
