//! cuFFT through dccuda (dc_fft_plan): plans for 1D/2D/3D batched transforms in
//! cuFFT's basic layout, run on a stream over dc_buffers. Offsets are in bytes;
//! dccuda checks every buffer against the bytes the plan reads and writes.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = @import("buffer.zig").Buffer;
const Stream = @import("stream.zig").Stream;

/// DC_FFT_C2C / R2C / C2R.
pub const FftKind = enum(i32) {
    /// Complex to complex, forward or inverse.
    c2c = c.DC_FFT_C2C,
    /// Real to complex (the non-redundant half), forward only.
    r2c = c.DC_FFT_R2C,
    /// Complex (the half) to real, inverse only.
    c2r = c.DC_FFT_C2R,
};

/// DC_FFT_SINGLE / DC_FFT_DOUBLE.
pub const FftPrecision = enum(i32) {
    single = c.DC_FFT_SINGLE,
    double = c.DC_FFT_DOUBLE,
};

/// DC_FFT_FORWARD / DC_FFT_INVERSE (unnormalised).
pub const FftDirection = enum(i32) {
    forward = c.DC_FFT_FORWARD,
    inverse = c.DC_FFT_INVERSE,
};

/// A single-precision complex number as cuFFT stores it (cufftComplex).
pub const ComplexF32 = extern struct { re: f32, im: f32 };
/// A double-precision complex number as cuFFT stores it (cufftDoubleComplex).
pub const ComplexF64 = extern struct { re: f64, im: f64 };

/// What a plan needs (dc_fft_plan_info).
pub const FftPlanInfo = c.dc_fft_plan_info;
/// A transform's full descriptor, the advanced layout included (dc_fft_desc).
pub const FftDesc = c.dc_fft_desc;

/// The loaded cuFFT's version (12000 is 12.0.0), loading it.
pub fn cufftVersion() DcError!i32 {
    var v: i32 = 0;
    try check(c.dc_fft_library_version(&v));
    return v;
}

pub const FftPlan = opaque {
    /// A plan on `dev` for `batch` transforms of `sizes` (1 to 3, the slowest
    /// varying first), from the plan cache when one of the same shape is idle.
    pub fn create(dev: *Device, kind: FftKind, precision: FftPrecision, sizes: []const u64, batch: u64) DcError!*FftPlan {
        var d = c.dc_fft_desc{};
        d.rank = @intCast(sizes.len);
        d.kind = @intFromEnum(kind);
        d.precision = @intFromEnum(precision);
        for (sizes, 0..) |s, i| {
            if (i < 3) d.sizes[i] = s;
        }
        d.batch = batch;
        return createDesc(dev, &d);
    }

    /// A plan for a full descriptor (the advanced layout: embed, stride, dist).
    pub fn createDesc(dev: *Device, desc: *const FftDesc) DcError!*FftPlan {
        var p: ?*FftPlan = null;
        try check(c.dc_fft_plan_create(dev, desc, &p));
        return errors.handle(FftPlan, p);
    }

    /// Release the plan (to the plan cache, or destroyed).
    pub fn deinit(self: *FftPlan) void {
        c.dc_fft_plan_release(self);
    }

    /// Later executes go to `stream` (null: the device's legacy default stream).
    pub fn setStream(self: *FftPlan, stream: ?*Stream) DcError!void {
        try check(c.dc_fft_plan_set_stream(self, stream));
    }

    /// The plan's work area, the bytes its buffers need, whether it was reused.
    pub fn info(self: *FftPlan) DcError!FftPlanInfo {
        var i = c.dc_fft_plan_info{};
        try check(c.dc_fft_plan_info_get(self, &i));
        return i;
    }

    /// Run the transform from `in` at byte `in_offset` to `out` at byte
    /// `out_offset` on the plan's stream (the same buffer and offset: in place).
    pub fn execute(self: *FftPlan, in: *Buffer, in_offset: u64, out: *Buffer, out_offset: u64, direction: FftDirection) DcError!void {
        try check(c.dc_fft_execute(self, in, in_offset, out, out_offset, @intFromEnum(direction)));
    }

    /// Destroy idle cached plans of `dev` until at most `keep` are left.
    pub fn trimCache(dev: *Device, keep: u32) DcError!void {
        try check(c.dc_fft_plan_cache_trim(dev, keep));
    }
};
