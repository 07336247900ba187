#include "libs/blas/blas_gemm.h"

#include <cinttypes>
#include <string>

#include "core/error.h"
#include "libs/blas/blas_operands.h"

namespace dc {
namespace {

struct Compute {
  cublasComputeType_t type;
  uint32_t scalar_size;  // alpha and beta: float for the 32F kinds, double for 64F
};

Compute resolve_compute(const dc_blas_gemm_desc& d) {
  int32_t c = d.compute;
  if (c == DC_BLAS_COMPUTE_DEFAULT) c = d.ab_type == DC_BLAS_F64 ? DC_BLAS_COMPUTE_64F : DC_BLAS_COMPUTE_32F;
  bool f64 = d.ab_type == DC_BLAS_F64 && d.c_type == DC_BLAS_F64;
  bool f32 = d.ab_type == DC_BLAS_F32 && d.c_type == DC_BLAS_F32;
  bool half = (d.ab_type == DC_BLAS_F16 || d.ab_type == DC_BLAS_BF16) &&
              (d.c_type == d.ab_type || d.c_type == DC_BLAS_F32);
  auto refuse = [&](const char* allowed) {
    fail(DC_ERROR_INVALID_ARGUMENT, "compute %d with ab_type %s and c_type %s is not a combination cuBLAS offers; "
         "%s", d.compute, blas_type_name(d.ab_type), blas_type_name(d.c_type), allowed);
  };
  switch (c) {
    case DC_BLAS_COMPUTE_64F:
    case DC_BLAS_COMPUTE_64F_PEDANTIC:
      if (!f64) refuse("the 64F compute types take F64 A, B and C");
      return {c == DC_BLAS_COMPUTE_64F ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_64F_PEDANTIC, 8};
    case DC_BLAS_COMPUTE_32F:
    case DC_BLAS_COMPUTE_32F_PEDANTIC:
      if (!f32 && !half)
        refuse("the 32F compute types take F32 -> F32, F16 -> F16 or F32, BF16 -> BF16 or F32 (F64 needs 64F)");
      return {c == DC_BLAS_COMPUTE_32F ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_PEDANTIC, 4};
    case DC_BLAS_COMPUTE_32F_FAST_16F:
    case DC_BLAS_COMPUTE_32F_FAST_16BF:
    case DC_BLAS_COMPUTE_32F_FAST_TF32:
      if (!f32) refuse("the 32F_FAST_ compute types take F32 A, B and C (for F16/BF16 data use DC_BLAS_COMPUTE_32F)");
      return {c == DC_BLAS_COMPUTE_32F_FAST_16F    ? CUBLAS_COMPUTE_32F_FAST_16F
              : c == DC_BLAS_COMPUTE_32F_FAST_16BF ? CUBLAS_COMPUTE_32F_FAST_16BF
                                                   : CUBLAS_COMPUTE_32F_FAST_TF32,
              4};
  }
  fail(DC_ERROR_INVALID_ARGUMENT, "compute is %d; pass a DC_BLAS_COMPUTE_* value (0 to 7)", d.compute);
}

void require_op(int32_t op, const char* what) {
  if (op != DC_BLAS_OP_N && op != DC_BLAS_OP_T)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %d; pass DC_BLAS_OP_N (0) or DC_BLAS_OP_T (1)", what, op);
}

void require_ld(int64_t ld, int64_t rows, const char* what, const char* rows_name) {
  int64_t least = rows > 1 ? rows : 1;
  if (ld < least)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %" PRId64 ", less than max(1, %s) = %" PRId64 "; a column-major matrix "
         "needs a leading dimension of at least its stored rows", what, ld, rows_name, least);
}

std::string shape(const char* name, uint64_t offset, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                  int64_t batches, uint32_t element) {
  std::string s = strf("offset %" PRIu64 ", %" PRId64 " x %" PRId64 " elements of %u bytes, ld %" PRId64, offset, rows,
                       cols, element, ld);
  if (batches > 1) s += strf(", %" PRId64 " batches %" PRId64 " elements apart", batches, stride);
  (void)name;
  return s;
}

// One matrix of the descriptor.
struct Operand {
  dc_buffer buffer;
  uint64_t offset;
  int64_t ld;
  int64_t stride;
};

// A checked matrix operand: pinned, within its buffer.
Pinned<Buffer> checked_matrix(const Blas& blas, const Operand& m, const char* name, int64_t rows, int64_t cols,
                              int64_t batches, uint32_t element) {
  Pinned<Buffer> b = pin_operand(blas, m.buffer, name);
  int64_t stride = batches > 1 ? m.stride : 0;
  require_within(*b, matrix_end(m.offset, rows, cols, m.ld, stride, batches, element), name,
                 shape(name, m.offset, rows, cols, m.ld, stride, batches, element).c_str());
  return b;
}

// A scalar operand in device pointer mode.
Pinned<Buffer> checked_scalar(const Blas& blas, dc_buffer buffer, uint64_t offset, uint32_t size, const char* name) {
  if (!buffer)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL but the handle is in device pointer mode; give the buffer holding "
         "the scalar, or set DC_BLAS_POINTER_HOST", name);
  Pinned<Buffer> b = pin_operand(blas, buffer, name);
  require_within(*b, static_cast<unsigned __int128>(offset) + size, name,
                 strf("offset %" PRIu64 ", one scalar of %u bytes", offset, size).c_str());
  return b;
}

}  // namespace

void blas_gemm(Blas& blas, const dc_blas_gemm_desc& d) {
  if (d.reserved != 0) fail(DC_ERROR_INVALID_ARGUMENT, "desc->reserved is %d; set it to 0", d.reserved);
  require_op(d.transa, "desc->transa");
  require_op(d.transb, "desc->transb");
  uint32_t ab_size = blas_element_size(d.ab_type, "desc->ab_type");
  uint32_t c_size = blas_element_size(d.c_type, "desc->c_type");
  Compute compute = resolve_compute(d);
  require_nonnegative(d.m, "desc->m");
  require_nonnegative(d.n, "desc->n");
  require_nonnegative(d.k, "desc->k");
  require_positive(d.batch_count, "desc->batch_count");
  bool ta = d.transa == DC_BLAS_OP_T, tb = d.transb == DC_BLAS_OP_T;
  int64_t a_rows = ta ? d.k : d.m, a_cols = ta ? d.m : d.k;
  int64_t b_rows = tb ? d.n : d.k, b_cols = tb ? d.k : d.n;
  const Operand oa{d.a_buffer, d.a_offset, d.lda, d.a_stride}, ob{d.b_buffer, d.b_offset, d.ldb, d.b_stride},
      oc{d.c_buffer, d.c_offset, d.ldc, d.c_stride};
  require_ld(d.lda, a_rows, "desc->lda", ta ? "k (A is transposed)" : "m");
  require_ld(d.ldb, b_rows, "desc->ldb", tb ? "n (B is transposed)" : "k");
  require_ld(d.ldc, d.m, "desc->ldc", "m");
  int64_t batches = d.batch_count;
  if (batches > 1) {
    require_nonnegative(d.a_stride, "desc->a_stride");
    require_nonnegative(d.b_stride, "desc->b_stride");
    require_nonnegative(d.c_stride, "desc->c_stride");
  }
  bool device_scalars = blas.pointer_mode() == DC_BLAS_POINTER_DEVICE;
  // Given handles are checked as handles first, whatever the mode.
  if (d.alpha_buffer) pin_operand(blas, d.alpha_buffer, "desc->alpha_buffer");
  if (d.beta_buffer) pin_operand(blas, d.beta_buffer, "desc->beta_buffer");
  if (!device_scalars && (d.alpha_buffer || d.beta_buffer))
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->%s is set but the handle is in host pointer mode, which takes desc->alpha "
         "and desc->beta; leave the buffers NULL or call dc_blas_set_pointer_mode(DC_BLAS_POINTER_DEVICE)",
         d.alpha_buffer ? "alpha_buffer" : "beta_buffer");
  if (d.m == 0 || d.n == 0) return;  // cuBLAS does nothing either; the handles were checked

  // (In 128 bits: ldc is only known to be >= m here.)
  if (batches > 1 && static_cast<unsigned __int128>(d.c_stride) <
                         static_cast<unsigned __int128>(d.n - 1) * static_cast<uint64_t>(d.ldc) + static_cast<uint64_t>(d.m))
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->c_stride is %" PRId64 " elements, less than one C ((n - 1) * ldc + m "
         "elements); batches of C would overlap: give each its own elements", d.c_stride);
  Pinned<Buffer> c = checked_matrix(blas, oc, "C (desc->c_buffer)", d.m, d.n, batches, c_size);
  Pinned<Buffer> a, b;
  if (d.k > 0) {
    a = checked_matrix(blas, oa, "A (desc->a_buffer)", a_rows, a_cols, batches, ab_size);
    b = checked_matrix(blas, ob, "B (desc->b_buffer)", b_rows, b_cols, batches, ab_size);
  }
  Pinned<Buffer> alpha_buf, beta_buf;
  float alpha32 = static_cast<float>(d.alpha), beta32 = static_cast<float>(d.beta);
  const void* alpha = compute.scalar_size == 4 ? static_cast<const void*>(&alpha32) : &d.alpha;
  const void* beta = compute.scalar_size == 4 ? static_cast<const void*>(&beta32) : &d.beta;
  if (device_scalars) {
    alpha_buf = checked_scalar(blas, d.alpha_buffer, d.alpha_offset, compute.scalar_size, "desc->alpha_buffer");
    beta_buf = checked_scalar(blas, d.beta_buffer, d.beta_offset, compute.scalar_size, "desc->beta_buffer");
    alpha = operand_address(*alpha_buf, d.alpha_offset);
    beta = operand_address(*beta_buf, d.beta_offset);
  }

  const CublasApi& api = require_cublas();
  cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  const void* pa = a ? operand_address(*a, d.a_offset) : nullptr;
  const void* pb = b ? operand_address(*b, d.b_offset) : nullptr;
  void* pc = operand_address(*c, d.c_offset);
  cudaDataType ab = blas_cuda_type(d.ab_type), ct = blas_cuda_type(d.c_type);
  if (batches == 1) {
    DC_REQUIRE_CUBLAS_FN(api, cublasGemmEx_64, "12.0");
    check_cublas(api.cublasGemmEx_64(blas.handle(), opa, opb, d.m, d.n, d.k, alpha, pa, ab, d.lda, pb, ab, d.ldb,
                                     beta, pc, ct, d.ldc, compute.type, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx_64");
  } else {
    DC_REQUIRE_CUBLAS_FN(api, cublasGemmStridedBatchedEx_64, "12.0");
    check_cublas(api.cublasGemmStridedBatchedEx_64(blas.handle(), opa, opb, d.m, d.n, d.k, alpha, pa, ab, d.lda,
                                                   d.a_stride, pb, ab, d.ldb, d.b_stride, beta, pc, ct, d.ldc,
                                                   d.c_stride, batches, compute.type, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx_64");
  }
  Stream* s = &blas.stream();
  c->note_use(s);
  if (a) a->note_use(s);
  if (b) b->note_use(s);
  if (alpha_buf) alpha_buf->note_use(s);
  if (beta_buf) beta_buf->note_use(s);
  blas.note_work();
}

}  // namespace dc
