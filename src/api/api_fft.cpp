// Entry points: cuFFT plans (dc_fft_plan) and transforms on dc_buffers.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "libs/fft/fft_plan.h"
#include "libs/fft/fft_shape.h"
#include "libs/fft/plan_cache.h"
#include "loader/cufft.h"
#include "memory/buffer.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_fft_library_version(int32_t* version) {
  return guarded("dc_fft_library_version", [&] {
    clear_out(version);
    forbid_after_fork();
    require_arg(version, "version");
    require_cufft();
    *version = cufft_state().version;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_fft_plan_create(dc_device device, const dc_fft_desc* desc, dc_fft_plan* plan) {
  return guarded("dc_fft_plan_create", [&] {
    clear_out(plan);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(desc, "desc");
    require_arg(plan, "plan");
    FftShape shape = fft_shape_from(*desc);
    require_cufft();
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<FftPlan> p = FftPlan::create(d.share(), shape);
    *plan = issue_handle<dc_fft_plan>(p.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_fft_plan_release(dc_fft_plan plan) { close_handle<FftPlan>(plan); }

DC_API dc_status dc_fft_plan_set_stream(dc_fft_plan plan, dc_stream stream) {
  return guarded("dc_fft_plan_set_stream", [&] {
    forbid_after_fork();
    Pinned<FftPlan> p = pin<FftPlan>(plan, "plan");
    Ref<Stream> s;
    if (stream) {
      Pinned<Stream> ps = pin<Stream>(stream, "stream");
      ps->check_usable();
      ps->require_device(p->device(), "plan");
      s = ps.share();
    } else {
      s = Stream::default_stream(p->device_ref(), DC_STREAM_LEGACY);
    }
    p->check_usable();
    p->set_stream(std::move(s));
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_fft_plan_info_get(dc_fft_plan plan, dc_fft_plan_info* info) {
  return guarded("dc_fft_plan_info_get", [&] {
    forbid_after_fork();
    Pinned<FftPlan> p = pin<FftPlan>(plan, "plan");
    require_arg(info, "info");
    require_struct_size(info->struct_size, sizeof(dc_fft_plan_info), "info", "DC_FFT_PLAN_INFO_INIT");
    info->reused = p->reused() ? 1 : 0;
    info->work_area_bytes = p->work_area_bytes();
    info->input_bytes = p->bytes().input;
    info->output_bytes = p->bytes().output;
    info->in_place_bytes = p->bytes().in_place;
    info->cufft_version = cufft_state().version;
    info->device_ordinal = p->device().ordinal();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_fft_execute(dc_fft_plan plan, dc_buffer in, uint64_t in_offset, dc_buffer out, uint64_t out_offset,
                                int32_t direction) {
  return guarded("dc_fft_execute", [&] {
    forbid_after_fork();
    Pinned<FftPlan> p = pin<FftPlan>(plan, "plan");
    Pinned<Buffer> i = pin<Buffer>(in, "in");
    Pinned<Buffer> o = pin<Buffer>(out, "out");
    p->check_usable();
    i->check_usable();
    o->check_usable();
    ContextScope bind(p->device());
    p->execute(*i, in_offset, *o, out_offset, direction);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_fft_plan_cache_trim(dc_device device, uint32_t keep) {
  return guarded("dc_fft_plan_cache_trim", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    fft_cache_trim(*d, keep);
    return DC_SUCCESS;
  });
}

}  // extern "C"
