//! Errors: every failed call becomes an [`Error`] carrying the library's status, its message
//! (which names the call, the bad value and what to do), the raw CUresult / nvrtcResult
//! behind it and the long log where there is one (the NVRTC log of a compile error).

use std::ffi::CStr;
use std::fmt;

use dccuda_sys as sys;

/// A dccuda status code. The library may answer values this crate does not name yet
/// (status codes are append-only), so this is an open set: compare with the constants.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Status(pub i32);

impl Status {
    pub const SUCCESS: Status = Status(sys::DC_SUCCESS);
    pub const NOT_READY: Status = Status(sys::DC_NOT_READY);
    pub const INVALID_ARGUMENT: Status = Status(sys::DC_ERROR_INVALID_ARGUMENT);
    pub const INVALID_HANDLE: Status = Status(sys::DC_ERROR_INVALID_HANDLE);
    pub const NO_DRIVER: Status = Status(sys::DC_ERROR_NO_DRIVER);
    pub const NOT_SUPPORTED: Status = Status(sys::DC_ERROR_NOT_SUPPORTED);
    pub const NO_DEVICE: Status = Status(sys::DC_ERROR_NO_DEVICE);
    pub const OUT_OF_MEMORY: Status = Status(sys::DC_ERROR_OUT_OF_MEMORY);
    pub const OUT_OF_RANGE: Status = Status(sys::DC_ERROR_OUT_OF_RANGE);
    pub const COMPILE: Status = Status(sys::DC_ERROR_COMPILE);
    pub const LAUNCH_FAILED: Status = Status(sys::DC_ERROR_LAUNCH_FAILED);
    pub const CONTEXT_LOST: Status = Status(sys::DC_ERROR_CONTEXT_LOST);
    pub const INTERNAL: Status = Status(sys::DC_ERROR_INTERNAL);
    pub const DRIVER: Status = Status(sys::DC_ERROR_DRIVER);
    pub const NO_COMPILER: Status = Status(sys::DC_ERROR_NO_COMPILER);
    pub const NOT_FOUND: Status = Status(sys::DC_ERROR_NOT_FOUND);
    pub const INVALID_IMAGE: Status = Status(sys::DC_ERROR_INVALID_IMAGE);
    pub const INVALID_STATE: Status = Status(sys::DC_ERROR_INVALID_STATE);
    pub const IO: Status = Status(sys::DC_ERROR_IO);

    /// The library's name for it ("DC_ERROR_OUT_OF_RANGE"; "DC_STATUS_UNKNOWN" if unknown).
    pub fn name(self) -> &'static str {
        // Static storage in the library, never NULL.
        unsafe { CStr::from_ptr(sys::dc_status_name(self.0)) }.to_str().unwrap_or("DC_STATUS_UNKNOWN")
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name(), self.0)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed dccuda call.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    status: Status,
    message: String,
    cuda: i32,
    nvrtc: i32,
    detail: String,
}

/// `Result<T, dccuda::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

fn library_string(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

impl Error {
    /// The calling thread's last error, read right after a call returned `status`. The
    /// library's strings are only valid until the next dc_ call on this thread, so they are
    /// copied here, before anything else runs.
    pub(crate) fn last(status: i32) -> Error {
        unsafe {
            let mut message = library_string(sys::dc_last_error_message());
            if message.is_empty() {
                message = format!("{} (the library left no message)", Status(status).name());
            }
            Error {
                status: Status(status),
                message,
                cuda: sys::dc_last_error_cuda(),
                nvrtc: sys::dc_last_error_nvrtc(),
                detail: library_string(sys::dc_last_error_detail()),
            }
        }
    }

    /// An error found on the Rust side, before the library was called (a slice of the wrong
    /// length, a string with a NUL inside...).
    pub(crate) fn local(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into(), cuda: 0, nvrtc: 0, detail: String::new() }
    }

    /// The status (never `Status::SUCCESS`).
    pub fn status(&self) -> Status {
        self.status
    }

    /// `"<function>: <what was wrong>; <what to do>"`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The raw CUresult behind the failure, 0 if it did not come from the driver.
    pub fn cuda_error(&self) -> i32 {
        self.cuda
    }

    /// The raw nvrtcResult behind the failure, 0 if it did not come from NVRTC.
    pub fn nvrtc_error(&self) -> i32 {
        self.nvrtc
    }

    /// The long log that belongs to the failure: the whole NVRTC log of a compile error, the
    /// JIT error log of an invalid image; "" when there is none.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Error {
    /// `{}`: status and message. `{:#}`: also the raw codes and the detail log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)?;
        if f.alternate() {
            if self.cuda != 0 {
                write!(f, " (CUresult {})", self.cuda)?;
            }
            if self.nvrtc != 0 {
                write!(f, " (nvrtcResult {})", self.nvrtc)?;
            }
            if !self.detail.is_empty() {
                write!(f, "\n{}", self.detail)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("status", &self.status)
            .field("message", &self.message)
            .field("cuda", &self.cuda)
            .field("nvrtc", &self.nvrtc)
            .field("detail", &self.detail)
            .finish()
    }
}

impl std::error::Error for Error {}

/// `Ok(())` for DC_SUCCESS, else the thread's last error.
#[inline]
pub(crate) fn check(status: i32) -> Result<()> {
    if status == sys::DC_SUCCESS {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

/// For the queries that answer DC_NOT_READY: `Ok(true)` when done, `Ok(false)` when not yet.
#[inline]
pub(crate) fn check_ready(status: i32) -> Result<bool> {
    match status {
        sys::DC_SUCCESS => Ok(true),
        sys::DC_NOT_READY => Ok(false),
        _ => Err(Error::last(status)),
    }
}

/// A library-owned string (static, or valid while its object lives) copied into a String.
pub(crate) fn owned_string(p: *const std::ffi::c_char) -> String {
    library_string(p)
}

/// A Rust string as a C string, or INVALID_ARGUMENT naming `what` if it holds a NUL.
pub(crate) fn c_string(s: &str, what: &str) -> Result<std::ffi::CString> {
    std::ffi::CString::new(s).map_err(|_| {
        Error::local(Status::INVALID_ARGUMENT, format!("{what} contains a NUL byte, which C strings cannot hold"))
    })
}
