// Entry points: cuBLAS through dccuda handles (dc_blas).
#include <mutex>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "libs/blas/blas_gemm.h"
#include "libs/blas/blas_handle.h"
#include "libs/blas/blas_level12.h"
#include "loader/cublas.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

// The handle's stream for `stream` (NULL: the device's legacy default stream).
Ref<Stream> blas_stream(Device& device, const Ref<Device>& device_ref, dc_stream stream) {
  if (!stream) return Stream::default_stream(device_ref, DC_STREAM_LEGACY);
  Pinned<Stream> s = pin<Stream>(stream, "stream");
  s->check_usable();
  if (&s->device() != &device)
    fail(DC_ERROR_INVALID_ARGUMENT, "stream belongs to device %d, the handle to device %d; pass a stream of the "
         "handle's device (or NULL for its default stream)", s->device().ordinal(), device.ordinal());
  return s.share();
}

// Every call on a handle: pinned, usable, its context bound, its mutex held.
template <class Body>
dc_status with_blas(const char* call, dc_blas blas, Body&& body) {
  return guarded(call, [&] {
    forbid_after_fork();
    Pinned<Blas> b = pin<Blas>(blas, "blas");
    b->check_usable();
    ContextScope bind(b->device());
    std::lock_guard<std::mutex> lock(b->mutex());
    body(*b);
    return DC_SUCCESS;
  });
}

}  // namespace

extern "C" {

DC_API dc_status dc_blas_library_version(int32_t* version) {
  return guarded("dc_blas_library_version", [&] {
    clear_out(version);
    forbid_after_fork();
    require_arg(version, "version");
    require_cublas();
    *version = cublas_state().version;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_blas_create(dc_device device, dc_stream stream, dc_blas* blas) {
  return guarded("dc_blas_create", [&] {
    clear_out(blas);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(blas, "blas");
    forbid_in_host_callback();
    d->check_usable();
    Ref<Stream> s = blas_stream(*d, d.share(), stream);
    require_cublas();
    ContextScope bind(*d);
    Ref<Blas> b = Blas::create(d.share(), std::move(s));
    *blas = issue_handle<dc_blas>(b.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_blas_release(dc_blas blas) { close_handle<Blas>(blas); }

DC_API dc_status dc_blas_set_stream(dc_blas blas, dc_stream stream) {
  return with_blas("dc_blas_set_stream", blas, [&](Blas& b) {
    b.set_stream(blas_stream(b.device(), b.device_ref(), stream));
  });
}

DC_API dc_status dc_blas_stream(dc_blas blas, dc_stream* stream) {
  clear_out(stream);
  return with_blas("dc_blas_stream", blas, [&](Blas& b) {
    require_arg(stream, "stream");
    *stream = issue_handle<dc_stream>(b.stream_ref().get());
  });
}

DC_API dc_status dc_blas_set_pointer_mode(dc_blas blas, int32_t mode) {
  return with_blas("dc_blas_set_pointer_mode", blas, [&](Blas& b) { b.set_pointer_mode(mode); });
}

DC_API dc_status dc_blas_set_math_mode(dc_blas blas, int32_t mode) {
  return with_blas("dc_blas_set_math_mode", blas, [&](Blas& b) { b.set_math_mode(mode); });
}

DC_API dc_status dc_blas_set_workspace_size(dc_blas blas, uint64_t bytes) {
  return with_blas("dc_blas_set_workspace_size", blas, [&](Blas& b) {
    forbid_in_host_callback();
    b.set_workspace_size(bytes);
  });
}

DC_API dc_status dc_blas_gemm(dc_blas blas, const dc_blas_gemm_desc* desc) {
  return with_blas("dc_blas_gemm", blas, [&](Blas& b) {
    require_arg(desc, "desc");
    require_struct_size(desc->struct_size, sizeof(dc_blas_gemm_desc), "desc", "DC_BLAS_GEMM_DESC_INIT");
    blas_gemm(b, *desc);
  });
}

DC_API dc_status dc_blas_axpy(dc_blas blas, int32_t type, int64_t n, double alpha, dc_buffer x, uint64_t x_offset,
                              int64_t incx, dc_buffer y, uint64_t y_offset, int64_t incy, dc_buffer scalars,
                              uint64_t scalars_offset) {
  return with_blas("dc_blas_axpy", blas, [&](Blas& b) {
    blas_axpy(b, type, n, {alpha, 0, scalars, scalars_offset}, {x, x_offset, incx}, {y, y_offset, incy});
  });
}

DC_API dc_status dc_blas_scal(dc_blas blas, int32_t type, int64_t n, double alpha, dc_buffer x, uint64_t x_offset,
                              int64_t incx, dc_buffer scalars, uint64_t scalars_offset) {
  return with_blas("dc_blas_scal", blas, [&](Blas& b) {
    blas_scal(b, type, n, {alpha, 0, scalars, scalars_offset}, {x, x_offset, incx});
  });
}

DC_API dc_status dc_blas_dot(dc_blas blas, int32_t type, int64_t n, dc_buffer x, uint64_t x_offset, int64_t incx,
                             dc_buffer y, uint64_t y_offset, int64_t incy, double* result, dc_buffer scalars,
                             uint64_t scalars_offset) {
  clear_out(result);
  return with_blas("dc_blas_dot", blas, [&](Blas& b) {
    blas_dot(b, type, n, {x, x_offset, incx}, {y, y_offset, incy}, result, {0, 0, scalars, scalars_offset});
  });
}

DC_API dc_status dc_blas_nrm2(dc_blas blas, int32_t type, int64_t n, dc_buffer x, uint64_t x_offset, int64_t incx,
                              double* result, dc_buffer scalars, uint64_t scalars_offset) {
  clear_out(result);
  return with_blas("dc_blas_nrm2", blas, [&](Blas& b) {
    blas_nrm2(b, type, n, {x, x_offset, incx}, result, {0, 0, scalars, scalars_offset});
  });
}

DC_API dc_status dc_blas_gemv(dc_blas blas, int32_t type, int32_t trans, int64_t m, int64_t n, double alpha,
                              dc_buffer a, uint64_t a_offset, int64_t lda, dc_buffer x, uint64_t x_offset,
                              int64_t incx, double beta, dc_buffer y, uint64_t y_offset, int64_t incy,
                              dc_buffer scalars, uint64_t scalars_offset) {
  return with_blas("dc_blas_gemv", blas, [&](Blas& b) {
    blas_gemv(b, type, trans, m, n, {alpha, beta, scalars, scalars_offset}, a, a_offset, lda, {x, x_offset, incx},
              {y, y_offset, incy});
  });
}

}  // extern "C"
