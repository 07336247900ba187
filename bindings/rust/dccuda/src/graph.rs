//! Graphs: work captured from a stream, replayed at a fraction of the launch cost.

use std::ops::Deref;
use std::sync::Arc;

use crate::callback;
use crate::error::{check, Error, Result};
use crate::stream::Stream;
use crate::sys;

/// How a capture treats calls from other threads (cuda.h's CUstreamCaptureMode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureMode {
    Global,
    ThreadLocal,
    Relaxed,
}

impl CaptureMode {
    pub(crate) fn raw(self) -> i32 {
        match self {
            CaptureMode::Global => sys::DC_CAPTURE_GLOBAL,
            CaptureMode::ThreadLocal => sys::DC_CAPTURE_THREAD_LOCAL,
            CaptureMode::Relaxed => sys::DC_CAPTURE_RELAXED,
        }
    }
}

/// A stream being captured. Enqueue work through it (it derefs to the [`Stream`]); `end`
/// returns the graph.
pub struct Capture<'s> {
    stream: &'s mut Stream,
    callbacks: Vec<usize>,
    ended: bool,
    /// Not Send: in the GLOBAL and THREAD_LOCAL modes only the thread that began a capture
    /// may end it.
    _same_thread: std::marker::PhantomData<*const ()>,
}

impl<'s> Capture<'s> {
    pub(crate) fn new(stream: &'s mut Stream) -> Self {
        Capture { stream, callbacks: Vec::new(), ended: false, _same_thread: std::marker::PhantomData }
    }

    /// Adds a host node that calls `f` every time the graph runs (on a driver thread; the
    /// rules of [`Stream::add_callback`] apply). The graph keeps `f` until it is dropped.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_add_callback`](crate::sys::dc_stream_add_callback) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn add_callback<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> Result<()> {
        let key = callback::add_repeat(Arc::new(f));
        let status = unsafe {
            sys::dc_stream_add_callback(self.stream.as_raw(), Some(callback::trampoline), key as *mut std::ffi::c_void)
        };
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            callback::release(key);
            return Err(e);
        }
        self.callbacks.push(key);
        Ok(())
    }

    /// Ends the capture and returns the recorded graph. An error (the capture was
    /// invalidated by an illegal call during it) also ends the capture.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_end_capture`](crate::sys::dc_stream_end_capture) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn end(mut self) -> Result<Graph> {
        self.ended = true;
        let mut raw = std::ptr::null_mut();
        let status = unsafe { sys::dc_stream_end_capture(self.stream.as_raw(), &mut raw) };
        let callbacks = std::mem::take(&mut self.callbacks);
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            for key in callbacks {
                callback::release(key);
            }
            return Err(e);
        }
        Ok(Graph { raw, callbacks })
    }
}

impl Deref for Capture<'_> {
    type Target = Stream;
    fn deref(&self) -> &Stream {
        self.stream
    }
}

impl Drop for Capture<'_> {
    fn drop(&mut self) {
        if !self.ended {
            let mut raw = std::ptr::null_mut();
            unsafe {
                sys::dc_stream_end_capture(self.stream.as_raw(), &mut raw);
                sys::dc_graph_release(raw);
            }
        }
        for key in self.callbacks.drain(..) {
            callback::release(key);
        }
    }
}

/// A captured graph (and its instantiation, made on first launch or by `instantiate`).
pub struct Graph {
    raw: sys::dc_graph,
    /// Host nodes' closures (keys in the callback table), kept while the graph lives.
    callbacks: Vec<usize>,
}

unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

impl Drop for Graph {
    fn drop(&mut self) {
        unsafe { sys::dc_graph_release(self.raw) };
        // A launch still running may yet reach a host node: the trampoline then finds no
        // entry and does nothing.
        for key in self.callbacks.drain(..) {
            callback::release(key);
        }
    }
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph({:p})", self.raw)
    }
}

impl Graph {
    pub fn as_raw(&self) -> sys::dc_graph {
        self.raw
    }

    /// Instantiates the graph now (else the first launch does). Idempotent.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_graph_instantiate`](crate::sys::dc_graph_instantiate) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn instantiate(&self) -> Result<()> {
        check(unsafe { sys::dc_graph_instantiate(self.raw) })
    }

    /// Uploads the instantiated graph ahead of its first launch.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_upload`](crate::sys::dc_graph_upload) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn upload(&self, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_graph_upload(self.raw, stream.as_raw()) })
    }

    /// Launches the graph on `stream`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_launch`](crate::sys::dc_graph_launch) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn launch(&self, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_graph_launch(self.raw, stream.as_raw()) })
    }

    /// Updates the instantiated graph in place with the parameters of `source`, a capture
    /// of the same work (same topology). On failure the graph is unchanged.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_update`](crate::sys::dc_graph_update) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn update(&mut self, source: &Graph) -> Result<()> {
        check(unsafe { sys::dc_graph_update(self.raw, source.raw) })?;
        // The updated host nodes may now call source's closures: keep them alive too.
        for &key in &source.callbacks {
            callback::retain(key);
            self.callbacks.push(key);
        }
        Ok(())
    }

    /// The number of nodes.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_graph_node_count`](crate::sys::dc_graph_node_count) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn node_count(&self) -> Result<u64> {
        let mut n = 0;
        check(unsafe { sys::dc_graph_node_count(self.raw, &mut n) })?;
        Ok(n)
    }
}
