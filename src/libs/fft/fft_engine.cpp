#include "libs/fft/fft_engine.h"

#include <atomic>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/cufft.h"
#include "loader/driver.h"

namespace dc {
namespace {

std::atomic<uint64_t> g_plans_made{0};

// dc_fft_execute passes its direction to cuFFT as it is.
static_assert(DC_FFT_FORWARD == CUFFT_FORWARD && DC_FFT_INVERSE == CUFFT_INVERSE);

cufftType cufft_type_of(const FftShape& s) noexcept {
  bool dbl = s.precision == DC_FFT_DOUBLE;
  switch (s.type) {
    case DC_FFT_R2C: return dbl ? CUFFT_D2Z : CUFFT_R2C;
    case DC_FFT_C2R: return dbl ? CUFFT_Z2D : CUFFT_C2R;
    default: return dbl ? CUFFT_Z2Z : CUFFT_C2C;
  }
}

}  // namespace

uint64_t fft_plans_made() noexcept { return g_plans_made.load(std::memory_order_relaxed); }

void fail_cufft(int result, const char* entry, const char* hint) {
  dc_status status = DC_ERROR_DRIVER;
  switch (result) {
    case CUFFT_ALLOC_FAILED: status = DC_ERROR_OUT_OF_MEMORY; break;
    case CUFFT_INVALID_SIZE:
    case CUFFT_INVALID_VALUE:
    case CUFFT_INVALID_TYPE:
    case CUFFT_UNALIGNED_DATA: status = DC_ERROR_INVALID_ARGUMENT; break;
    case CUFFT_NOT_SUPPORTED:
    case CUFFT_NOT_IMPLEMENTED: status = DC_ERROR_NOT_SUPPORTED; break;
    default: break;
  }
  fail(status, "%s failed: %s (%d)%s%s", entry, cufft_result_name(result), result, hint ? "; " : "",
       hint ? hint : "");
}

std::unique_ptr<FftEngine> FftEngine::make(Ref<Device> device, const FftShape& shape) {
  const CufftApi& fft = require_cufft();
  auto e = std::make_unique<FftEngine>();
  e->device = device;
  e->generation = device->generation();
  check_cufft(fft.cufftCreate(&e->handle), "cufftCreate");
  e->handle_made = true;
  check_cufft(fft.cufftSetAutoAllocation(e->handle, 0), "cufftSetAutoAllocation");
  long long n[3], inembed[3], onembed[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = static_cast<long long>(shape.n[d]);
    // embed[0] is not part of cuFFT's address; a 0 there is given as the extent.
    inembed[d] = static_cast<long long>(d == 0 && shape.inembed[0] == 0 ? fft_input_extent(shape, 0) : shape.inembed[d]);
    onembed[d] = static_cast<long long>(d == 0 && shape.onembed[0] == 0 ? fft_output_extent(shape, 0) : shape.onembed[d]);
  }
  size_t work = 0;
  check_cufft(fft.cufftMakePlanMany64(e->handle, shape.rank, n, shape.advanced ? inembed : nullptr,
                                      static_cast<long long>(shape.istride), static_cast<long long>(shape.idist),
                                      shape.advanced ? onembed : nullptr, static_cast<long long>(shape.ostride),
                                      static_cast<long long>(shape.odist), cufft_type_of(shape),
                                      static_cast<long long>(shape.batch), &work),
              "cufftMakePlanMany64", "check the sizes, batch and layout against cuFFT's limits");
  g_plans_made.fetch_add(1, std::memory_order_relaxed);
  e->work_bytes = work;
  if (work > 0) {
    e->work = Buffer::alloc_device(device, work, 0);
    check_cufft(fft.cufftSetWorkArea(e->handle, reinterpret_cast<void*>(e->work->device_address())),
                "cufftSetWorkArea");
  }
  return e;
}

void FftEngine::use_stream(Stream& stream) {
  if (last_stream && last_stream.get() != &stream && last_stream->handle() != stream.handle()) {
    // The work area is the plan's: work on the new stream waits for what the
    // plan enqueued on the old one.
    const DriverApi& api = driver_api();
    if (!switch_event)
      check(api.cuEventCreate(&switch_event, CU_EVENT_DISABLE_TIMING), "cuEventCreate", device.get());
    check(api.cuEventRecord(switch_event, last_stream->handle()), "cuEventRecord", device.get());
    check(api.cuStreamWaitEvent(stream.handle(), switch_event, 0), "cuStreamWaitEvent", device.get());
  }
  if (!stream_bound || bound_stream != stream.handle()) {
    check_cufft(require_cufft().cufftSetStream(handle, stream.handle()), "cufftSetStream");
    bound_stream = stream.handle();
    stream_bound = true;
  }
}

FftEngine::~FftEngine() {
  if (!device || device->generation() != generation) return;  // died with the old context
  QuietContextScope bind(*device);
  if (!bind.ok()) return;  // no context to destroy them in: leaked with it
  if (switch_event) driver_api().cuEventDestroy(switch_event);
  // handle_made implies cuFFT loaded (cufft_state() cannot throw once loaded).
  if (handle_made) cufft_api().cufftDestroy(handle);
  // The work area goes after the plan, in order behind the work on last_stream
  // (Buffer's stream-ordered release).
}

}  // namespace dc
