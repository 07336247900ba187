#include "libs/blas/blas_level12.h"

#include <cinttypes>

#include "core/args.h"
#include "core/error.h"
#include "libs/blas/blas_operands.h"

namespace dc {
namespace {

// F32 or F64 only: the element size.
uint32_t vector_type(int32_t type) {
  if (type != DC_BLAS_F32 && type != DC_BLAS_F64)
    fail(DC_ERROR_INVALID_ARGUMENT, "type is %d (%s); the level-1 and level-2 calls take DC_BLAS_F32 (1) or "
         "DC_BLAS_F64 (2)", type, blas_type_name(type));
  return type == DC_BLAS_F32 ? 4 : 8;
}

// A checked vector of n >= 1 elements: pinned, within its buffer.
Pinned<Buffer> checked_vector(const Blas& blas, BlasVector v, int64_t n, uint32_t element, const char* name) {
  Pinned<Buffer> b = pin_operand(blas, v.buffer, name);
  require_within(*b, vector_end(v.offset, n, v.inc, element), name,
                 strf("offset %" PRIu64 ", %" PRId64 " elements of %u bytes, increment %" PRId64, v.offset, n,
                      element, v.inc).c_str());
  return b;
}

void require_inc(int64_t inc, const char* what) {
  if (inc < 1)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %" PRId64 "; dccuda takes increments of 1 or more (for a reversed "
         "vector, reverse it)", what, inc);
}

// The scalars in device pointer mode: `count` elements at s.offset of s.buffer.
// In host mode the buffer must be NULL.
Pinned<Buffer> checked_scalars(const Blas& blas, const BlasScalars& s, uint32_t count, uint32_t element,
                               const char* role) {
  // A handle given is checked as a handle first, whatever the mode.
  Pinned<Buffer> b;
  if (s.buffer) b = pin_operand(blas, s.buffer, "scalars");
  if (blas.pointer_mode() == DC_BLAS_POINTER_HOST) {
    if (b)
      fail(DC_ERROR_INVALID_ARGUMENT, "scalars is set but the handle is in host pointer mode (%s is passed by "
           "value); pass NULL or call dc_blas_set_pointer_mode(DC_BLAS_POINTER_DEVICE)", role);
    return {};
  }
  if (!s.buffer)
    fail(DC_ERROR_INVALID_ARGUMENT, "scalars is NULL but the handle is in device pointer mode (%s comes from device "
         "memory); pass the buffer, or call dc_blas_set_pointer_mode(DC_BLAS_POINTER_HOST)", role);
  require_within(*b, static_cast<unsigned __int128>(s.offset) + uint64_t(count) * element, "scalars",
                 strf("offset %" PRIu64 ", %u scalars of %u bytes", s.offset, count, element).c_str());
  return b;
}

void note(Blas& blas, std::initializer_list<const Pinned<Buffer>*> used) {
  for (const Pinned<Buffer>* b : used)
    if (*b) (*b)->note_use(&blas.stream());
  blas.note_work();
}

}  // namespace

void blas_axpy(Blas& blas, int32_t type, int64_t n, const BlasScalars& s, BlasVector x, BlasVector y) {
  uint32_t e = vector_type(type);
  require_nonnegative(n, "n");
  require_inc(x.inc, "incx");
  require_inc(y.inc, "incy");
  Pinned<Buffer> sc = checked_scalars(blas, s, 1, e, "alpha");
  if (n == 0) return;
  Pinned<Buffer> xb = checked_vector(blas, x, n, e, "x");
  Pinned<Buffer> yb = checked_vector(blas, y, n, e, "y");
  const CublasApi& api = require_cublas();
  float a32 = static_cast<float>(s.alpha);
  const void* alpha = sc ? operand_address(*sc, s.offset) : (e == 4 ? static_cast<const void*>(&a32) : &s.alpha);
  if (e == 4) {
    DC_REQUIRE_CUBLAS_FN(api, cublasSaxpy_v2_64, "12.0");
    check_cublas(api.cublasSaxpy_v2_64(blas.handle(), n, static_cast<const float*>(alpha),
                                       static_cast<const float*>(operand_address(*xb, x.offset)), x.inc,
                                       static_cast<float*>(operand_address(*yb, y.offset)), y.inc),
                 "cublasSaxpy_v2_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasDaxpy_v2_64, "12.0");
    check_cublas(api.cublasDaxpy_v2_64(blas.handle(), n, static_cast<const double*>(alpha),
                                       static_cast<const double*>(operand_address(*xb, x.offset)), x.inc,
                                       static_cast<double*>(operand_address(*yb, y.offset)), y.inc),
                 "cublasDaxpy_v2_64");
  }
  note(blas, {&xb, &yb, &sc});
}

void blas_scal(Blas& blas, int32_t type, int64_t n, const BlasScalars& s, BlasVector x) {
  uint32_t e = vector_type(type);
  require_nonnegative(n, "n");
  require_inc(x.inc, "incx");
  Pinned<Buffer> sc = checked_scalars(blas, s, 1, e, "alpha");
  if (n == 0) return;
  Pinned<Buffer> xb = checked_vector(blas, x, n, e, "x");
  const CublasApi& api = require_cublas();
  float a32 = static_cast<float>(s.alpha);
  const void* alpha = sc ? operand_address(*sc, s.offset) : (e == 4 ? static_cast<const void*>(&a32) : &s.alpha);
  if (e == 4) {
    DC_REQUIRE_CUBLAS_FN(api, cublasSscal_v2_64, "12.0");
    check_cublas(api.cublasSscal_v2_64(blas.handle(), n, static_cast<const float*>(alpha),
                                       static_cast<float*>(operand_address(*xb, x.offset)), x.inc),
                 "cublasSscal_v2_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasDscal_v2_64, "12.0");
    check_cublas(api.cublasDscal_v2_64(blas.handle(), n, static_cast<const double*>(alpha),
                                       static_cast<double*>(operand_address(*xb, x.offset)), x.inc),
                 "cublasDscal_v2_64");
  }
  note(blas, {&xb, &sc});
}

namespace {

// Where a level-1 result goes: host (a local of the element type, copied to
// *result after the call) or the scalars buffer.
struct ResultSlot {
  float f32 = 0;
  double f64 = 0;
  Pinned<Buffer> buffer;
  void* target(uint32_t e, uint64_t offset) {
    if (buffer) return operand_address(*buffer, offset);
    return e == 4 ? static_cast<void*>(&f32) : &f64;
  }
};

ResultSlot result_slot(const Blas& blas, const BlasScalars& s, double* result, uint32_t e) {
  ResultSlot r;
  r.buffer = checked_scalars(blas, s, 1, e, "the result");
  if (!r.buffer) require_arg(result, "result");
  return r;
}

}  // namespace

void blas_dot(Blas& blas, int32_t type, int64_t n, BlasVector x, BlasVector y, double* result, const BlasScalars& s) {
  uint32_t e = vector_type(type);
  require_nonnegative(n, "n");
  require_inc(x.inc, "incx");
  require_inc(y.inc, "incy");
  ResultSlot r = result_slot(blas, s, result, e);
  Pinned<Buffer> xb, yb;
  if (n > 0) {
    xb = checked_vector(blas, x, n, e, "x");
    yb = checked_vector(blas, y, n, e, "y");
  }
  const CublasApi& api = require_cublas();
  const void* px = xb ? operand_address(*xb, x.offset) : nullptr;
  const void* py = yb ? operand_address(*yb, y.offset) : nullptr;
  // cuBLAS answers n == 0 with 0 (written to the result in either mode).
  if (e == 4) {
    DC_REQUIRE_CUBLAS_FN(api, cublasSdot_v2_64, "12.0");
    check_cublas(api.cublasSdot_v2_64(blas.handle(), n, static_cast<const float*>(px), x.inc,
                                      static_cast<const float*>(py), y.inc,
                                      static_cast<float*>(r.target(e, s.offset))),
                 "cublasSdot_v2_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasDdot_v2_64, "12.0");
    check_cublas(api.cublasDdot_v2_64(blas.handle(), n, static_cast<const double*>(px), x.inc,
                                      static_cast<const double*>(py), y.inc,
                                      static_cast<double*>(r.target(e, s.offset))),
                 "cublasDdot_v2_64");
  }
  if (!r.buffer) *result = e == 4 ? r.f32 : r.f64;
  note(blas, {&xb, &yb, &r.buffer});
}

void blas_nrm2(Blas& blas, int32_t type, int64_t n, BlasVector x, double* result, const BlasScalars& s) {
  uint32_t e = vector_type(type);
  require_nonnegative(n, "n");
  require_inc(x.inc, "incx");
  ResultSlot r = result_slot(blas, s, result, e);
  Pinned<Buffer> xb;
  if (n > 0) xb = checked_vector(blas, x, n, e, "x");
  const CublasApi& api = require_cublas();
  const void* px = xb ? operand_address(*xb, x.offset) : nullptr;
  if (e == 4) {
    DC_REQUIRE_CUBLAS_FN(api, cublasSnrm2_v2_64, "12.0");
    check_cublas(api.cublasSnrm2_v2_64(blas.handle(), n, static_cast<const float*>(px), x.inc,
                                       static_cast<float*>(r.target(e, s.offset))),
                 "cublasSnrm2_v2_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasDnrm2_v2_64, "12.0");
    check_cublas(api.cublasDnrm2_v2_64(blas.handle(), n, static_cast<const double*>(px), x.inc,
                                       static_cast<double*>(r.target(e, s.offset))),
                 "cublasDnrm2_v2_64");
  }
  if (!r.buffer) *result = e == 4 ? r.f32 : r.f64;
  note(blas, {&xb, &r.buffer});
}

void blas_gemv(Blas& blas, int32_t type, int32_t trans, int64_t m, int64_t n, const BlasScalars& s, dc_buffer a,
               uint64_t a_offset, int64_t lda, BlasVector x, BlasVector y) {
  uint32_t e = vector_type(type);
  if (trans != DC_BLAS_OP_N && trans != DC_BLAS_OP_T)
    fail(DC_ERROR_INVALID_ARGUMENT, "trans is %d; pass DC_BLAS_OP_N (0) or DC_BLAS_OP_T (1)", trans);
  require_nonnegative(m, "m");
  require_nonnegative(n, "n");
  int64_t least = m > 1 ? m : 1;
  if (lda < least)
    fail(DC_ERROR_INVALID_ARGUMENT, "lda is %" PRId64 ", less than max(1, m) = %" PRId64 "; A is m x n column-major",
         lda, least);
  require_inc(x.inc, "incx");
  require_inc(y.inc, "incy");
  Pinned<Buffer> sc = checked_scalars(blas, s, 2, e, "alpha and beta");
  if (m == 0 || n == 0) return;
  bool t = trans == DC_BLAS_OP_T;
  Pinned<Buffer> ab = pin_operand(blas, a, "A");
  require_within(*ab, matrix_end(a_offset, m, n, lda, 0, 1, e), "A",
                 strf("offset %" PRIu64 ", %" PRId64 " x %" PRId64 " elements of %u bytes, lda %" PRId64, a_offset, m,
                      n, e, lda).c_str());
  Pinned<Buffer> xb = checked_vector(blas, x, t ? m : n, e, "x");
  Pinned<Buffer> yb = checked_vector(blas, y, t ? n : m, e, "y");
  const CublasApi& api = require_cublas();
  float a32 = static_cast<float>(s.alpha), b32 = static_cast<float>(s.beta);
  const void* alpha = sc ? operand_address(*sc, s.offset) : (e == 4 ? static_cast<const void*>(&a32) : &s.alpha);
  const void* beta = sc ? operand_address(*sc, s.offset + e) : (e == 4 ? static_cast<const void*>(&b32) : &s.beta);
  cublasOperation_t op = t ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (e == 4) {
    DC_REQUIRE_CUBLAS_FN(api, cublasSgemv_v2_64, "12.0");
    check_cublas(api.cublasSgemv_v2_64(blas.handle(), op, m, n, static_cast<const float*>(alpha),
                                       static_cast<const float*>(operand_address(*ab, a_offset)), lda,
                                       static_cast<const float*>(operand_address(*xb, x.offset)), x.inc,
                                       static_cast<const float*>(beta),
                                       static_cast<float*>(operand_address(*yb, y.offset)), y.inc),
                 "cublasSgemv_v2_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasDgemv_v2_64, "12.0");
    check_cublas(api.cublasDgemv_v2_64(blas.handle(), op, m, n, static_cast<const double*>(alpha),
                                       static_cast<const double*>(operand_address(*ab, a_offset)), lda,
                                       static_cast<const double*>(operand_address(*xb, x.offset)), x.inc,
                                       static_cast<const double*>(beta),
                                       static_cast<double*>(operand_address(*yb, y.offset)), y.inc),
                 "cublasDgemv_v2_64");
  }
  note(blas, {&ab, &xb, &yb, &sc});
}

}  // namespace dc
