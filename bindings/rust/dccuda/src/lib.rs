//! A safe Rust API over dccuda, a C library over the CUDA driver API and NVRTC.
//!
//! ```no_run
//! use dccuda::{CompileOptions, Device, DeviceBuffer, LaunchConfig, Module, Stream};
//!
//! # fn main() -> dccuda::Result<()> {
//! let device = Device::open(0)?;
//! let module = Module::compile_and_load(
//!     &device,
//!     r#"extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
//!            int i = blockIdx.x * blockDim.x + threadIdx.x;
//!            if (i < n) y[i] = a * x[i] + y[i];
//!        }"#,
//!     &CompileOptions::new(),
//! )?;
//! let saxpy = module.function("saxpy")?;
//! let n = 1024usize;
//! let x = DeviceBuffer::from_slice(&device, &vec![1.0f32; n])?;
//! let mut y = DeviceBuffer::from_slice(&device, &vec![2.0f32; n])?;
//! let stream = Stream::new(&device)?;
//! // SAFETY: saxpy takes (float, const float*, float*, int) and reads and writes n floats
//! // of x and y, which hold n floats each and outlive the stream's work.
//! unsafe {
//!     saxpy
//!         .launch(&LaunchConfig::linear(n as u32, 256))
//!         .arg(&3.0f32)
//!         .arg(&x)
//!         .arg(&y)
//!         .arg(&(n as i32))
//!         .launch(&stream)?;
//! }
//! stream.synchronize()?;
//! assert!(y.to_vec()?.iter().all(|&v| v == 5.0));
//! # Ok(()) }
//! ```
//!
//! Every handle of the C API is an owned Rust value released by `Drop`. Every failure is an
//! [`Error`] with the library's status, message, raw CUDA / NVRTC codes and log. The raw
//! declarations are in [`sys`] (the `dccuda-sys` crate).
//!
//! Threads: the library lets every call come from any thread, so the handle types are `Send`
//! and `Sync`; what must not be done from several threads at once (changing a prepared
//! launch, ending a capture) takes `&mut self`.

#![deny(unsafe_op_in_unsafe_fn)]
// Every fallible public function says how it fails; every unsafe one what it requires
// (rust.clippy runs with -D warnings).
#![warn(clippy::missing_errors_doc, clippy::missing_safety_doc)]

pub use dccuda_sys as sys;

use std::path::PathBuf;

mod blas;
mod buffer;
mod callback;
mod comm;
mod compile;
mod device;
mod diagnostics;
mod error;
mod event;
mod fft;
mod graph;
mod kernel_library;
mod launch;
mod link;
mod mem_ops;
mod module;
mod pod;
mod pool;
mod queue;
mod stream;
mod stream_uses;

pub use blas::{blas_library_version, Blas, BlasElement, BlasOp, Matrix};
pub use buffer::{BufferKind, CopyPath, DeviceBuffer, Location, RegisteredBuffer};
pub use comm::{group, nccl_version, unique_id, Comm, NcclType, ReduceOp};
pub use compile::{cache_clear, cache_directory, cache_directory_path, CacheSource, CompileOptions, Output, Program};
pub use device::{Device, DeviceInfo, Limit};
pub use diagnostics::{clear_logger, handle_report, set_logger, telemetry_library, Level, Log, Record, Telemetry};
pub use error::{cuda_error_name, Error, Result, Status};
pub use event::Event;
pub use fft::{cufft_version, ComplexF32, ComplexF64, FftDirection, FftKind, FftPlan, FftPlanInfo, FftPrecision};
pub use graph::{Capture, CaptureMode, Conditional, Graph, Node};
pub use kernel_library::Library;
pub use link::{nvjitlink_version, LinkInput, LinkInputKind, LinkOptions};
pub use launch::{Dim3, IntoKernelArg, KernelArg, Launch, LaunchBuilder, LaunchConfig};
pub use mem_ops::{Compare, MemOp};
pub use module::{Function, FunctionInfo, Module, ModuleOptions};
pub use pod::Pod;
pub use pool::{Pool, PoolAttribute, PoolStats};
pub use queue::{Control, ControlState, Direction, Queue, QueueHandle, Wait};
pub use stream::{DefaultStream, Stream};

use error::{check, owned_string};

/// Defines an owned handle type: the raw handle, released once in Drop, and the raw access
/// every wrapper offers (`as_raw`, `into_raw`, `from_raw`).
macro_rules! owned_handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $release:path) => {
        $(#[$doc])*
        pub struct $name {
            raw: $raw,
        }

        impl $name {
            /// The raw handle, still owned by `self`.
            pub fn as_raw(&self) -> $raw {
                self.raw
            }

            /// Gives up ownership: the caller releases the raw handle.
            pub fn into_raw(self) -> $raw {
                let raw = self.raw;
                std::mem::forget(self);
                raw
            }

            /// Takes ownership of a raw handle.
            ///
            /// # Safety
            /// `raw` must be a live handle of this type that nothing else releases.
            pub unsafe fn from_raw(raw: $raw) -> Self {
                Self { raw }
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // Release functions accept anything and never touch the last error.
                unsafe { $release(self.raw) }
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.raw)
            }
        }

        // The library lets every call come from any thread, concurrently; a handle value is
        // only a number. Methods that must not run concurrently take &mut self.
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}
    };
}
pub(crate) use owned_handle;

/// The loaded library's version, encoded as `sys::DCCUDA_VERSION` (MAJOR * 1000000 +
/// MINOR * 1000 + PATCH). Compare with [`header_version`] to see a mismatch.
pub fn version() -> u32 {
    unsafe { sys::dc_version() }
}

/// The version of the header these bindings were generated from.
pub const fn header_version() -> u32 {
    sys::DCCUDA_VERSION
}

/// Options for [`init`].
#[derive(Clone, Debug, Default)]
pub struct InitOptions {
    flags: u32,
    driver_library: Option<PathBuf>,
    nvrtc_library: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    cache_max_bytes: u64,
}

impl InitOptions {
    pub fn new() -> Self {
        Self::default()
    }
    /// `DC_INIT_*` flags (no NVRTC, no disk cache, no memory cache).
    pub fn flags(mut self, flags: u32) -> Self {
        self.flags = flags;
        self
    }
    /// The driver library to load instead of $DCCUDA_DRIVER_LIBRARY / libcuda.so.1.
    pub fn driver_library(mut self, path: impl Into<PathBuf>) -> Self {
        self.driver_library = Some(path.into());
        self
    }
    /// The NVRTC library to load instead of $DCCUDA_NVRTC_LIBRARY / libnvrtc.so.13, .12.
    pub fn nvrtc_library(mut self, path: impl Into<PathBuf>) -> Self {
        self.nvrtc_library = Some(path.into());
        self
    }
    /// The on-disk kernel cache folder.
    pub fn cache_dir(mut self, path: impl Into<PathBuf>) -> Self {
        self.cache_dir = Some(path.into());
        self
    }
    /// The disk cache's size limit in bytes (0: $DCCUDA_CACHE_MAX_BYTES, else 1 GiB).
    pub fn cache_max_bytes(mut self, bytes: u64) -> Self {
        self.cache_max_bytes = bytes;
        self
    }
}

/// Initialises the library with explicit options (optional: the first call initialises it
/// with the defaults). At most once, before any other fallible call. Without a driver this
/// is `Err` with `Status::NO_DRIVER`, and compilation still works.
///
/// # Errors
/// The library's status and message when [`dc_init`](crate::sys::dc_init) fails (the header's
/// documentation, on the `sys` item, says when). A string holding a NUL byte is `INVALID_ARGUMENT`.
pub fn init(options: &InitOptions) -> Result<()> {
    let c = |s: &Option<PathBuf>, what| s.as_deref().map(|s| error::c_path(s, what)).transpose();
    let driver = c(&options.driver_library, "the driver library path")?;
    let nvrtc = c(&options.nvrtc_library, "the NVRTC library path")?;
    let cache = c(&options.cache_dir, "the cache folder")?;
    let ptr = |s: &Option<std::ffi::CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    let raw = sys::dc_init_options {
        flags: options.flags,
        driver_library: ptr(&driver),
        nvrtc_library: ptr(&nvrtc),
        cache_dir: ptr(&cache),
        cache_max_bytes: options.cache_max_bytes,
        ..Default::default()
    };
    check(unsafe { sys::dc_init(&raw) })
}

/// The CUDA version the driver supports (12040 = 12.4).
///
/// # Errors
/// The library's status and message when [`dc_driver_version`](crate::sys::dc_driver_version) fails
/// (the header's documentation, on the `sys` item, says when).
pub fn driver_version() -> Result<i32> {
    let mut v = 0;
    check(unsafe { sys::dc_driver_version(&mut v) })?;
    Ok(v)
}

/// Where the driver was loaded from ("libcuda.so.1", or the fake driver's path in tests).
///
/// # Errors
/// The library's status and message when [`dc_driver_library`](crate::sys::dc_driver_library) fails
/// (the header's documentation, on the `sys` item, says when).
pub fn driver_library() -> Result<String> {
    let mut p = std::ptr::null();
    check(unsafe { sys::dc_driver_library(&mut p) })?;
    Ok(owned_string(p))
}

/// As [`driver_library`], byte for byte: a path that is not UTF-8 comes back unchanged
/// (`driver_library` replaces such bytes with U+FFFD).
///
/// # Errors
/// As [`driver_library`].
pub fn driver_library_path() -> Result<PathBuf> {
    let mut p = std::ptr::null();
    check(unsafe { sys::dc_driver_library(&mut p) })?;
    Ok(error::owned_path(p))
}

/// The loaded NVRTC's version (major, minor).
///
/// # Errors
/// The library's status and message when [`dc_nvrtc_version`](crate::sys::dc_nvrtc_version) fails
/// (the header's documentation, on the `sys` item, says when).
pub fn nvrtc_version() -> Result<(i32, i32)> {
    let (mut major, mut minor) = (0, 0);
    check(unsafe { sys::dc_nvrtc_version(&mut major, &mut minor) })?;
    Ok((major, minor))
}

/// The architectures the loaded NVRTC targets, 10 * major + minor, ascending.
///
/// # Errors
/// `NO_COMPILER` without NVRTC; `NOT_SUPPORTED` when NVRTC cannot list them.
pub fn nvrtc_supported_archs() -> Result<Vec<i32>> {
    let mut count = 0u32;
    check(unsafe { sys::dc_nvrtc_supported_archs(std::ptr::null_mut(), 0, &mut count) })?;
    let mut archs = vec![0i32; count as usize];
    check(unsafe { sys::dc_nvrtc_supported_archs(archs.as_mut_ptr(), count, &mut count) })?;
    archs.truncate(count as usize);
    Ok(archs)
}

/// Handle types, as [`handle_count`] counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandleType {
    Device,
    Buffer,
    Stream,
    Event,
    Program,
    Module,
    Function,
    Launch,
    Graph,
}

impl HandleType {
    pub const ALL: [HandleType; 9] = [
        HandleType::Device,
        HandleType::Buffer,
        HandleType::Stream,
        HandleType::Event,
        HandleType::Program,
        HandleType::Module,
        HandleType::Function,
        HandleType::Launch,
        HandleType::Graph,
    ];

    pub fn raw(self) -> i32 {
        match self {
            HandleType::Device => sys::DC_HANDLE_DEVICE,
            HandleType::Buffer => sys::DC_HANDLE_BUFFER,
            HandleType::Stream => sys::DC_HANDLE_STREAM,
            HandleType::Event => sys::DC_HANDLE_EVENT,
            HandleType::Program => sys::DC_HANDLE_PROGRAM,
            HandleType::Module => sys::DC_HANDLE_MODULE,
            HandleType::Function => sys::DC_HANDLE_FUNCTION,
            HandleType::Launch => sys::DC_HANDLE_LAUNCH,
            HandleType::Graph => sys::DC_HANDLE_GRAPH,
        }
    }
}

/// How many handles of a type are live in this process (a leak check).
///
/// # Errors
/// The library's status and message when [`dc_handle_count`](crate::sys::dc_handle_count) fails
/// (the header's documentation, on the `sys` item, says when).
pub fn handle_count(kind: HandleType) -> Result<u64> {
    let mut n = 0;
    check(unsafe { sys::dc_handle_count(kind.raw(), &mut n) })?;
    Ok(n)
}
