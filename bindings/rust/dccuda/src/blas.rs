//! cuBLAS through dccuda (`dc_blas`): a handle bound to one device and one stream, with a
//! workspace the library owns; GEMM and strided-batched GEMM over [`DeviceBuffer`]s of `f32`
//! or `f64`, and axpy, scal, dot, nrm2 and gemv. Every argument is checked by the library
//! against the buffers before cuBLAS sees it: a GEMM that would read past a buffer is an
//! [`Error`](crate::Error) with [`Status::OUT_OF_RANGE`](crate::Status) naming the matrix.
//! Calls on one [`Blas`] are serialised by the library (it is `Send` and `Sync`); for
//! parallel enqueueing use one per thread and stream.

use crate::buffer::DeviceBuffer;
use crate::device::Device;
use crate::error::{check, Result};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::sys;

crate::owned_handle!(
    /// A cuBLAS handle on one device and stream (`dc_blas`).
    Blas,
    sys::dc_blas,
    sys::dc_blas_release
);

/// The element types cuBLAS computes with here: `f32` and `f64`.
pub trait BlasElement: Pod + private::Sealed {
    /// `sys::DC_BLAS_F32` or `sys::DC_BLAS_F64`.
    const TYPE: i32;
}
impl BlasElement for f32 {
    const TYPE: i32 = sys::DC_BLAS_F32;
}
impl BlasElement for f64 {
    const TYPE: i32 = sys::DC_BLAS_F64;
}
mod private {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A matrix as stored or transposed (`sys::DC_BLAS_OP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlasOp {
    /// As stored.
    N,
    /// Transposed.
    T,
}

impl BlasOp {
    fn raw(self) -> i32 {
        match self {
            BlasOp::N => sys::DC_BLAS_OP_N,
            BlasOp::T => sys::DC_BLAS_OP_T,
        }
    }
}

/// One GEMM operand: a buffer and its leading dimension (elements), column-major.
pub struct Matrix<'a, T: BlasElement> {
    /// The elements.
    pub buffer: &'a DeviceBuffer<T>,
    /// The leading dimension, at least the stored rows.
    pub ld: i64,
}

/// The loaded cuBLAS's version, major * 10000 + minor * 100 + patch (130100).
///
/// # Errors
/// [`Status::NOT_SUPPORTED`](crate::Status) without cuBLAS, saying what was tried.
pub fn blas_library_version() -> Result<i32> {
    let mut v = 0;
    check(unsafe { sys::dc_blas_library_version(&mut v) })?;
    Ok(v)
}

impl Blas {
    /// A handle on `device` bound to `stream` (`None`: the legacy default stream).
    ///
    /// # Errors
    /// The library's status and message when `dc_blas_create` fails (no cuBLAS: not supported).
    pub fn new(device: &Device, stream: Option<&Stream>) -> Result<Blas> {
        let mut raw = std::ptr::null_mut();
        let s = stream.map_or(std::ptr::null_mut(), |s| s.as_raw());
        check(unsafe { sys::dc_blas_create(device.as_raw(), s, &mut raw) })?;
        Ok(Blas { raw })
    }

    /// Bind the handle to another stream of its device (`None`: the legacy default stream).
    ///
    /// # Errors
    /// As `dc_blas_set_stream`.
    pub fn set_stream(&self, stream: Option<&Stream>) -> Result<()> {
        let s = stream.map_or(std::ptr::null_mut(), |s| s.as_raw());
        check(unsafe { sys::dc_blas_set_stream(self.raw, s) })
    }

    /// C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n (column-major),
    /// enqueued on the handle's stream; `batch` > 1 with element strides for strided-batched
    /// GEMM (`None`: one GEMM).
    ///
    /// # Errors
    /// As `dc_blas_gemm`: invalid argument (a size, ld, stride), out of range (a matrix past
    /// its buffer, named).
    #[allow(clippy::too_many_arguments)]
    pub fn gemm<T: BlasElement>(
        &self, transa: BlasOp, transb: BlasOp, m: i64, n: i64, k: i64, alpha: f64, a: Matrix<'_, T>,
        b: Matrix<'_, T>, beta: f64, c: Matrix<'_, T>, batch: Option<(i64, [i64; 3])>,
    ) -> Result<()> {
        let mut d = sys::dc_blas_gemm_desc {
            transa: transa.raw(),
            transb: transb.raw(),
            ab_type: T::TYPE,
            c_type: T::TYPE,
            m,
            n,
            k,
            a_buffer: a.buffer.as_raw(),
            lda: a.ld,
            b_buffer: b.buffer.as_raw(),
            ldb: b.ld,
            c_buffer: c.buffer.as_raw(),
            ldc: c.ld,
            alpha,
            beta,
            ..Default::default()
        };
        if let Some((count, [sa, sb, sc])) = batch {
            d.batch_count = count;
            d.a_stride = sa;
            d.b_stride = sb;
            d.c_stride = sc;
        }
        check(unsafe { sys::dc_blas_gemm(self.raw, &d) })
    }

    /// y = alpha * x + y over `n` elements with increments.
    ///
    /// # Errors
    /// As `dc_blas_axpy`.
    pub fn axpy<T: BlasElement>(
        &self, n: i64, alpha: f64, x: &DeviceBuffer<T>, incx: i64, y: &mut DeviceBuffer<T>, incy: i64,
    ) -> Result<()> {
        check(unsafe {
            sys::dc_blas_axpy(self.raw, T::TYPE, n, alpha, x.as_raw(), 0, incx, y.as_raw(), 0, incy, std::ptr::null_mut(), 0)
        })
    }

    /// x = alpha * x over `n` elements.
    ///
    /// # Errors
    /// As `dc_blas_scal`.
    pub fn scal<T: BlasElement>(&self, n: i64, alpha: f64, x: &mut DeviceBuffer<T>, incx: i64) -> Result<()> {
        check(unsafe { sys::dc_blas_scal(self.raw, T::TYPE, n, alpha, x.as_raw(), 0, incx, std::ptr::null_mut(), 0) })
    }

    /// The dot product of x and y over `n` elements (waits for it).
    ///
    /// # Errors
    /// As `dc_blas_dot`.
    pub fn dot<T: BlasElement>(&self, n: i64, x: &DeviceBuffer<T>, incx: i64, y: &DeviceBuffer<T>, incy: i64) -> Result<f64> {
        let mut r = 0.0;
        check(unsafe {
            sys::dc_blas_dot(self.raw, T::TYPE, n, x.as_raw(), 0, incx, y.as_raw(), 0, incy, &mut r, std::ptr::null_mut(), 0)
        })?;
        Ok(r)
    }

    /// The Euclidean norm of x over `n` elements (waits for it).
    ///
    /// # Errors
    /// As `dc_blas_nrm2`.
    pub fn nrm2<T: BlasElement>(&self, n: i64, x: &DeviceBuffer<T>, incx: i64) -> Result<f64> {
        let mut r = 0.0;
        check(unsafe { sys::dc_blas_nrm2(self.raw, T::TYPE, n, x.as_raw(), 0, incx, &mut r, std::ptr::null_mut(), 0) })?;
        Ok(r)
    }

    /// y = alpha * op(A) * x + beta * y, A m x n column-major with leading dimension `a.ld`.
    ///
    /// # Errors
    /// As `dc_blas_gemv`.
    #[allow(clippy::too_many_arguments)]
    pub fn gemv<T: BlasElement>(
        &self, trans: BlasOp, m: i64, n: i64, alpha: f64, a: Matrix<'_, T>, x: &DeviceBuffer<T>, beta: f64,
        y: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        check(unsafe {
            sys::dc_blas_gemv(
                self.raw,
                T::TYPE,
                trans.raw(),
                m,
                n,
                alpha,
                a.buffer.as_raw(),
                0,
                a.ld,
                x.as_raw(),
                0,
                1,
                beta,
                y.as_raw(),
                0,
                1,
                std::ptr::null_mut(),
                0,
            )
        })
    }
}
