//! Events: points in a stream to wait for and to time.

use std::ffi::c_void;

use crate::device::Device;
use crate::error::{check, check_ready, Result};
use crate::stream::Stream;
use crate::sys;

crate::owned_handle!(
    /// A CUDA event.
    Event,
    sys::dc_event,
    sys::dc_event_release
);

impl Event {
    /// An event that can time (flags 0).
    pub fn new(device: &Device) -> Result<Event> {
        Self::with_flags(device, 0)
    }

    /// An event with `sys::DC_EVENT_*` flags (DC_EVENT_DISABLE_TIMING, DC_EVENT_BLOCKING_SYNC).
    pub fn with_flags(device: &Device, flags: u32) -> Result<Event> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_event_create(device.as_raw(), flags, &mut raw) })?;
        Ok(Event { raw })
    }

    /// Records the event at the current end of `stream` (a stream of the event's device).
    pub fn record(&self, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_event_record(self.raw, stream.as_raw()) })
    }

    /// Waits for the work before the last record (at once if never recorded).
    pub fn synchronize(&self) -> Result<()> {
        check(unsafe { sys::dc_event_synchronize(self.raw) })
    }

    /// `true` when the recorded work has completed.
    pub fn query(&self) -> Result<bool> {
        check_ready(unsafe { sys::dc_event_query(self.raw) })
    }

    /// Milliseconds from `start` to `end`, both recorded and completed (about 0.5 us resolution).
    pub fn elapsed_ms(start: &Event, end: &Event) -> Result<f32> {
        let mut ms = 0.0f32;
        check(unsafe { sys::dc_event_elapsed_ms(start.raw, end.raw, &mut ms) })?;
        Ok(ms)
    }

    /// The raw CUevent.
    pub fn native(&self) -> Result<*mut c_void> {
        let mut p = std::ptr::null_mut();
        check(unsafe { sys::dc_event_native(self.raw, &mut p) })?;
        Ok(p)
    }
}
