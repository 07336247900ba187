//! Which streams a buffer was used on, so that dropping it never frees memory that work on
//! another stream may still touch.
//!
//! The library frees a released buffer in stream order on the stream that last used it:
//! enough for work on that stream, not for work still queued on another one (the header
//! leaves ordering several streams to the caller). A safe `drop` cannot leave it to the
//! caller, so each buffer keeps, per stream it was used on asynchronously, an event
//! recorded after its latest use there (one event per buffer and stream, re-recorded: one
//! `dc_event_record` per asynchronous use). Dropping a buffer used on one stream costs
//! nothing more; one used on several waits on the host for every recorded event before
//! the release, so the memory is idle when it is freed.
//!
//! Work captured into a graph is not tracked: a capture is `unsafe` because every buffer
//! it uses must outlive the graph's launches anyway. Kernel launches are not tracked
//! either: they are `unsafe`, and their contract asks the caller to order other streams
//! before a buffer is dropped.

use std::sync::Mutex;

use crate::event::Event;
use crate::stream::Stream;
use dccuda_sys as sys;

#[derive(Default)]
pub(crate) struct StreamUses {
    // (the stream's handle value, only compared; the event recorded after its latest use)
    uses: Mutex<Vec<(usize, Event)>>,
}

impl StreamUses {
    /// Records that work using the buffer was just enqueued on `stream`. Best effort: a
    /// stream that is capturing, or an event the library refuses, leaves no record.
    pub(crate) fn note(&self, stream: &Stream) {
        if stream.is_capturing().unwrap_or(true) {
            return;
        }
        let key = stream.as_raw() as usize;
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, event)) = uses.iter().find(|(k, _)| *k == key) {
            let _ = event.record(stream);
            return;
        }
        let Ok(device) = stream.device() else { return };
        let Ok(event) = Event::with_flags(&device, sys::DC_EVENT_DISABLE_TIMING) else { return };
        if event.record(stream).is_ok() {
            uses.push((key, event));
        }
    }

    /// Before the release: with more than one stream, wait until the buffer's work on every
    /// one of them has completed. Errors are ignored (a failed event reports its stream's
    /// failure, which the caller sees at that stream's next synchronisation).
    pub(crate) fn wait_before_free(&mut self) {
        let uses = self.uses.get_mut().unwrap_or_else(|e| e.into_inner());
        if uses.len() > 1 {
            for (_, event) in uses.iter() {
                let _ = event.synchronize();
            }
        }
    }
}
