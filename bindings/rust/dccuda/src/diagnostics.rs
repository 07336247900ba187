//! Seeing inside: dccuda's log through a trait shaped like the `log` crate's `Log` (std
//! only), the live-handle report and device telemetry (NVML).

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use crate::error::{check, owned_string, Error, Result, Status};
use crate::sys;
use crate::Device;

/// dccuda's log levels (`DC_LOG_*`), ordered as the `log` crate's (Trace lowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Every step of a decision (each cache lookup).
    Trace = 0,
    /// Decisions worth knowing when tuning: staging, cache misses, fallbacks.
    Debug = 1,
    /// Decisions that change what the process holds: the driver loaded, a pool trimmed.
    Info = 2,
    /// Something to act on: an entry point the driver lacks.
    Warn = 3,
    /// Reserved for failures no call reports.
    Error = 4,
}

impl Level {
    fn from_raw(level: i32) -> Level {
        match level {
            0 => Level::Trace,
            1 => Level::Debug,
            2 => Level::Info,
            3 => Level::Warn,
            _ => Level::Error,
        }
    }
}

/// One message of dccuda's log.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// How much it matters.
    pub level: Level,
    /// "staging", "cache", "pool", "fallback", "driver", "profiler" or "trace" (the `log`
    /// crate's target).
    pub category: &'a str,
    /// One line of text.
    pub message: &'a str,
}

/// Receives dccuda's log, as the `log` crate's `Log` does (forward to it with
/// `log::log!(target: record.category, level, "{}", record.message)`). `log` runs on the
/// thread that made the decision, inside a dccuda call: it must be quick and must not call
/// dccuda (such calls fail with [`Status::INVALID_STATE`]).
pub trait Log: Send + Sync {
    /// Whether messages of `level` are wanted (checked before `log`).
    fn enabled(&self, level: Level) -> bool {
        let _ = level;
        true
    }
    /// One message.
    fn log(&self, record: &Record<'_>);
}

// The logger in force; the library's user_data points at the box's contents, which stay
// until the next set_logger has replaced the callback (dc_set_log_callback waits for
// running callbacks before it returns).
static LOGGER: Mutex<Option<Box<Box<dyn Log>>>> = Mutex::new(None);

unsafe extern "C" fn log_thunk(user_data: *mut c_void, level: i32, category: *const c_char, message: *const c_char) {
    if user_data.is_null() || category.is_null() || message.is_null() {
        return;
    }
    // A panic must not unwind into C.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: user_data is the Box<dyn Log> set_logger passed, alive until replaced.
        let logger = unsafe { &*(user_data as *const Box<dyn Log>) };
        let level = Level::from_raw(level);
        if !logger.enabled(level) {
            return;
        }
        // SAFETY: the library passes NUL-terminated UTF-8 valid during the call.
        let (category, message) = unsafe { (CStr::from_ptr(category), CStr::from_ptr(message)) };
        logger.log(&Record {
            level,
            category: &category.to_string_lossy(),
            message: &message.to_string_lossy(),
        });
    }));
}

/// Sends dccuda's decisions at `min_level` and above to `logger`, replacing the logger set
/// before (which is dropped once no callback runs it).
///
/// # Errors
/// [`Status::INVALID_STATE`] when called from inside a dccuda callback.
pub fn set_logger(logger: Box<dyn Log>, min_level: Level) -> Result<()> {
    let mut slot = LOGGER.lock().unwrap_or_else(|e| e.into_inner());
    let boxed: Box<Box<dyn Log>> = Box::new(logger);
    let user_data = &*boxed as *const Box<dyn Log> as *mut c_void;
    check(unsafe { sys::dc_set_log_callback(min_level as i32, Some(log_thunk), user_data) })?;
    *slot = Some(boxed);
    Ok(())
}

/// Stops dccuda's log (drops the logger).
///
/// # Errors
/// [`Status::INVALID_STATE`] when called from inside a dccuda callback.
pub fn clear_logger() -> Result<()> {
    let mut slot = LOGGER.lock().unwrap_or_else(|e| e.into_inner());
    check(unsafe { sys::dc_set_log_callback(sys::DC_LOG_TRACE, None, std::ptr::null_mut()) })?;
    *slot = None;
    Ok(())
}

/// Every live handle of the process as text (`dc_handle_report`): a summary line, then one
/// line per handle with its age, the call and thread that made it, and for a buffer its
/// size and kind; empty when none is live. For leak hunting in tests.
///
/// # Errors
/// The library's status if the report cannot be made (out of memory).
pub fn handle_report() -> Result<String> {
    loop {
        let mut length = 0u64;
        check(unsafe { sys::dc_handle_report(std::ptr::null_mut(), 0, &mut length) })?;
        let mut text = vec![0u8; length as usize + 256];
        let status = unsafe { sys::dc_handle_report(text.as_mut_ptr().cast(), text.len() as u64, &mut length) };
        if status == sys::DC_ERROR_OUT_OF_RANGE {
            continue; // handles came meanwhile: ask again
        }
        check(status)?;
        text.truncate(length as usize);
        return String::from_utf8(text).map_err(|_| Error::local(Status::INTERNAL, "the handle report is not UTF-8"));
    }
}

/// Where NVML was loaded from.
///
/// # Errors
/// [`Status::NOT_SUPPORTED`] with the reason when telemetry has no NVML.
pub fn telemetry_library() -> Result<String> {
    let mut p: *const c_char = std::ptr::null();
    check(unsafe { sys::dc_telemetry_library(&mut p) })?;
    Ok(owned_string(p))
}

/// A device's telemetry (the C struct; every field reachable through `.0`): check a field
/// with [`Telemetry::available`] before using it (unavailable ones read 0).
#[derive(Clone, Copy, Debug)]
pub struct Telemetry(pub sys::dc_device_telemetry);

impl Telemetry {
    /// Whether the field (`sys::DC_TELEMETRY_FIELD_*`) was read.
    pub fn available(&self, field: i32) -> bool {
        self.reason(field) == sys::DC_TELEMETRY_AVAILABLE
    }

    /// Why the field is unavailable (`sys::DC_TELEMETRY_*`), 0 when it is there; -1 for an
    /// index out of range.
    pub fn reason(&self, field: i32) -> i32 {
        usize::try_from(field).ok().and_then(|i| self.0.field_status.get(i).copied()).unwrap_or(-1)
    }
}

impl Device {
    /// The device's telemetry now, from NVML (`dc_device_telemetry_get`).
    ///
    /// # Errors
    /// The library's status and message (a device lost).
    pub fn telemetry(&self) -> Result<Telemetry> {
        let mut t = sys::dc_device_telemetry::default();
        check(unsafe { sys::dc_device_telemetry_get(self.as_raw(), &mut t) })?;
        Ok(Telemetry(t))
    }
}
