//! Graphs: work captured from a stream, replayed at a fraction of the launch cost.

use std::ops::Deref;
use std::sync::Arc;

use crate::buffer::DeviceBuffer;
use crate::callback;
use crate::device::Device;
use crate::error::{check, Error, Result};
use crate::event::Event;
use crate::launch::{KernelArg, LaunchConfig};
use crate::module::Function;
use crate::pod::Pod;
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

/// A node of a graph: the id the library gave it (never 0; a clone's nodes keep the ids of
/// the nodes they copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub u64);

/// The kinds of conditional node ([`Graph::conditional`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conditional {
    /// Body 0 runs once if the condition is not 0; with two bodies, body 1 runs if it is 0.
    If,
    /// Body 0 runs again and again while the condition is not 0.
    While,
    /// Body n runs once, n being the condition.
    Switch,
}

fn ids(after: &[Node]) -> Result<(Vec<u64>, u32)> {
    let n = u32::try_from(after.len())
        .map_err(|_| Error::local(crate::Status::INVALID_ARGUMENT, "too many dependencies".to_string()))?;
    Ok((after.iter().map(|n| n.0).collect(), n))
}

fn byte_len<T: Pod>(b: &DeviceBuffer<T>) -> u64 {
    (b.len() as u64) * std::mem::size_of::<T>() as u64
}

/// Building, inspecting and changing a graph node by node. Every `after` lists the nodes a
/// new node runs after (none: a root). Arguments are checked by the library as the
/// stream-ordered calls check them; the graph keeps functions, buffers and events alive.
impl Graph {
    /// A new, empty graph on `device`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_create`](crate::sys::dc_graph_create) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device) -> Result<Graph> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_graph_create(device.as_raw(), &mut raw) })?;
        Ok(Graph { raw, callbacks: Vec::new() })
    }

    /// Adds a launch of `function` with `args` (values copied now).
    ///
    /// # Safety
    /// The node launches the kernel at every launch of the graph, with these arguments: the
    /// caller guarantees for every launch what [`LaunchBuilder::launch`](crate::LaunchBuilder::launch)
    /// asks for one (argument types, addresses inside memory the kernel may use, no other
    /// access to memory it writes until the graph's launch has finished). The graph keeps the
    /// buffers passed as arguments alive; the memory a kernel reaches through other pointers
    /// is the caller's to keep.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_kernel_node`](crate::sys::dc_graph_add_kernel_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub unsafe fn kernel(&mut self, function: &Function, config: &LaunchConfig, args: &[KernelArg<'_>], after: &[Node]) -> Result<Node> {
        let raw_args: Vec<sys::dc_arg> = args.iter().map(|a| *a.as_raw()).collect();
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe {
            sys::dc_graph_add_kernel_node(
                self.raw,
                function.as_raw(),
                config.as_raw(),
                raw_args.as_ptr(),
                raw_args.len() as u32,
                deps.as_ptr(),
                n,
                &mut node,
            )
        })?;
        Ok(Node(node))
    }

    /// Adds a copy of all of `src` into `dst` (the same length).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_copy_node`](crate::sys::dc_graph_add_copy_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn copy<T: Pod>(&mut self, dst: &DeviceBuffer<T>, src: &DeviceBuffer<T>, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe {
            sys::dc_graph_add_copy_node(self.raw, dst.as_raw(), 0, src.as_raw(), 0, byte_len(src), deps.as_ptr(), n, &mut node)
        })?;
        Ok(Node(node))
    }

    /// Adds a 2D copy: a `width` x `height` block of elements from `src` (rows `src_pitch`
    /// elements apart from element `src_index`) to `dst` (rows `dst_pitch` apart from
    /// `dst_index`), every row bounds-checked as
    /// [`DeviceBuffer::copy_from_2d`](crate::DeviceBuffer::copy_from_2d) checks them.
    ///
    /// # Errors
    /// `OUT_OF_RANGE` when a count's byte size does not fit in 64 bits, before any call;
    /// otherwise the library's status and message when [`dc_graph_add_copy_2d_node`](crate::sys::dc_graph_add_copy_2d_node)
    /// fails (the header's documentation, on the `sys` item, says when).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_2d<T: Pod>(
        &mut self,
        dst: &DeviceBuffer<T>,
        dst_index: usize,
        dst_pitch: usize,
        src: &DeviceBuffer<T>,
        src_index: usize,
        src_pitch: usize,
        width: usize,
        height: usize,
        after: &[Node],
    ) -> Result<Node> {
        let b = |n: usize| crate::buffer::bytes_of::<T>(n, "Graph::copy_2d");
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe {
            sys::dc_graph_add_copy_2d_node(
                self.raw,
                dst.as_raw(),
                b(dst_index)?,
                b(dst_pitch)?,
                src.as_raw(),
                b(src_index)?,
                b(src_pitch)?,
                b(width)?,
                height as u64,
                deps.as_ptr(),
                n,
                &mut node,
            )
        })?;
        Ok(Node(node))
    }

    /// Adds a fill of all of `buffer` with `value` (elements of 4 bytes).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_fill_node`](crate::sys::dc_graph_add_fill_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn fill_u32<T: Pod>(&mut self, buffer: &DeviceBuffer<T>, value: u32, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe {
            sys::dc_graph_add_fill_node(self.raw, buffer.as_raw(), 0, byte_len(buffer), value, 4, deps.as_ptr(), n, &mut node)
        })?;
        Ok(Node(node))
    }

    /// Adds a host node calling `f` at every launch (on a driver thread). The graph keeps `f`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_host_node`](crate::sys::dc_graph_add_host_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn host<F: Fn() + Send + Sync + 'static>(&mut self, f: F, after: &[Node]) -> Result<Node> {
        let key = callback::add_repeat(Arc::new(f));
        let (deps, n) = ids(after)?;
        let mut node = 0;
        let status = unsafe {
            sys::dc_graph_add_host_node(self.raw, Some(callback::trampoline), key as *mut std::ffi::c_void, deps.as_ptr(), n, &mut node)
        };
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            callback::release(key);
            return Err(e);
        }
        self.callbacks.push(key);
        Ok(Node(node))
    }

    /// Adds a record of `event`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_event_record_node`](crate::sys::dc_graph_add_event_record_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn event_record(&mut self, event: &Event, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe { sys::dc_graph_add_event_record_node(self.raw, event.as_raw(), deps.as_ptr(), n, &mut node) })?;
        Ok(Node(node))
    }

    /// Adds a wait for `event`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_event_wait_node`](crate::sys::dc_graph_add_event_wait_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn event_wait(&mut self, event: &Event, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe { sys::dc_graph_add_event_wait_node(self.raw, event.as_raw(), deps.as_ptr(), n, &mut node) })?;
        Ok(Node(node))
    }

    /// Embeds a copy of `child` as one node (its host closures are kept by this graph too).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_child_graph_node`](crate::sys::dc_graph_add_child_graph_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn child(&mut self, child: &Graph, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe { sys::dc_graph_add_child_graph_node(self.raw, child.raw, deps.as_ptr(), n, &mut node) })?;
        for &key in &child.callbacks {
            callback::retain(key);
            self.callbacks.push(key);
        }
        Ok(Node(node))
    }

    /// Adds a memory alloc node: at each launch it allocates `len` elements of `T` on the
    /// graph's device. The returned buffer names that memory for the nodes of this graph that
    /// use it; every alloc node needs its [`free`](Graph::free) node before the graph is
    /// launched (else `INVALID_STATE`).
    ///
    /// # Safety
    /// The memory exists only during a launch of this graph, for the nodes ordered after the
    /// alloc node and before its free node. The caller uses the buffer nowhere else: not in
    /// the buffer's own methods, not on a stream, not in nodes outside that window, not after
    /// the graph is dropped (the address may then belong to other memory).
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` when `len` elements of `T` overflow 64 bits; otherwise the library's
    /// status and message when [`dc_graph_add_alloc_node`](crate::sys::dc_graph_add_alloc_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub unsafe fn alloc<T: Pod>(&mut self, len: usize, after: &[Node]) -> Result<(Node, DeviceBuffer<T>)> {
        let bytes = (len as u64).checked_mul(std::mem::size_of::<T>() as u64).ok_or_else(|| {
            Error::local(crate::Status::INVALID_ARGUMENT, format!("Graph::alloc: {len} elements overflow 64 bits"))
        })?;
        let (deps, n) = ids(after)?;
        let mut node = 0;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_graph_add_alloc_node(self.raw, bytes, deps.as_ptr(), n, &mut node, &mut raw) })?;
        // SAFETY: the library gave a new handle of `bytes` bytes that only this value releases.
        Ok((Node(node), unsafe { DeviceBuffer::from_raw(raw, len) }))
    }

    /// Adds the free node of `buffer` (what [`alloc`](Graph::alloc) gave for this graph),
    /// after `after`, which must include the alloc node or a node after it: the last users
    /// of the memory.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_free_node`](crate::sys::dc_graph_add_free_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn free<T: Pod>(&mut self, buffer: &DeviceBuffer<T>, after: &[Node]) -> Result<Node> {
        let (deps, n) = ids(after)?;
        let mut node = 0;
        check(unsafe { sys::dc_graph_add_free_node(self.raw, buffer.as_raw(), deps.as_ptr(), n, &mut node) })?;
        Ok(Node(node))
    }

    /// Adds the edge `from` -> `to` (refused if it would close a cycle).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_dependency`](crate::sys::dc_graph_add_dependency) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn depend(&mut self, from: Node, to: Node) -> Result<()> {
        check(unsafe { sys::dc_graph_add_dependency(self.raw, from.0, to.0) })
    }

    /// The nodes in a topological order.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_node_at`](crate::sys::dc_graph_node_at) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn nodes(&self) -> Result<Vec<Node>> {
        let count = self.node_count()?;
        let mut out = Vec::with_capacity(count as usize);
        for i in 0..count {
            let mut node = 0;
            check(unsafe { sys::dc_graph_node_at(self.raw, i, &mut node) })?;
            out.push(Node(node));
        }
        Ok(out)
    }

    /// A node's type (a `DC_GRAPH_NODE_*` value).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_node_type`](crate::sys::dc_graph_node_type) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn node_type(&self, node: Node) -> Result<i32> {
        let mut t = 0;
        check(unsafe { sys::dc_graph_node_type(self.raw, node.0, &mut t) })?;
        Ok(t)
    }

    /// The edges (from, to).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_edge_count`](crate::sys::dc_graph_edge_count) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn edges(&self) -> Result<Vec<(Node, Node)>> {
        let mut count = 0;
        check(unsafe { sys::dc_graph_edge_count(self.raw, &mut count) })?;
        let mut out = Vec::with_capacity(count as usize);
        for i in 0..count {
            let (mut from, mut to) = (0, 0);
            check(unsafe { sys::dc_graph_edge_at(self.raw, i, &mut from, &mut to) })?;
            out.push((Node(from), Node(to)));
        }
        Ok(out)
    }

    /// A copy of the nodes and edges as a new graph (the same node ids).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_clone`](crate::sys::dc_graph_clone) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn try_clone(&self) -> Result<Graph> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_graph_clone(self.raw, &mut raw) })?;
        for &key in &self.callbacks {
            callback::retain(key);
        }
        Ok(Graph { raw, callbacks: self.callbacks.clone() })
    }

    /// Removes a node and its edges.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_remove_node`](crate::sys::dc_graph_remove_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn remove(&mut self, node: Node) -> Result<()> {
        check(unsafe { sys::dc_graph_remove_node(self.raw, node.0) })
    }

    /// Writes the graph as Graphviz DOT to `path`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_write_dot`](crate::sys::dc_graph_write_dot) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn write_dot(&self, path: &std::path::Path, verbose: bool) -> Result<()> {
        let c = std::ffi::CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| Error::local(crate::Status::INVALID_ARGUMENT, "path holds a NUL byte".to_string()))?;
        check(unsafe { sys::dc_graph_write_dot(self.raw, c.as_ptr(), if verbose { sys::DC_GRAPH_DOT_VERBOSE } else { 0 }) })
    }

    /// The graph as Graphviz DOT text, as [`write_dot`](Graph::write_dot) would write it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_dot`](crate::sys::dc_graph_dot) fails (the
    /// header's documentation, on the `sys` item, says when); `INVALID_ARGUMENT` if the text is
    /// not UTF-8.
    pub fn dot(&self, verbose: bool) -> Result<String> {
        let flags = if verbose { sys::DC_GRAPH_DOT_VERBOSE } else { 0 };
        let mut length = 0u64;
        check(unsafe { sys::dc_graph_dot(self.raw, flags, std::ptr::null_mut(), 0, &mut length) })?;
        // Room to spare: the text is made again by the second call.
        let mut buffer = vec![0u8; length as usize + 4096];
        check(unsafe {
            sys::dc_graph_dot(self.raw, flags, buffer.as_mut_ptr().cast(), buffer.len() as u64, &mut length)
        })?;
        buffer.truncate(length as usize);
        String::from_utf8(buffer)
            .map_err(|_| Error::local(crate::Status::INVALID_ARGUMENT, "the DOT text is not UTF-8".to_string()))
    }

    /// Changes a kernel node's configuration and arguments in place (no new instantiation).
    ///
    /// # Safety
    /// The node launches the kernel at every launch of the graph, with these arguments: the
    /// caller guarantees for every launch what [`LaunchBuilder::launch`](crate::LaunchBuilder::launch)
    /// asks for one (argument types, addresses inside memory the kernel may use, no other
    /// access to memory it writes until the graph's launch has finished). The graph keeps the
    /// buffers passed as arguments alive; the memory a kernel reaches through other pointers
    /// is the caller's to keep.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_set_kernel_node`](crate::sys::dc_graph_set_kernel_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub unsafe fn set_kernel(&mut self, node: Node, config: &LaunchConfig, args: &[KernelArg<'_>]) -> Result<()> {
        let raw_args: Vec<sys::dc_arg> = args.iter().map(|a| *a.as_raw()).collect();
        check(unsafe {
            sys::dc_graph_set_kernel_node(self.raw, node.0, config.as_raw(), raw_args.as_ptr(), raw_args.len() as u32)
        })
    }

    /// Changes a copy node to copy all of `src` into `dst`, in place.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_set_copy_node`](crate::sys::dc_graph_set_copy_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn set_copy<T: Pod>(&mut self, node: Node, dst: &DeviceBuffer<T>, src: &DeviceBuffer<T>) -> Result<()> {
        check(unsafe { sys::dc_graph_set_copy_node(self.raw, node.0, dst.as_raw(), 0, src.as_raw(), 0, byte_len(src)) })
    }

    /// Changes a fill node to fill all of `buffer` with `value` (4-byte elements), in place.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_set_fill_node`](crate::sys::dc_graph_set_fill_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn set_fill_u32<T: Pod>(&mut self, node: Node, buffer: &DeviceBuffer<T>, value: u32) -> Result<()> {
        check(unsafe { sys::dc_graph_set_fill_node(self.raw, node.0, buffer.as_raw(), 0, byte_len(buffer), value, 4) })
    }

    /// Changes a host node's function, in place.
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_set_host_node`](crate::sys::dc_graph_set_host_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn set_host<F: Fn() + Send + Sync + 'static>(&mut self, node: Node, f: F) -> Result<()> {
        let key = callback::add_repeat(Arc::new(f));
        let status =
            unsafe { sys::dc_graph_set_host_node(self.raw, node.0, Some(callback::trampoline), key as *mut std::ffi::c_void) };
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            callback::release(key);
            return Err(e);
        }
        // The old closure may still be running in a launch: it stays until the graph goes.
        self.callbacks.push(key);
        Ok(())
    }

    /// Adds a conditional node (CUDA 12.4+ drivers) with `bodies` body graphs; returns the
    /// node and the condition handle kernels set (`dc_graph_set_condition`, passed as a u64).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_add_conditional_node`](crate::sys::dc_graph_add_conditional_node) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn conditional(&mut self, kind: Conditional, bodies: u32, default_value: u32, after: &[Node]) -> Result<(Node, u64)> {
        let t = match kind {
            Conditional::If => sys::DC_GRAPH_CONDITIONAL_IF,
            Conditional::While => sys::DC_GRAPH_CONDITIONAL_WHILE,
            Conditional::Switch => sys::DC_GRAPH_CONDITIONAL_SWITCH,
        };
        let (deps, n) = ids(after)?;
        let (mut condition, mut node) = (0, 0);
        check(unsafe {
            sys::dc_graph_add_conditional_node(self.raw, t, bodies, default_value, deps.as_ptr(), n, &mut condition, &mut node)
        })?;
        Ok((Node(node), condition))
    }

    /// Body `index` of a conditional node, to add nodes to (it keeps this graph alive).
    ///
    /// # Errors
    /// The library's status and message when [`dc_graph_conditional_body`](crate::sys::dc_graph_conditional_body) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn conditional_body(&self, node: Node, index: u32) -> Result<Graph> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_graph_conditional_body(self.raw, node.0, index, &mut raw) })?;
        Ok(Graph { raw, callbacks: Vec::new() })
    }
}
