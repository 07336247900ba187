#include "libs/blas/blas_handle.h"

#include "core/error.h"
#include "device/quiet_context.h"

namespace dc {

void check_cublas(int status, const char* entry) {
  if (status == CUBLAS_STATUS_SUCCESS) [[likely]]
    return;
  dc_status s = DC_ERROR_DRIVER;
  const char* hint = "check the arguments and the device; this may be a cuBLAS limitation";
  if (status == CUBLAS_STATUS_ALLOC_FAILED) {
    s = DC_ERROR_OUT_OF_MEMORY;
    hint = "free device memory and try again";
  } else if (status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_ARCH_MISMATCH) {
    s = DC_ERROR_NOT_SUPPORTED;
    hint = "this device or cuBLAS version does not offer it: choose another type or compute type";
  } else if (status == CUBLAS_STATUS_NOT_INITIALIZED) {
    hint = "cuBLAS could not initialise (a driver or device problem)";
  }
  fail(s, "%s failed with %s; %s", entry, cublas_status_name(status).c_str(), hint);
}

Ref<Blas> Blas::create(Ref<Device> device, Ref<Stream> stream) {
  const CublasApi& api = require_cublas();
  Ref<Blas> b = Ref<Blas>::adopt(new Blas(std::move(device), std::move(stream)));
  check_cublas(api.cublasCreate_v2(&b->handle_), "cublasCreate_v2");
  check_cublas(api.cublasSetStream_v2(b->handle_, b->stream_->handle()), "cublasSetStream_v2");
  b->replace_workspace();
  return b;
}

Blas::~Blas() {
  if (!handle_ || !current()) return;  // made before dc_device_reset: gone with the old context
  QuietContextScope bind(device());
  if (bind.ok()) cublas_api_unchecked().cublasDestroy_v2(handle_);
  // workspace_ then goes, in order on the stream it was last used on.
}

void Blas::replace_workspace() {
  const CublasApi& api = require_cublas();
  DC_REQUIRE_CUBLAS_FN(api, cublasSetWorkspace_v2, "11.0");
  Ref<Buffer> fresh;
  if (workspace_bytes_ > 0) fresh = Buffer::alloc_device(device_ref(), workspace_bytes_, 0);
  check_cublas(api.cublasSetWorkspace_v2(handle_, fresh ? reinterpret_cast<void*>(fresh->device_address()) : nullptr,
                                         static_cast<size_t>(workspace_bytes_)),
               "cublasSetWorkspace_v2");
  workspace_ = std::move(fresh);
}

void Blas::set_stream(Ref<Stream> stream) {
  const CublasApi& api = require_cublas();
  check_cublas(api.cublasSetStream_v2(handle_, stream->handle()), "cublasSetStream_v2");
  stream_ = std::move(stream);
  // cublasSetStream_v2 puts cuBLAS back on its own workspace pool; a fresh one
  // of ours also keeps work still running on the old stream off the new
  // stream's workspace.
  replace_workspace();
}

void Blas::set_pointer_mode(int32_t mode) {
  if (mode != DC_BLAS_POINTER_HOST && mode != DC_BLAS_POINTER_DEVICE)
    fail(DC_ERROR_INVALID_ARGUMENT, "mode is %d; pass DC_BLAS_POINTER_HOST (0) or DC_BLAS_POINTER_DEVICE (1)", mode);
  const CublasApi& api = require_cublas();
  check_cublas(api.cublasSetPointerMode_v2(handle_, mode == DC_BLAS_POINTER_HOST ? CUBLAS_POINTER_MODE_HOST
                                                                                  : CUBLAS_POINTER_MODE_DEVICE),
               "cublasSetPointerMode_v2");
  pointer_mode_ = mode;
}

void Blas::set_math_mode(int32_t mode) {
  cublasMath_t m;
  switch (mode) {
    case DC_BLAS_MATH_DEFAULT: m = CUBLAS_DEFAULT_MATH; break;
    case DC_BLAS_MATH_PEDANTIC: m = CUBLAS_PEDANTIC_MATH; break;
    case DC_BLAS_MATH_TF32_TENSOR_OP: m = CUBLAS_TF32_TENSOR_OP_MATH; break;
    default:
      fail(DC_ERROR_INVALID_ARGUMENT, "mode is %d; pass DC_BLAS_MATH_DEFAULT (0), DC_BLAS_MATH_PEDANTIC (2) or "
           "DC_BLAS_MATH_TF32_TENSOR_OP (3)", mode);
  }
  const CublasApi& api = require_cublas();
  check_cublas(api.cublasSetMathMode(handle_, m), "cublasSetMathMode");
}

void Blas::set_workspace_size(uint64_t bytes) {
  uint64_t old = workspace_bytes_;
  workspace_bytes_ = bytes;
  try {
    replace_workspace();
  } catch (...) {
    workspace_bytes_ = old;
    throw;
  }
}

}  // namespace dc
