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
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn new(device: &Device) -> Result<Event> {
        Self::with_flags(device, 0)
    }

    /// An event with `sys::DC_EVENT_*` flags (DC_EVENT_DISABLE_TIMING, DC_EVENT_BLOCKING_SYNC).
    ///
    /// # Errors
    /// The library's status and message when [`dc_event_create`](crate::sys::dc_event_create) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn with_flags(device: &Device, flags: u32) -> Result<Event> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_event_create(device.as_raw(), flags, &mut raw) })?;
        Ok(Event { raw })
    }

    /// Exports an event made with `DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING` for another
    /// process ([`import_ipc`](Self::import_ipc) there).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_event_export_ipc`](crate::sys::dc_event_export_ipc) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn export_ipc(&self) -> Result<[u8; sys::DC_IPC_HANDLE_SIZE as usize]> {
        let mut bytes = [0u8; sys::DC_IPC_HANDLE_SIZE as usize];
        check(unsafe { sys::dc_event_export_ipc(self.raw, bytes.as_mut_ptr().cast(), bytes.len() as u64) })?;
        Ok(bytes)
    }

    /// Imports an event another process exported: waiting on it waits for the exporter's
    /// last record.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_event_import_ipc`](crate::sys::dc_event_import_ipc) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn import_ipc(device: &Device, handle: &[u8]) -> Result<Event> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_event_import_ipc(device.as_raw(), handle.as_ptr().cast(), handle.len() as u64, &mut raw) })?;
        Ok(Event { raw })
    }

    /// Records the event at the current end of `stream` (a stream of the event's device).
    ///
    /// # Errors
    /// The library's status and message when [`dc_event_record`](crate::sys::dc_event_record) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn record(&self, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_event_record(self.raw, stream.as_raw()) })
    }

    /// Waits for the work before the last record (at once if never recorded).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_event_synchronize`](crate::sys::dc_event_synchronize) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn synchronize(&self) -> Result<()> {
        check(unsafe { sys::dc_event_synchronize(self.raw) })
    }

    /// `true` when the recorded work has completed.
    ///
    /// # Errors
    /// The library's status and message when [`dc_event_query`](crate::sys::dc_event_query) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn query(&self) -> Result<bool> {
        check_ready(unsafe { sys::dc_event_query(self.raw) })
    }

    /// Milliseconds from `start` to `end`, both recorded and completed (about 0.5 us resolution).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_event_elapsed_ms`](crate::sys::dc_event_elapsed_ms) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn elapsed_ms(start: &Event, end: &Event) -> Result<f32> {
        let mut ms = 0.0f32;
        check(unsafe { sys::dc_event_elapsed_ms(start.raw, end.raw, &mut ms) })?;
        Ok(ms)
    }

    /// The raw CUevent.
    ///
    /// # Errors
    /// The library's status and message when [`dc_event_native`](crate::sys::dc_event_native) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn native(&self) -> Result<*mut c_void> {
        let mut p = std::ptr::null_mut();
        check(unsafe { sys::dc_event_native(self.raw, &mut p) })?;
        Ok(p)
    }
}
