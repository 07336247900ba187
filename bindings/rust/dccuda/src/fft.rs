//! cuFFT through dccuda (`dc_fft_plan`): plans for 1D/2D/3D batched transforms in cuFFT's
//! basic layout, run on a stream over typed device buffers. The element types are checked
//! against the plan's kind and precision before the call: [`ComplexF32`] / [`ComplexF64`]
//! for complex data, `f32` / `f64` for real data; dccuda checks the sizes.

use std::any::TypeId;

use crate::buffer::DeviceBuffer;
use crate::device::Device;
use crate::error::{check, Error, Result, Status};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::sys;

crate::owned_handle!(
    /// The owned `dc_fft_plan` inside an [`FftPlan`].
    FftPlanHandle,
    sys::dc_fft_plan,
    sys::dc_fft_plan_release
);

/// A cuFFT plan (`dc_fft_plan`); dropping it returns it to the plan cache.
pub struct FftPlan {
    handle: FftPlanHandle,
    kind: FftKind,
    precision: FftPrecision,
}

/// A single-precision complex number as cuFFT stores it (`cufftComplex`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComplexF32 {
    pub re: f32,
    pub im: f32,
}
crate::impl_pod!(ComplexF32 { re: f32, im: f32 });

/// A double-precision complex number as cuFFT stores it (`cufftDoubleComplex`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComplexF64 {
    pub re: f64,
    pub im: f64,
}
crate::impl_pod!(ComplexF64 { re: f64, im: f64 });

/// What a transform takes and gives (`sys::DC_FFT_C2C`...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    /// Complex to complex, forward or inverse.
    ComplexToComplex,
    /// Real to complex (the non-redundant half), forward only.
    RealToComplex,
    /// Complex (the half) to real, inverse only.
    ComplexToReal,
}

/// `sys::DC_FFT_SINGLE` / `sys::DC_FFT_DOUBLE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftPrecision {
    Single,
    Double,
}

/// `sys::DC_FFT_FORWARD` / `sys::DC_FFT_INVERSE` (unnormalised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftDirection {
    Forward,
    Inverse,
}

/// What a plan needs (`dc_fft_plan_info`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FftPlanInfo {
    pub reused: bool,
    pub work_area_bytes: u64,
    pub input_bytes: u64,
    pub output_bytes: u64,
    pub in_place_bytes: u64,
    pub cufft_version: i32,
}

/// The loaded cuFFT's version (12000 is 12.0.0), loading it.
///
/// # Errors
/// [`Status::NOT_SUPPORTED`] without cuFFT, the message saying what was tried.
pub fn cufft_version() -> Result<i32> {
    let mut v = 0;
    check(unsafe { sys::dc_fft_library_version(&mut v) })?;
    Ok(v)
}

impl FftPlan {
    /// A plan on `device` for `batch` transforms of `sizes` (1 to 3, the slowest varying
    /// first), from the plan cache when one of the same shape is idle there.
    ///
    /// # Errors
    /// The library's status and message when [`dc_fft_plan_create`](crate::sys::dc_fft_plan_create)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device, kind: FftKind, precision: FftPrecision, sizes: &[u64], batch: u64) -> Result<FftPlan> {
        let mut d = sys::dc_fft_desc { struct_size: std::mem::size_of::<sys::dc_fft_desc>() as u32, ..Default::default() };
        d.rank = sizes.len() as i32;
        d.kind = match kind {
            FftKind::ComplexToComplex => sys::DC_FFT_C2C,
            FftKind::RealToComplex => sys::DC_FFT_R2C,
            FftKind::ComplexToReal => sys::DC_FFT_C2R,
        };
        d.precision = match precision {
            FftPrecision::Single => sys::DC_FFT_SINGLE,
            FftPrecision::Double => sys::DC_FFT_DOUBLE,
        };
        for (i, s) in sizes.iter().take(3).enumerate() {
            d.sizes[i] = *s;
        }
        d.batch = batch;
        d.istride = 1;
        d.ostride = 1;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_fft_plan_create(device.as_raw(), &d, &mut raw) })?;
        Ok(FftPlan { handle: unsafe { FftPlanHandle::from_raw(raw) }, kind, precision })
    }

    /// The raw handle, still owned by `self`.
    pub fn as_raw(&self) -> sys::dc_fft_plan {
        self.handle.as_raw()
    }

    /// Gives up ownership: the caller releases the raw handle (`dc_fft_plan_release`).
    pub fn into_raw(self) -> sys::dc_fft_plan {
        self.handle.into_raw()
    }

    /// The plan's kind.
    pub fn kind(&self) -> FftKind {
        self.kind
    }

    /// The plan's precision.
    pub fn precision(&self) -> FftPrecision {
        self.precision
    }

    /// Later executes go to `stream` (`None`: the device's legacy default stream).
    ///
    /// # Errors
    /// As [`dc_fft_plan_set_stream`](crate::sys::dc_fft_plan_set_stream).
    pub fn set_stream(&mut self, stream: Option<&Stream>) -> Result<()> {
        let s = stream.map_or(std::ptr::null_mut(), |s| s.as_raw());
        check(unsafe { sys::dc_fft_plan_set_stream(self.as_raw(), s) })
    }

    /// The plan's work area, the bytes its buffers need, whether it came from the cache.
    ///
    /// # Errors
    /// As [`dc_fft_plan_info_get`](crate::sys::dc_fft_plan_info_get).
    pub fn info(&self) -> Result<FftPlanInfo> {
        let mut i = sys::dc_fft_plan_info { struct_size: std::mem::size_of::<sys::dc_fft_plan_info>() as u32, ..Default::default() };
        check(unsafe { sys::dc_fft_plan_info_get(self.as_raw(), &mut i) })?;
        Ok(FftPlanInfo {
            reused: i.reused != 0,
            work_area_bytes: i.work_area_bytes,
            input_bytes: i.input_bytes,
            output_bytes: i.output_bytes,
            in_place_bytes: i.in_place_bytes,
            cufft_version: i.cufft_version,
        })
    }

    /// Run the transform from `input` to `output` on the plan's stream, out of place.
    /// `In`/`Out` must match the plan (see the module's documentation).
    ///
    /// # Errors
    /// [`Status::INVALID_ARGUMENT`] for element types that do not match the plan; else as
    /// [`dc_fft_execute`](crate::sys::dc_fft_execute) (short buffers: `OUT_OF_RANGE`).
    pub fn execute<In: Pod, Out: Pod>(
        &self,
        input: &DeviceBuffer<In>,
        output: &mut DeviceBuffer<Out>,
        direction: FftDirection,
    ) -> Result<()> {
        self.check_types::<In, Out>()?;
        let dir = match direction {
            FftDirection::Forward => sys::DC_FFT_FORWARD,
            FftDirection::Inverse => sys::DC_FFT_INVERSE,
        };
        check(unsafe { sys::dc_fft_execute(self.as_raw(), input.as_raw(), 0, output.as_raw(), 0, dir) })
    }

    /// Run the transform in place in `data` (the real side of R2C/C2R padded, see dccuda.h).
    ///
    /// # Errors
    /// As [`FftPlan::execute`].
    pub fn execute_in_place<T: Pod>(&self, data: &mut DeviceBuffer<T>, direction: FftDirection) -> Result<()> {
        let complex = if self.precision == FftPrecision::Single { TypeId::of::<ComplexF32>() } else { TypeId::of::<ComplexF64>() };
        if TypeId::of::<T>() != complex {
            return Err(Error::local(
                Status::INVALID_ARGUMENT,
                "FftPlan::execute_in_place: in place, the buffer holds the complex side's type (ComplexF32 or ComplexF64)",
            ));
        }
        let dir = match direction {
            FftDirection::Forward => sys::DC_FFT_FORWARD,
            FftDirection::Inverse => sys::DC_FFT_INVERSE,
        };
        check(unsafe { sys::dc_fft_execute(self.as_raw(), data.as_raw(), 0, data.as_raw(), 0, dir) })
    }

    fn element(&self, real: bool) -> TypeId {
        match (self.precision, real) {
            (FftPrecision::Single, true) => TypeId::of::<f32>(),
            (FftPrecision::Single, false) => TypeId::of::<ComplexF32>(),
            (FftPrecision::Double, true) => TypeId::of::<f64>(),
            (FftPrecision::Double, false) => TypeId::of::<ComplexF64>(),
        }
    }

    fn check_types<In: 'static, Out: 'static>(&self) -> Result<()> {
        let want_in = self.element(self.kind == FftKind::RealToComplex);
        let want_out = self.element(self.kind == FftKind::ComplexToReal);
        if TypeId::of::<In>() != want_in || TypeId::of::<Out>() != want_out {
            return Err(Error::local(
                Status::INVALID_ARGUMENT,
                format!(
                    "FftPlan::execute: a {:?} {:?} plan takes {} to {}; the buffers hold {} and {}",
                    self.kind,
                    self.precision,
                    name_of(want_in),
                    name_of(want_out),
                    std::any::type_name::<In>(),
                    std::any::type_name::<Out>()
                ),
            ));
        }
        Ok(())
    }

    /// Destroy idle cached plans of `device` until at most `keep` are left.
    ///
    /// # Errors
    /// As [`dc_fft_plan_cache_trim`](crate::sys::dc_fft_plan_cache_trim).
    pub fn trim_cache(device: &Device, keep: u32) -> Result<()> {
        check(unsafe { sys::dc_fft_plan_cache_trim(device.as_raw(), keep) })
    }
}

fn name_of(t: TypeId) -> &'static str {
    if t == TypeId::of::<f32>() {
        "f32"
    } else if t == TypeId::of::<f64>() {
        "f64"
    } else if t == TypeId::of::<ComplexF32>() {
        "ComplexF32"
    } else {
        "ComplexF64"
    }
}
