//! Streams: ordered queues of work on a device.

use std::ffi::c_void;

use crate::callback;
use crate::device::Device;
use crate::error::{check, check_ready, Result};
use crate::event::Event;
use crate::graph::{Capture, CaptureMode};
use crate::sys;

crate::owned_handle!(
    /// A CUDA stream. Dropping it lets enqueued work finish; the CUstream is destroyed after.
    Stream,
    sys::dc_stream,
    sys::dc_stream_release
);

/// The device's default streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultStream {
    /// CU_STREAM_LEGACY: synchronises with blocking streams.
    Legacy,
    /// CU_STREAM_PER_THREAD: the calling thread's default stream.
    PerThread,
}

impl Stream {
    /// A non-blocking stream of default priority on `device`.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn new(device: &Device) -> Result<Stream> {
        Self::with_options(device, 0, 0)
    }

    /// A stream with `sys::DC_STREAM_*` flags (`DC_STREAM_BLOCKING`) and a priority (lower is
    /// higher; clamped to [`Device::stream_priority_range`]).
    ///
    /// # Errors
    /// The library's status and message when [`dc_stream_create`](crate::sys::dc_stream_create)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn with_options(device: &Device, flags: u32, priority: i32) -> Result<Stream> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_stream_create(device.as_raw(), flags, priority, &mut raw) })?;
        Ok(Stream { raw })
    }

    /// A handle for one of the device's default streams (never destroyed).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_get_default`](crate::sys::dc_stream_get_default) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn default_stream(device: &Device, which: DefaultStream) -> Result<Stream> {
        let which = match which {
            DefaultStream::Legacy => sys::DC_STREAM_LEGACY,
            DefaultStream::PerThread => sys::DC_STREAM_PER_THREAD,
        };
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_stream_get_default(device.as_raw(), which, &mut raw) })?;
        Ok(Stream { raw })
    }

    /// Wraps a CUstream made by another library on `device`'s primary context, without
    /// owning it.
    ///
    /// # Safety
    /// `cu_stream` must be a stream of that context that outlives this handle and every
    /// buffer last used on it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_stream_wrap`](crate::sys::dc_stream_wrap) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub unsafe fn wrap(device: &Device, cu_stream: *mut c_void) -> Result<Stream> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_stream_wrap(device.as_raw(), cu_stream, &mut raw) })?;
        Ok(Stream { raw })
    }

    /// Waits until all work enqueued so far has completed (a fault in it is reported here).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_synchronize`](crate::sys::dc_stream_synchronize) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn synchronize(&self) -> Result<()> {
        check(unsafe { sys::dc_stream_synchronize(self.raw) })
    }

    /// `true` when all work enqueued so far has completed.
    ///
    /// # Errors
    /// The library's status and message when [`dc_stream_query`](crate::sys::dc_stream_query) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn query(&self) -> Result<bool> {
        check_ready(unsafe { sys::dc_stream_query(self.raw) })
    }

    /// Future work on this stream waits for `event` (which may be of another device).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_wait_event`](crate::sys::dc_stream_wait_event) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn wait_event(&self, event: &Event) -> Result<()> {
        check(unsafe { sys::dc_stream_wait_event(self.raw, event.as_raw()) })
    }

    /// Runs `f` on a driver thread once earlier work on the stream has completed; later work
    /// waits for it. `f` must not enqueue work or synchronise (the library refuses such calls
    /// from there with `INVALID_STATE`) and should return quickly. A panic in `f` aborts.
    ///
    /// `f` runs at most once. Enqueued while the stream is being captured, it runs on the
    /// graph's first launch only: use [`Capture::add_callback`] for a host node that runs on
    /// every launch.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_add_callback`](crate::sys::dc_stream_add_callback) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn add_callback<F: FnOnce() + Send + 'static>(&self, f: F) -> Result<()> {
        let key = callback::add_once(Box::new(f));
        let status = unsafe { sys::dc_stream_add_callback(self.raw, Some(callback::trampoline), key as *mut c_void) };
        if status != sys::DC_SUCCESS {
            // Read the error before the table is touched (no dc_ call in between anyway).
            let e = crate::error::Error::last(status);
            callback::release(key);
            return Err(e);
        }
        Ok(())
    }

    /// The raw CUstream (0x1 / 0x2 for the legacy / per-thread default streams).
    ///
    /// # Errors
    /// The library's status and message when [`dc_stream_native`](crate::sys::dc_stream_native)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn native(&self) -> Result<*mut c_void> {
        let mut p = std::ptr::null_mut();
        check(unsafe { sys::dc_stream_native(self.raw, &mut p) })?;
        Ok(p)
    }

    /// A new handle to the stream's device.
    ///
    /// # Errors
    /// The library's status and message when [`dc_stream_device`](crate::sys::dc_stream_device)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn device(&self) -> Result<Device> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_stream_device(self.raw, &mut raw) })?;
        Ok(unsafe { Device::from_raw(raw) })
    }

    /// Whether the stream is being captured into a graph.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_is_capturing`](crate::sys::dc_stream_is_capturing) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn is_capturing(&self) -> Result<bool> {
        let mut v = 0;
        check(unsafe { sys::dc_stream_is_capturing(self.raw, &mut v) })?;
        Ok(v != 0)
    }

    /// Begins capturing: work enqueued on the stream (through the returned guard, which
    /// derefs to the stream) is recorded into a graph instead of running, until
    /// [`Capture::end`] returns the graph. Dropping the guard without `end` ends the capture
    /// and discards the graph. End it on the thread that began it (the guard is not `Send`).
    ///
    /// # Safety
    /// A graph records raw addresses, and nothing keeps what they point to alive: every
    /// buffer used by the captured work (and by work on streams that join the capture by
    /// waiting for an event recorded in it) must outlive every launch of the graph, and a
    /// host function must not rely on memory it does not own. Copies between buffers and
    /// host slices are refused while capturing (see [`DeviceBuffer::write_at_async`]).
    ///
    /// [`DeviceBuffer::write_at_async`]: crate::DeviceBuffer::write_at_async
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_begin_capture`](crate::sys::dc_stream_begin_capture) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub unsafe fn begin_capture(&mut self, mode: CaptureMode) -> Result<Capture<'_>> {
        check(unsafe { sys::dc_stream_begin_capture(self.raw, mode.raw()) })?;
        Ok(Capture::new(self))
    }

    /// `Err(INVALID_STATE)` when the stream is capturing: for calls whose capture would
    /// record the address of memory Rust may free or reuse before the graph runs.
    pub(crate) fn refuse_capture(&self, what: &str) -> Result<()> {
        if self.is_capturing()? {
            return Err(crate::error::Error::local(
                crate::error::Status::INVALID_STATE,
                format!(
                    "{what}: the stream is capturing a graph, which would replay this copy into or from the \
                     host slice after it is gone; copy through a pinned DeviceBuffer instead"
                ),
            ));
        }
        Ok(())
    }
}
