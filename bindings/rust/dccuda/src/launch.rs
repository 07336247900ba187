//! Launching kernels: configurations, arguments, the one-shot launch builder and prepared
//! launches.
//!
//! The library checks every launch against the kernel where the driver reports its
//! parameters: the argument count, each argument's size, and that each buffer is alive and
//! reachable from the kernel's device. What the kernel then does with its arguments is the
//! kernel's business: a raw address passed as a value (`device_pointer()`) is not checked.

use std::marker::PhantomData;

use crate::buffer::DeviceBuffer;
use crate::error::{check, Error, Result, Status};
use crate::module::Function;
use crate::pod::Pod;
use crate::stream::Stream;
use crate::sys;

/// Three dimensions: from `n`, `(x, y)`, `(x, y, z)` or `[x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub [u32; 3]);

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3([x, 1, 1])
    }
}
impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3([x, y, 1])
    }
}
impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3([x, y, z])
    }
}
impl From<[u32; 3]> for Dim3 {
    fn from(v: [u32; 3]) -> Self {
        Dim3(v)
    }
}

/// How a kernel is launched: grid (in blocks, also with clusters), block, dynamic shared
/// memory, flags, cluster size and priority. A builder over `sys::dc_launch_config`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaunchConfig(sys::dc_launch_config);

impl LaunchConfig {
    /// One block of one thread.
    pub fn new() -> Self {
        Self::default()
    }

    /// A 1-D launch of at least `n` threads in blocks of `block` threads.
    pub fn linear(n: u32, block: u32) -> Self {
        let blocks = if block == 0 { 0 } else { n.div_ceil(block).max(1) };
        Self::new().grid(blocks).block(block)
    }

    /// Blocks in x, y, z (each >= 1).
    pub fn grid(mut self, grid: impl Into<Dim3>) -> Self {
        self.0.grid = grid.into().0;
        self
    }
    /// Threads per block in x, y, z (each >= 1).
    pub fn block(mut self, block: impl Into<Dim3>) -> Self {
        self.0.block = block.into().0;
        self
    }
    /// Dynamic shared memory per block, in bytes.
    pub fn shared_memory(mut self, bytes: u32) -> Self {
        self.0.shared_memory_bytes = bytes;
        self
    }
    /// `sys::DC_LAUNCH_*` flags, added to those already set.
    pub fn flags(mut self, flags: u32) -> Self {
        self.0.flags |= flags;
        self
    }
    /// A cooperative launch (grid-wide sync; the grid must fit on the device at once).
    pub fn cooperative(self) -> Self {
        self.flags(sys::DC_LAUNCH_COOPERATIVE)
    }
    /// Thread-block cluster size (compute capability 9.0+); the grid must be a multiple.
    pub fn cluster(mut self, cluster: impl Into<Dim3>) -> Self {
        self.0.cluster = cluster.into().0;
        self
    }
    /// Launch priority (0 = the stream's).
    pub fn priority(mut self, priority: i32) -> Self {
        self.0.priority = priority;
        self
    }

    pub fn grid_dim(&self) -> [u32; 3] {
        self.0.grid
    }
    pub fn block_dim(&self) -> [u32; 3] {
        self.0.block
    }

    pub fn as_raw(&self) -> &sys::dc_launch_config {
        &self.0
    }
    pub(crate) fn as_raw_mut(&mut self) -> &mut sys::dc_launch_config {
        &mut self.0
    }
}

/// One kernel argument: a value (copied at launch or bind time) or a buffer (its device
/// address plus an offset). The lifetime ties a value to the memory it is read from.
#[derive(Clone, Copy, Debug)]
pub struct KernelArg<'a> {
    raw: sys::dc_arg,
    _borrow: PhantomData<&'a ()>,
}

// A KernelArg only refers to Sync data (a Pod value or a buffer handle).
unsafe impl Send for KernelArg<'_> {}
unsafe impl Sync for KernelArg<'_> {}

impl<'a> KernelArg<'a> {
    /// A value parameter (an int, a float, a #[repr(C)] struct of them).
    pub fn value<T: Pod>(v: &'a T) -> Self {
        Self::bytes_of_size(v as *const T as *const u8, std::mem::size_of::<T>())
    }

    /// A value parameter given as its bytes (a struct marshalled by hand).
    pub fn bytes(v: &'a [u8]) -> Self {
        Self::bytes_of_size(v.as_ptr(), v.len())
    }

    fn bytes_of_size(p: *const u8, size: usize) -> Self {
        KernelArg {
            raw: sys::dc_arg {
                kind: sys::DC_ARG_VALUE,
                // A larger value is clamped; the library then reports the size mismatch.
                size: u32::try_from(size).unwrap_or(u32::MAX),
                value: p.cast(),
                buffer: std::ptr::null_mut(),
                offset: 0,
            },
            _borrow: PhantomData,
        }
    }

    /// A pointer parameter: the buffer's device address.
    pub fn buffer<T: Pod>(b: &'a DeviceBuffer<T>) -> Self {
        Self::buffer_bytes(b, 0)
    }

    /// A pointer parameter: the address of element `offset` of the buffer (checked by the
    /// library against the buffer's size).
    pub fn buffer_at<T: Pod>(b: &'a DeviceBuffer<T>, offset: usize) -> Self {
        let bytes = (offset as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        Self::buffer_bytes(b, bytes)
    }

    fn buffer_bytes<T: Pod>(b: &'a DeviceBuffer<T>, offset: u64) -> Self {
        KernelArg {
            raw: sys::dc_arg { kind: sys::DC_ARG_BUFFER, size: 8, value: std::ptr::null(), buffer: b.as_raw(), offset },
            _borrow: PhantomData,
        }
    }

    pub fn as_raw(&self) -> &sys::dc_arg {
        &self.raw
    }
}

/// What [`LaunchBuilder::arg`] and [`Launch::set_arg`] take: `&value` (any [`Pod`]),
/// `&buffer`, or a [`KernelArg`].
pub trait IntoKernelArg<'a> {
    fn into_kernel_arg(self) -> KernelArg<'a>;
}

impl<'a, T: Pod> IntoKernelArg<'a> for &'a T {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::value(self)
    }
}

impl<'a, T: Pod> IntoKernelArg<'a> for &'a DeviceBuffer<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::buffer(self)
    }
}

impl<'a, T: Pod> IntoKernelArg<'a> for &'a mut DeviceBuffer<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::buffer(self)
    }
}

impl<'a> IntoKernelArg<'a> for KernelArg<'a> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        self
    }
}

fn arg_count(what: &str, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::local(Status::INVALID_ARGUMENT, format!("{what}: {n} arguments are too many")))
}

/// A one-shot launch being put together: `function.launch(&config).arg(..)...launch(&stream)`.
#[must_use = "nothing is launched until .launch(&stream) is called"]
pub struct LaunchBuilder<'a> {
    function: &'a Function,
    config: LaunchConfig,
    args: Vec<sys::dc_arg>,
    _borrow: PhantomData<&'a ()>,
}

impl<'a> LaunchBuilder<'a> {
    /// The next argument, in parameter order.
    pub fn arg(mut self, arg: impl IntoKernelArg<'a>) -> Self {
        self.args.push(arg.into_kernel_arg().raw);
        self
    }

    /// Several arguments, in parameter order.
    pub fn args<I: IntoIterator<Item = KernelArg<'a>>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(|a| a.raw));
        self
    }

    /// Enqueues the kernel on `stream` (asynchronous: a fault shows at a later sync).
    ///
    /// # Safety
    /// The library checks the number of arguments and each one's size against the kernel's
    /// parameters, nothing more: the kernel runs with whatever it is given, and can write
    /// anywhere the GPU reaches (device memory, and mapped pinned, managed or HMM host
    /// memory). The caller guarantees, as for an FFI call, that
    /// - each argument has the type the kernel's parameter has (a `&DeviceBuffer<f64>` for a
    ///   `float*` has the right size and the wrong meaning);
    /// - every address the kernel reads or writes is inside memory it may use: a buffer
    ///   argument's accesses stay inside that buffer (its length in elements is the caller's
    ///   to pass), and no address is made up from a plain integer argument;
    /// - memory the kernel writes is not read or written by the host or by other streams'
    ///   work until the kernel has finished (a stream or event synchronisation orders it);
    /// - every buffer the kernel uses lives until the kernel has finished. Dropping a
    ///   [`DeviceBuffer`] frees it in order on the stream it was last used on, and waits for
    ///   its copies and fills on other streams, but launches are not tracked: when a kernel
    ///   uses a buffer on a stream other than the buffer's last, synchronise that stream (or
    ///   make the last one wait on an event) before dropping the buffer.
    ///
    /// # Errors
    /// A wrong argument count or size, or a configuration the device refuses, is
    /// `Status::INVALID_ARGUMENT` with the kernel's parameter layout in the message; a
    /// released stream or function `Status::INVALID_HANDLE`. A fault inside the kernel is
    /// reported by a later synchronisation, not here.
    pub unsafe fn launch(self, stream: &Stream) -> Result<()> {
        let n = arg_count("LaunchBuilder::launch", self.args.len())?;
        check(unsafe {
            sys::dc_launch_kernel(self.function.as_raw(), self.config.as_raw(), self.args.as_ptr(), n, stream.as_raw())
        })
    }
}

impl Function {
    /// Starts a one-shot launch of this kernel.
    pub fn launch(&self, config: &LaunchConfig) -> LaunchBuilder<'_> {
        LaunchBuilder { function: self, config: *config, args: Vec::new(), _borrow: PhantomData }
    }

    /// Launches with every parameter packed in one block laid out as the kernel's
    /// parameters are; the block's size is checked against the kernel.
    ///
    /// # Safety
    /// Device pointers inside `params` cannot be checked: each must be valid device memory
    /// of this kernel's device, large enough for what the kernel does with it, until the
    /// kernel has finished.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_launch_kernel_packed`](crate::sys::dc_launch_kernel_packed) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub unsafe fn launch_packed(&self, config: &LaunchConfig, params: &[u8], stream: &Stream) -> Result<()> {
        check(unsafe {
            sys::dc_launch_kernel_packed(
                self.as_raw(),
                config.as_raw(),
                params.as_ptr().cast(),
                params.len() as u64,
                stream.as_raw(),
            )
        })
    }
}

crate::owned_handle!(
    /// A prepared launch: a function, a configuration and bound arguments, checked when set,
    /// then enqueued as often as needed at the cost of the raw driver call. Changing it takes
    /// `&mut self` (the library does not allow concurrent changes); enqueueing takes `&self`
    /// (several threads may enqueue at once). It keeps its function and bound buffers alive.
    Launch,
    sys::dc_launch,
    sys::dc_launch_release
);

impl Launch {
    /// A prepared launch with no arguments bound yet.
    ///
    /// # Errors
    /// The library's status and message when [`dc_launch_create`](crate::sys::dc_launch_create)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn new(function: &Function, config: &LaunchConfig) -> Result<Launch> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_launch_create(function.as_raw(), config.as_raw(), &mut raw) })?;
        Ok(Launch { raw })
    }

    /// Replaces the configuration (checked as in `new`).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_launch_set_config`](crate::sys::dc_launch_set_config) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn set_config(&mut self, config: &LaunchConfig) -> Result<()> {
        check(unsafe { sys::dc_launch_set_config(self.raw, config.as_raw()) })
    }

    /// Binds argument `index` (checked against parameter `index`). A value is copied; a
    /// buffer is kept alive by the launch.
    ///
    /// # Errors
    /// The library's status and message when [`dc_launch_set_arg`](crate::sys::dc_launch_set_arg)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn set_arg<'a>(&mut self, index: u32, arg: impl IntoKernelArg<'a>) -> Result<()> {
        let arg = arg.into_kernel_arg();
        check(unsafe { sys::dc_launch_set_arg(self.raw, index, &arg.raw) })
    }

    /// Binds all arguments at once.
    ///
    /// # Errors
    /// The library's status and message when [`dc_launch_set_args`](crate::sys::dc_launch_set_args)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn set_args(&mut self, args: &[KernelArg<'_>]) -> Result<()> {
        let raw: Vec<sys::dc_arg> = args.iter().map(|a| a.raw).collect();
        let n = arg_count("Launch::set_args", raw.len())?;
        check(unsafe { sys::dc_launch_set_args(self.raw, raw.as_ptr(), n) })
    }

    /// Enqueues the launch on `stream` (every argument must be bound).
    ///
    /// # Safety
    /// The library checks the number of arguments and each one's size against the kernel's
    /// parameters, nothing more: the kernel runs with whatever it is given, and can write
    /// anywhere the GPU reaches (device memory, and mapped pinned, managed or HMM host
    /// memory). The caller guarantees, as for an FFI call, that
    /// - each argument has the type the kernel's parameter has (a `&DeviceBuffer<f64>` for a
    ///   `float*` has the right size and the wrong meaning);
    /// - every address the kernel reads or writes is inside memory it may use: a buffer
    ///   argument's accesses stay inside that buffer (its length in elements is the caller's
    ///   to pass), and no address is made up from a plain integer argument;
    /// - memory the kernel writes is not read or written by the host or by other streams'
    ///   work until the kernel has finished (a stream or event synchronisation orders it);
    /// - every buffer the kernel uses lives until the kernel has finished. Dropping a
    ///   [`DeviceBuffer`] frees it in order on the stream it was last used on, and waits for
    ///   its copies and fills on other streams, but launches are not tracked: when a kernel
    ///   uses a buffer on a stream other than the buffer's last, synchronise that stream (or
    ///   make the last one wait on an event) before dropping the buffer.
    ///
    /// # Errors
    /// An argument not bound yet is `Status::INVALID_STATE`; a
    /// released stream or function `Status::INVALID_HANDLE`. A fault inside the kernel is
    /// reported by a later synchronisation, not here.
    pub unsafe fn enqueue(&self, stream: &Stream) -> Result<()> {
        check(unsafe { sys::dc_launch_enqueue(self.raw, stream.as_raw()) })
    }

    /// Enqueues every launch of `launches` on `stream`, in order, in one call
    /// ([`dc_launch_enqueue_batch`](crate::sys::dc_launch_enqueue_batch)): one validation pass
    /// for all of them. A launch may appear more than once. Every launch is checked before
    /// anything is enqueued: a bad one (an argument not bound, another device) refuses the
    /// whole batch, and the message names its index (`launches[3]`).
    ///
    /// # Safety
    /// As [`Launch::enqueue`], for every launch of the batch.
    ///
    /// # Errors
    /// The library's status and message when the batch is refused (nothing enqueued), or when
    /// the driver refuses a launch half way: the message then says how many launches before
    /// it were enqueued.
    pub unsafe fn enqueue_batch(launches: &[&Launch], stream: &Stream) -> Result<()> {
        let raw: Vec<sys::dc_launch> = launches.iter().map(|l| l.raw).collect();
        let n = arg_count("Launch::enqueue_batch", raw.len())?;
        check(unsafe { sys::dc_launch_enqueue_batch(raw.as_ptr(), n, stream.as_raw()) })
    }
}
