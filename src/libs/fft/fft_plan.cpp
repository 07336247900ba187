#include "libs/fft/fft_plan.h"

#include <cinttypes>

#include "core/error.h"
#include "libs/fft/plan_cache.h"
#include "loader/cufft.h"

namespace dc {
namespace {

// Checks one side: the buffer's device, memory the device can address, the
// offset's alignment and the bytes from it.
// `side` is "input" or "output"; `arg` the buffer's parameter ("in", "out").
CUdeviceptr side_address(const Device& device, Buffer& b, uint64_t offset, uint64_t need, uint32_t element,
                         const char* side, const char* arg) {
  if (&b.device() != &device)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s (the %s) is on device %d, the plan on device %d; use a buffer of the plan's "
         "device", arg, side, b.device().ordinal(), device.ordinal());
  if (b.device_address() == 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s (the %s) is host memory the device cannot address; use device, managed or "
         "pinned memory", arg, side);
  uint64_t size = b.size();
  if (offset > size || size - offset < need)
    fail(DC_ERROR_OUT_OF_RANGE, "the %s needs %" PRIu64 " bytes from %s_offset %" PRIu64 ", but %s holds %" PRIu64
         " bytes; pass a larger buffer or a smaller offset", side, need, arg, offset, arg, size);
  if (offset % element != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s_offset %" PRIu64 " is not a multiple of the %s element size (%u bytes); "
         "align it", arg, offset, side, element);
  return b.device_address() + offset;
}

}  // namespace

FftPlan::FftPlan(Ref<Device> device, const FftShape& shape) noexcept
    : DeviceObject(HandleType::FftPlan, std::move(device)), shape_(shape), bytes_(fft_bytes(shape)) {}

Ref<FftPlan> FftPlan::create(Ref<Device> device, const FftShape& shape) {
  require_cufft();
  Ref<FftPlan> p = Ref<FftPlan>::adopt(new FftPlan(device, shape));
  p->engine_ = fft_cache_take(*device, shape);
  p->reused_ = p->engine_ != nullptr;
  if (!p->engine_) p->engine_ = FftEngine::make(device, shape);
  p->stream_ = Stream::default_stream(device, DC_STREAM_LEGACY);
  return p;
}

FftPlan::~FftPlan() {
  if (engine_) fft_cache_give(shape_, std::move(engine_));
}

void FftPlan::execute(Buffer& in, uint64_t in_offset, Buffer& out, uint64_t out_offset, int32_t direction) {
  if (direction != DC_FFT_FORWARD && direction != DC_FFT_INVERSE)
    fail(DC_ERROR_INVALID_ARGUMENT, "direction is %d; pass DC_FFT_FORWARD (-1) or DC_FFT_INVERSE (1)", direction);
  if (shape_.type == DC_FFT_R2C && direction != DC_FFT_FORWARD)
    fail(DC_ERROR_INVALID_ARGUMENT, "direction is DC_FFT_INVERSE, but an R2C plan only transforms forward; "
         "make a C2R plan for the inverse");
  if (shape_.type == DC_FFT_C2R && direction != DC_FFT_INVERSE)
    fail(DC_ERROR_INVALID_ARGUMENT, "direction is DC_FFT_FORWARD, but a C2R plan only transforms inverse; "
         "make an R2C plan for the forward transform");
  // In place: both sides at one address (the same buffer and offset, or views of one memory).
  const bool in_place = in.device_address() != 0 && in.device_address() + in_offset == out.device_address() + out_offset;
  uint32_t in_elem = fft_input_element_bytes(shape_), out_elem = fft_output_element_bytes(shape_);
  uint64_t in_need = in_place ? bytes_.in_place : bytes_.input;
  uint64_t out_need = in_place ? bytes_.in_place : bytes_.output;
  CUdeviceptr src = side_address(device(), in, in_offset, in_need, in_elem, "input", "in");
  CUdeviceptr dst = side_address(device(), out, out_offset, out_need, out_elem, "output", "out");
  if (!in_place && src < dst + out_need && dst < src + in_need)
    fail(DC_ERROR_INVALID_ARGUMENT, "the input (%" PRIu64 " bytes at offset %" PRIu64 ") and the output (%" PRIu64
         " bytes at offset %" PRIu64 ") overlap; pass the same buffer and offset for an in-place transform, or "
         "ranges that do not overlap", in_need, in_offset, out_need, out_offset);
  Stream& s = *stream_;
  engine_->use_stream(s);
  const CufftApi& fft = cufft_api();
  cufftHandle h = engine_->handle;
  int r = CUFFT_SUCCESS;
  const char* entry = "";
  bool dbl = shape_.precision == DC_FFT_DOUBLE;
  void* i = reinterpret_cast<void*>(src);
  void* o = reinterpret_cast<void*>(dst);
  switch (shape_.type) {
    case DC_FFT_C2C:
      entry = dbl ? "cufftExecZ2Z" : "cufftExecC2C";
      r = dbl ? fft.cufftExecZ2Z(h, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleComplex*>(o), direction)
              : fft.cufftExecC2C(h, static_cast<cufftComplex*>(i), static_cast<cufftComplex*>(o), direction);
      break;
    case DC_FFT_R2C:
      entry = dbl ? "cufftExecD2Z" : "cufftExecR2C";
      r = dbl ? fft.cufftExecD2Z(h, static_cast<cufftDoubleReal*>(i), static_cast<cufftDoubleComplex*>(o))
              : fft.cufftExecR2C(h, static_cast<cufftReal*>(i), static_cast<cufftComplex*>(o));
      break;
    default:
      entry = dbl ? "cufftExecZ2D" : "cufftExecC2R";
      r = dbl ? fft.cufftExecZ2D(h, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleReal*>(o))
              : fft.cufftExecC2R(h, static_cast<cufftComplex*>(i), static_cast<cufftReal*>(o));
      break;
  }
  // Whatever cuFFT enqueued uses these: their frees wait for it.
  engine_->last_stream = stream_;
  if (engine_->work) engine_->work->note_use(&s);
  in.note_use(&s);
  out.note_use(&s);
  check_cufft(r, entry);
}

}  // namespace dc
