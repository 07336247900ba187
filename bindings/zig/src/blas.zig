//! cuBLAS through dccuda (dc_blas): a handle bound to one device and one
//! stream, with a workspace the library owns. GEMM through a GemmDesc (the C
//! descriptor, with its defaults: F32, no transpose, alpha 1, beta 0, one
//! batch) and axpy, scal, dot, nrm2, gemv in f32 or f64. Every argument is
//! checked by the library against the buffers before cuBLAS sees it: a matrix
//! past its buffer is error.OutOfRange with a message naming it. Calls on one
//! handle are serialised by the library.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = @import("buffer.zig").Buffer;
const Stream = @import("stream.zig").Stream;

/// The element types (DC_BLAS_*).
pub const BlasType = enum(i32) {
    f32 = c.DC_BLAS_F32,
    f64 = c.DC_BLAS_F64,
    f16 = c.DC_BLAS_F16,
    bf16 = c.DC_BLAS_BF16,
};

/// A matrix as stored or transposed (DC_BLAS_OP_*).
pub const BlasOp = enum(i32) {
    n = c.DC_BLAS_OP_N,
    t = c.DC_BLAS_OP_T,
};

/// A GEMM (dc_blas_gemm_desc): set m, n, k, the buffers and leading
/// dimensions; the rest has the C initialiser's defaults.
pub const GemmDesc = c.dc_blas_gemm_desc;

fn typeOf(comptime T: type) i32 {
    return switch (T) {
        f32 => c.DC_BLAS_F32,
        f64 => c.DC_BLAS_F64,
        else => @compileError("dc_blas: level-1/2 calls take f32 or f64, not " ++ @typeName(T)),
    };
}

/// The loaded cuBLAS's version, major * 10000 + minor * 100 + patch.
pub fn libraryVersion() DcError!i32 {
    var v: i32 = 0;
    try check(c.dc_blas_library_version(&v));
    return v;
}

pub const Blas = opaque {
    /// A handle on `dev` bound to `stream` (null: the legacy default stream).
    pub fn create(dev: *Device, stream: ?*Stream) DcError!*Blas {
        var b: ?*Blas = null;
        try check(c.dc_blas_create(dev, stream, &b));
        return errors.handle(Blas, b);
    }

    /// Release the handle (work already enqueued completes).
    pub fn deinit(self: *Blas) void {
        c.dc_blas_release(self);
    }

    /// Bind the handle to another stream of its device (null: the legacy default stream).
    pub fn setStream(self: *Blas, stream: ?*Stream) DcError!void {
        try check(c.dc_blas_set_stream(self, stream));
    }

    /// Enqueue the GEMM `desc` describes on the handle's stream.
    pub fn gemm(self: *Blas, desc: *const GemmDesc) DcError!void {
        try check(c.dc_blas_gemm(self, desc));
    }

    /// y = alpha * x + y over `n` elements of T (f32 or f64).
    pub fn axpy(self: *Blas, comptime T: type, n: i64, alpha: f64, x: *Buffer, incx: i64, y: *Buffer, incy: i64) DcError!void {
        try check(c.dc_blas_axpy(self, typeOf(T), n, alpha, x, 0, incx, y, 0, incy, null, 0));
    }

    /// x = alpha * x over `n` elements of T.
    pub fn scal(self: *Blas, comptime T: type, n: i64, alpha: f64, x: *Buffer, incx: i64) DcError!void {
        try check(c.dc_blas_scal(self, typeOf(T), n, alpha, x, 0, incx, null, 0));
    }

    /// The dot product of x and y over `n` elements of T (waits for it).
    pub fn dot(self: *Blas, comptime T: type, n: i64, x: *Buffer, incx: i64, y: *Buffer, incy: i64) DcError!f64 {
        var r: f64 = 0;
        try check(c.dc_blas_dot(self, typeOf(T), n, x, 0, incx, y, 0, incy, &r, null, 0));
        return r;
    }

    /// The Euclidean norm of x over `n` elements of T (waits for it).
    pub fn nrm2(self: *Blas, comptime T: type, n: i64, x: *Buffer, incx: i64) DcError!f64 {
        var r: f64 = 0;
        try check(c.dc_blas_nrm2(self, typeOf(T), n, x, 0, incx, &r, null, 0));
        return r;
    }

    /// y = alpha * op(A) * x + beta * y, A m x n column-major with leading dimension lda.
    pub fn gemv(self: *Blas, comptime T: type, trans: BlasOp, m: i64, n: i64, alpha: f64, a: *Buffer, lda: i64, x: *Buffer, beta: f64, y: *Buffer) DcError!void {
        try check(c.dc_blas_gemv(self, typeOf(T), @intFromEnum(trans), m, n, alpha, a, 0, lda, x, 0, 1, beta, y, 0, 1, null, 0));
    }
};
