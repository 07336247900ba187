//! Typed buffers: device, pinned and managed memory, wrapped device memory, module globals,
//! and registered host memory. Copies are checked in elements on the Rust side (so a wrong
//! length is an error that names it, never a copy of the wrong size) and in bytes by the
//! library.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::mem::size_of;

use crate::device::Device;
use crate::error::{check, Error, Result, Status};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::stream_uses::StreamUses;
use crate::sys;

/// What memory a buffer holds (`sys::DC_BUFFER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// Device memory owned by the buffer.
    Device,
    /// Page-locked host memory owned by the buffer.
    Pinned,
    /// Unified (managed) memory owned by the buffer.
    Managed,
    /// Device memory owned by someone else.
    WrappedDevice,
    /// The caller's host memory, registered.
    RegisteredHost,
    /// A `__device__` / `__constant__` variable of a module.
    ModuleGlobal,
    /// A kind this crate does not know yet.
    Other(i32),
}

impl BufferKind {
    fn from_raw(v: i32) -> Self {
        match v {
            sys::DC_BUFFER_DEVICE => BufferKind::Device,
            sys::DC_BUFFER_PINNED => BufferKind::Pinned,
            sys::DC_BUFFER_MANAGED => BufferKind::Managed,
            sys::DC_BUFFER_WRAPPED_DEVICE => BufferKind::WrappedDevice,
            sys::DC_BUFFER_REGISTERED_HOST => BufferKind::RegisteredHost,
            sys::DC_BUFFER_MODULE_GLOBAL => BufferKind::ModuleGlobal,
            other => BufferKind::Other(other),
        }
    }
}

/// The path a buffer-to-buffer copy takes (`sys::DC_COPY_PATH_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyPath {
    SameDevice,
    Peer,
    Staged,
    Host,
    Other(i32),
}

/// Where managed memory is prefetched to or advised for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    Host,
    /// A device ordinal.
    Device(i32),
}

impl Location {
    fn raw(self) -> i32 {
        match self {
            Location::Host => sys::DC_LOCATION_HOST,
            Location::Device(ordinal) => ordinal,
        }
    }
}

/// `count` elements of T in bytes, or OUT_OF_RANGE if that does not fit in 64 bits.
pub(crate) fn bytes_of<T>(count: usize, what: &str) -> Result<u64> {
    count
        .checked_mul(size_of::<T>())
        .and_then(|b| u64::try_from(b).ok())
        .ok_or_else(|| Error::local(Status::OUT_OF_RANGE, format!("{what}: {count} elements do not fit in 64 bits")))
}

/// [offset, offset + count) within `len` elements, in bytes.
fn range<T>(what: &str, len: usize, offset: usize, count: usize) -> Result<(u64, u64)> {
    match offset.checked_add(count) {
        Some(end) if end <= len => Ok((bytes_of::<T>(offset, what)?, bytes_of::<T>(count, what)?)),
        _ => Err(Error::local(
            Status::OUT_OF_RANGE,
            format!("{what}: elements [{offset}, {offset} + {count}) lie outside the buffer's {len} elements"),
        )),
    }
}

fn same_len(what: &str, buffer: usize, slice: usize) -> Result<()> {
    if buffer == slice {
        Ok(())
    } else {
        Err(Error::local(
            Status::INVALID_ARGUMENT,
            format!("{what}: the buffer has {buffer} elements, the other side {slice}; use the _at / range form for part of it"),
        ))
    }
}

/// A buffer of `len` elements of T in memory the library manages: device memory by default,
/// or pinned, managed, wrapped device memory, or a module global. Released (in stream order
/// on the stream that last used it) when dropped; a buffer whose asynchronous copies, fills
/// or prefetches ran on several streams first waits for each of them, so that no work still
/// queued on another stream touches freed memory (one event record per asynchronous use;
/// kernel launches are not tracked, see [`LaunchBuilder::launch`](crate::LaunchBuilder::launch)).
pub struct DeviceBuffer<T: Pod> {
    raw: sys::dc_buffer,
    len: usize,
    // The streams it was used on (see stream_uses.rs): dropping it waits for all of them.
    uses: StreamUses,
    _t: PhantomData<T>,
}

// The library lets every call come from any thread; the memory is not Rust memory.
unsafe impl<T: Pod> Send for DeviceBuffer<T> {}
unsafe impl<T: Pod> Sync for DeviceBuffer<T> {}

impl<T: Pod> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // The library frees in order on the last stream only: first let the others finish.
        self.uses.wait_before_free();
        unsafe { sys::dc_buffer_release(self.raw) }
    }
}

impl<T: Pod> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBuffer<{}>({:p}, {} elements)", std::any::type_name::<T>(), self.raw, self.len)
    }
}

type AllocFn = unsafe extern "C" fn(sys::dc_device, u64, u32, *mut sys::dc_buffer) -> sys::dc_status;

impl<T: Pod> DeviceBuffer<T> {
    fn alloc_with(f: AllocFn, device: &Device, len: usize, flags: u32, what: &str) -> Result<Self> {
        let bytes = bytes_of::<T>(len, what)?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { f(device.as_raw(), bytes, flags, &mut raw) })?;
        Ok(DeviceBuffer { raw, len, uses: StreamUses::default(), _t: PhantomData })
    }

    /// `len` elements of device memory (from the device's stream-ordered pool), not
    /// initialised. `len` 0 is refused by the library.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_alloc`](crate::sys::dc_buffer_alloc) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device, len: usize) -> Result<Self> {
        Self::alloc_with(sys::dc_buffer_alloc, device, len, 0, "DeviceBuffer::new")
    }

    /// Device memory with `sys::DC_ALLOC_*` flags (`DC_ALLOC_NO_POOL`).
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_alloc`](crate::sys::dc_buffer_alloc) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn with_flags(device: &Device, len: usize, flags: u32) -> Result<Self> {
        Self::alloc_with(sys::dc_buffer_alloc, device, len, flags, "DeviceBuffer::with_flags")
    }

    /// Device memory allocated in stream order on `stream`: usable by work enqueued on that
    /// stream afterwards (other streams wait for it first).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_alloc_async`](crate::sys::dc_buffer_alloc_async) fails (the header's
    /// documentation, on the `sys` item, says when). A length whose size in bytes does not fit in
    /// 64 bits is `OUT_OF_RANGE`.
    pub fn new_async(stream: &Stream, len: usize) -> Result<Self> {
        let bytes = bytes_of::<T>(len, "DeviceBuffer::new_async")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_alloc_async(stream.as_raw(), bytes, 0, &mut raw) })?;
        let buffer = DeviceBuffer { raw, len, uses: StreamUses::default(), _t: PhantomData };
        buffer.uses.note(stream);
        Ok(buffer)
    }

    /// A growable buffer: `max_len` elements of address space reserved once, `initial_len`
    /// mapped (both rounded up to the device's allocation granularity, so [`len`](Self::len)
    /// may exceed what was asked). [`grow`](Self::grow) maps more; the device address never
    /// changes and growing never copies.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_alloc_growable`](crate::sys::dc_buffer_alloc_growable) fails (the header's
    /// documentation, on the `sys` item, says when). A length whose size in bytes does not fit
    /// in 64 bits is `OUT_OF_RANGE`.
    pub fn growable(device: &Device, max_len: usize, initial_len: usize) -> Result<Self> {
        let max_bytes = bytes_of::<T>(max_len, "DeviceBuffer::growable")?;
        let initial_bytes = bytes_of::<T>(initial_len, "DeviceBuffer::growable")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_alloc_growable(device.as_raw(), max_bytes, initial_bytes, &mut raw) })?;
        let mut size = 0u64;
        let status = unsafe { sys::dc_buffer_size(raw, &mut size) };
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            unsafe { sys::dc_buffer_release(raw) };
            return Err(e);
        }
        let len = (size / size_of::<T>().max(1) as u64) as usize;
        Ok(DeviceBuffer { raw, len, uses: StreamUses::default(), _t: PhantomData })
    }

    /// Grows a growable buffer to at least `len` elements (rounded up to the granularity);
    /// its address and contents stay. A smaller `len` changes nothing.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_grow`](crate::sys::dc_buffer_grow)
    /// fails (the header's documentation, on the `sys` item, says when): `INVALID_ARGUMENT` for
    /// a buffer that is not growable, `OUT_OF_RANGE` past its reservation.
    pub fn grow(&mut self, len: usize) -> Result<()> {
        let bytes = bytes_of::<T>(len, "DeviceBuffer::grow")?;
        check(unsafe { sys::dc_buffer_grow(self.raw, bytes) })?;
        let mut size = 0u64;
        check(unsafe { sys::dc_buffer_size(self.raw, &mut size) })?;
        self.len = (size / size_of::<T>().max(1) as u64) as usize;
        Ok(())
    }

    /// The elements a growable buffer may grow to (its reservation); for another buffer its
    /// length.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_reserved_size`](crate::sys::dc_buffer_reserved_size) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn reserved_len(&self) -> Result<usize> {
        let mut size = 0u64;
        check(unsafe { sys::dc_buffer_reserved_size(self.raw, &mut size) })?;
        Ok((size / size_of::<T>().max(1) as u64) as usize)
    }

    /// Exports the buffer for another process ([`import_ipc`](Self::import_ipc) there): device
    /// memory allocated with `DC_ALLOC_NO_POOL`, or a view of it.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_export_ipc`](crate::sys::dc_buffer_export_ipc) fails (the header's
    /// documentation, on the `sys` item, says when): `NOT_SUPPORTED` for memory that cannot be
    /// shared.
    pub fn export_ipc(&self) -> Result<[u8; sys::DC_IPC_HANDLE_SIZE as usize]> {
        let mut bytes = [0u8; sys::DC_IPC_HANDLE_SIZE as usize];
        check(unsafe { sys::dc_buffer_export_ipc(self.raw, bytes.as_mut_ptr().cast(), bytes.len() as u64) })?;
        Ok(bytes)
    }

    /// Imports memory another process exported: a buffer that does not own it (the exporter
    /// keeps it alive); dropping it unmaps it here.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_import_ipc`](crate::sys::dc_buffer_import_ipc) fails (the header's
    /// documentation, on the `sys` item, says when). A size that is not a whole number of
    /// elements is `INVALID_ARGUMENT`.
    pub fn import_ipc(device: &Device, handle: &[u8]) -> Result<Self> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_import_ipc(device.as_raw(), handle.as_ptr().cast(), handle.len() as u64, &mut raw) })?;
        Self::from_library(raw, "DeviceBuffer::import_ipc")
    }

    /// Page-locked host memory (fast, truly asynchronous copies). Flags: DC_ALLOC_PORTABLE,
    /// DC_ALLOC_DEVICE_MAPPED, DC_ALLOC_WRITE_COMBINED.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_alloc_pinned`](crate::sys::dc_buffer_alloc_pinned) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn pinned(device: &Device, len: usize, flags: u32) -> Result<Self> {
        Self::alloc_with(sys::dc_buffer_alloc_pinned, device, len, flags, "DeviceBuffer::pinned")
    }

    /// Managed (unified) memory. Flags: DC_ALLOC_ATTACH_HOST.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_alloc_managed`](crate::sys::dc_buffer_alloc_managed) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn managed(device: &Device, len: usize, flags: u32) -> Result<Self> {
        Self::alloc_with(sys::dc_buffer_alloc_managed, device, len, flags, "DeviceBuffer::managed")
    }

    /// Device memory holding a copy of `data`.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn from_slice(device: &Device, data: &[T]) -> Result<Self> {
        let mut b = Self::new(device, data.len())?;
        b.copy_from_slice(data)?;
        Ok(b)
    }

    /// Device memory of `len` elements, every byte 0.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_fill`](crate::sys::dc_buffer_fill) fails
    /// (the header's documentation, on the `sys` item, says when). A length whose size in bytes
    /// does not fit in 64 bits is `OUT_OF_RANGE`.
    pub fn zeroed(device: &Device, len: usize) -> Result<Self> {
        let b = Self::new(device, len)?;
        let bytes = bytes_of::<T>(len, "DeviceBuffer::zeroed")?;
        check(unsafe { sys::dc_buffer_fill(b.raw, 0, bytes, 0, 1) })?;
        Ok(b)
    }

    /// Wraps device memory someone else owns (a CUdeviceptr from another library); dropping
    /// the buffer frees nothing.
    ///
    /// # Safety
    /// `[device_pointer, device_pointer + len * size_of::<T>())` must be device memory of
    /// `device` that stays allocated while the buffer (and any launch or graph using it) lives.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_wrap_device`](crate::sys::dc_buffer_wrap_device) fails (the header's
    /// documentation, on the `sys` item, says when). A length whose size in bytes does not fit in
    /// 64 bits is `OUT_OF_RANGE`.
    pub unsafe fn wrap(device: &Device, device_pointer: u64, len: usize) -> Result<Self> {
        let bytes = bytes_of::<T>(len, "DeviceBuffer::wrap")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_wrap_device(device.as_raw(), device_pointer, bytes, &mut raw) })?;
        Ok(DeviceBuffer { raw, len, uses: StreamUses::default(), _t: PhantomData })
    }

    /// A buffer the library made (a module global): its length in elements of T from its
    /// size, which must be a whole number of elements.
    pub(crate) fn from_library(raw: sys::dc_buffer, what: &str) -> Result<Self> {
        let mut size = 0u64;
        let status = unsafe { sys::dc_buffer_size(raw, &mut size) };
        if status != sys::DC_SUCCESS {
            let e = Error::last(status);
            unsafe { sys::dc_buffer_release(raw) };
            return Err(e);
        }
        let elem = size_of::<T>() as u64;
        if elem == 0 || size % elem != 0 {
            unsafe { sys::dc_buffer_release(raw) };
            return Err(Error::local(
                Status::INVALID_ARGUMENT,
                format!(
                    "{what}: {size} bytes are not a whole number of {} ({elem} bytes each)",
                    std::any::type_name::<T>()
                ),
            ));
        }
        Ok(DeviceBuffer { raw, len: (size / elem) as usize, uses: StreamUses::default(), _t: PhantomData })
    }

    /// Takes ownership of a raw buffer handle.
    ///
    /// # Safety
    /// `raw` must be a live buffer handle that nothing else releases, at least
    /// `len * size_of::<T>()` bytes long.
    pub unsafe fn from_raw(raw: sys::dc_buffer, len: usize) -> Self {
        DeviceBuffer { raw, len, uses: StreamUses::default(), _t: PhantomData }
    }

    /// Records that work using the buffer was just enqueued on `stream` (see stream_uses.rs).
    pub(crate) fn note_use(&self, stream: &Stream) {
        self.uses.note(stream);
    }

    /// The record of the streams the buffer was used on, for operations that outlive a borrow
    /// of the typed buffer (a [`MemOp`](crate::MemOp) in a batch).
    pub(crate) fn stream_uses(&self) -> &StreamUses {
        &self.uses
    }

    /// The raw handle, still owned by the buffer.
    pub fn as_raw(&self) -> sys::dc_buffer {
        self.raw
    }

    /// Gives up ownership: the caller releases the raw handle.
    pub fn into_raw(self) -> sys::dc_buffer {
        let raw = self.raw;
        std::mem::forget(self);
        raw
    }

    /// Length in elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Length in bytes (as the library knows it).
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_size`](crate::sys::dc_buffer_size) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn size_bytes(&self) -> Result<u64> {
        let mut size = 0;
        check(unsafe { sys::dc_buffer_size(self.raw, &mut size) })?;
        Ok(size)
    }

    /// # Errors
    /// The library's status and message when [`dc_buffer_kind`](crate::sys::dc_buffer_kind) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn kind(&self) -> Result<BufferKind> {
        let mut kind = 0;
        check(unsafe { sys::dc_buffer_kind(self.raw, &mut kind) })?;
        Ok(BufferKind::from_raw(kind))
    }

    /// A new handle to the buffer's device.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_device`](crate::sys::dc_buffer_device)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn device(&self) -> Result<Device> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_device(self.raw, &mut raw) })?;
        Ok(unsafe { Device::from_raw(raw) })
    }

    /// The device address (CUdeviceptr), for other CUDA libraries. Valid while the buffer
    /// lives. Pinned memory has one only with DC_ALLOC_DEVICE_MAPPED.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_device_pointer`](crate::sys::dc_buffer_device_pointer) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn device_pointer(&self) -> Result<u64> {
        let mut p = 0;
        check(unsafe { sys::dc_buffer_device_pointer(self.raw, &mut p) })?;
        Ok(p)
    }

    /// The CPU address of pinned or managed memory (device memory has none).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_host_pointer`](crate::sys::dc_buffer_host_pointer) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn host_pointer(&self) -> Result<*mut T> {
        let mut p: *mut c_void = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_host_pointer(self.raw, &mut p) })?;
        Ok(p.cast())
    }

    /// Pinned or managed memory as a slice.
    ///
    /// # Safety
    /// No work on any stream may write the memory while the slice lives, and the slice must
    /// not be the source or destination of an asynchronous copy still in flight.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub unsafe fn host_slice(&self) -> Result<&[T]> {
        let p = self.host_pointer()?;
        Ok(unsafe { std::slice::from_raw_parts(p, self.len) })
    }

    /// Pinned or managed memory as a mutable slice.
    ///
    /// # Safety
    /// No work on any stream may read or write the memory while the slice lives.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub unsafe fn host_slice_mut(&mut self) -> Result<&mut [T]> {
        let p = self.host_pointer()?;
        Ok(unsafe { std::slice::from_raw_parts_mut(p, self.len) })
    }

    // -- copies from and to host slices ------------------------------------------------

    /// Copies `src` (exactly `len()` elements) into the buffer; returns when done.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails. A slice whose
    /// length is not the buffer's is `INVALID_ARGUMENT`, before any call.
    pub fn copy_from_slice(&mut self, src: &[T]) -> Result<()> {
        same_len("DeviceBuffer::copy_from_slice", self.len, src.len())?;
        self.write_at(0, src)
    }

    /// Copies `src` into the buffer from element `offset` on; returns when done.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_write`](crate::sys::dc_buffer_write) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call.
    pub fn write_at(&mut self, offset: usize, src: &[T]) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::write_at", self.len, offset, src.len())?;
        check(unsafe { sys::dc_buffer_write(self.raw, off, src.as_ptr().cast(), bytes) })
    }

    /// Copies the buffer (exactly `len()` elements) into `dst`; returns when done.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails. A slice whose
    /// length is not the buffer's is `INVALID_ARGUMENT`, before any call.
    pub fn copy_to_slice(&self, dst: &mut [T]) -> Result<()> {
        same_len("DeviceBuffer::copy_to_slice", self.len, dst.len())?;
        self.read_at(0, dst)
    }

    /// Copies `dst.len()` elements from element `offset` on into `dst`; returns when done.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_read`](crate::sys::dc_buffer_read) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call.
    pub fn read_at(&self, offset: usize, dst: &mut [T]) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::read_at", self.len, offset, dst.len())?;
        check(unsafe { sys::dc_buffer_read(self.raw, off, dst.as_mut_ptr().cast(), bytes) })
    }

    /// The whole buffer, copied into a new Vec.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_read`](crate::sys::dc_buffer_read) fails
    /// (the header's documentation, on the `sys` item, says when). A length whose size in bytes
    /// does not fit in 64 bits is `OUT_OF_RANGE`.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut v: Vec<T> = Vec::with_capacity(self.len);
        let bytes = bytes_of::<T>(self.len, "DeviceBuffer::to_vec")?;
        check(unsafe { sys::dc_buffer_read(self.raw, 0, v.as_mut_ptr().cast(), bytes) })?;
        // Every element was written by the copy, and any bytes are a valid T (Pod).
        unsafe { v.set_len(self.len) };
        Ok(v)
    }

    /// As [`write_at`](Self::write_at), in stream order on `stream`. `src` is ordinary
    /// memory, so the call returns once `src` has been read: it may be reused at once.
    /// Refused (`INVALID_STATE`) on a stream that is capturing a graph: the graph would read
    /// `src` again at every launch, long after the borrow ended.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_write_async`](crate::sys::dc_buffer_write_async) fails (the header's
    /// documentation, on the `sys` item, says when). A range outside the buffer is `OUT_OF_RANGE`,
    /// before any call. A stream that is capturing a graph is `INVALID_STATE`.
    pub fn write_at_async(&mut self, offset: usize, src: &[T], stream: &Stream) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::write_at_async", self.len, offset, src.len())?;
        stream.refuse_capture("DeviceBuffer::write_at_async")?;
        check(unsafe { sys::dc_buffer_write_async(self.raw, off, src.as_ptr().cast(), bytes, stream.as_raw()) })?;
        self.uses.note(stream);
        Ok(())
    }

    /// As [`read_at`](Self::read_at), in stream order on `stream`. `dst` is ordinary memory,
    /// so the call returns when the data is in `dst`. Refused (`INVALID_STATE`) on a stream
    /// that is capturing a graph: the graph would write `dst` at every launch.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_read_async`](crate::sys::dc_buffer_read_async) fails (the header's
    /// documentation, on the `sys` item, says when). A range outside the buffer is `OUT_OF_RANGE`,
    /// before any call. A stream that is capturing a graph is `INVALID_STATE`.
    pub fn read_at_async(&self, offset: usize, dst: &mut [T], stream: &Stream) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::read_at_async", self.len, offset, dst.len())?;
        stream.refuse_capture("DeviceBuffer::read_at_async")?;
        check(unsafe { sys::dc_buffer_read_async(self.raw, off, dst.as_mut_ptr().cast(), bytes, stream.as_raw()) })?;
        self.uses.note(stream);
        Ok(())
    }

    /// `height` rows of `width` elements of device memory, each row padded to the pitch the
    /// device accesses fastest (`cuMemAllocPitch`); returns the buffer and that pitch in
    /// elements. T must be 4, 8 or 16 bytes (the library refuses other sizes).
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    pub fn pitched(device: &Device, width: usize, height: usize) -> Result<(Self, usize)> {
        let what = "DeviceBuffer::pitched";
        let bytes = bytes_of::<T>(width, what)?;
        let mut raw = std::ptr::null_mut();
        let mut pitch = 0u64;
        check(unsafe {
            sys::dc_buffer_alloc_pitched(device.as_raw(), bytes, height as u64, size_of::<T>() as u32, 0, &mut pitch, &mut raw)
        })?;
        let b = DeviceBuffer { raw, len: (pitch as usize / size_of::<T>()) * height, uses: StreamUses::default(), _t: PhantomData };
        if pitch as usize % size_of::<T>() != 0 {
            return Err(Error::local(
                Status::INVALID_ARGUMENT,
                format!("{what}: the device's pitch {pitch} is not a whole number of {}-byte elements", size_of::<T>()),
            ));
        }
        Ok((b, pitch as usize / size_of::<T>()))
    }

    /// A view (`dc_buffer_view`) of the elements in `elements`: a new buffer handle over the same
    /// memory, bounds-checked against its own range and usable wherever a buffer is (copies,
    /// kernel arguments, 2D copies). It keeps this buffer's memory alive and frees nothing when
    /// dropped. Device memory is not Rust memory: the view and its parent may both be written
    /// (as two kernels may); order such work with streams as for any two buffers.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    pub fn view(&self, elements: std::ops::Range<usize>) -> Result<DeviceBuffer<T>> {
        let what = "DeviceBuffer::view";
        let count = elements.end.checked_sub(elements.start).ok_or_else(|| {
            Error::local(Status::INVALID_ARGUMENT, format!("{what}: the range {elements:?} ends before it starts"))
        })?;
        let (offset, bytes) = range::<T>(what, self.len, elements.start, count)?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_view(self.raw, offset, bytes, &mut raw) })?;
        Ok(DeviceBuffer { raw, len: count, uses: StreamUses::default(), _t: PhantomData })
    }

    /// As [`view`](Self::view), for code that writes through the view: it borrows the parent
    /// mutably for the call, to say so.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    pub fn view_mut(&mut self, elements: std::ops::Range<usize>) -> Result<DeviceBuffer<T>> {
        self.view(elements)
    }

    /// Copies a `width` x `height` block of elements from `src` (rows `src_pitch` elements
    /// apart from element `src_index`) to this buffer (rows `pitch` apart from `index`): a tile
    /// of one matrix into a tile of another. Every row is bounds-checked by the library.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_from_2d(
        &mut self,
        index: usize,
        pitch: usize,
        src: &DeviceBuffer<T>,
        src_index: usize,
        src_pitch: usize,
        width: usize,
        height: usize,
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_2d";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_copy_2d(self.raw, b(index)?, b(pitch)?, src.raw, b(src_index)?, b(src_pitch)?, b(width)?, height as u64)
        })
    }

    /// As [`copy_from_2d`](Self::copy_from_2d), in stream order on `stream`.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_from_2d_async(
        &mut self,
        index: usize,
        pitch: usize,
        src: &DeviceBuffer<T>,
        src_index: usize,
        src_pitch: usize,
        width: usize,
        height: usize,
        stream: &Stream,
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_2d_async";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_copy_2d_async(
                self.raw,
                b(index)?,
                b(pitch)?,
                src.raw,
                b(src_index)?,
                b(src_pitch)?,
                b(width)?,
                height as u64,
                stream.as_raw(),
            )
        })?;
        self.uses.note(stream);
        src.uses.note(stream);
        Ok(())
    }

    /// Writes a `width` x `height` block from `src` (rows `src_pitch` elements apart) into this
    /// buffer (rows `pitch` apart from element `index`); returns when done. Both sides are
    /// bounds-checked by the library (`src` against its length).
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    pub fn write_2d(&mut self, index: usize, pitch: usize, src: &[T], src_pitch: usize, width: usize, height: usize) -> Result<()> {
        let what = "DeviceBuffer::write_2d";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_write_2d(
                self.raw,
                b(index)?,
                b(pitch)?,
                src.as_ptr() as *const c_void,
                b(src.len())?,
                b(src_pitch)?,
                b(width)?,
                height as u64,
            )
        })
    }

    /// Reads a `width` x `height` block of this buffer (rows `pitch` elements apart from
    /// `index`) into `dst` (rows `dst_pitch` apart); returns when done.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when the call fails (the header's
    /// documentation of the `sys` function says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    pub fn read_2d(&self, index: usize, pitch: usize, dst: &mut [T], dst_pitch: usize, width: usize, height: usize) -> Result<()> {
        let what = "DeviceBuffer::read_2d";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_read_2d(
                self.raw,
                b(index)?,
                b(pitch)?,
                dst.as_mut_ptr() as *mut c_void,
                b(dst.len())?,
                b(dst_pitch)?,
                b(width)?,
                height as u64,
            )
        })
    }

    /// As [`write_2d`](Self::write_2d), in stream order on `stream`. `src` is ordinary memory,
    /// so the call returns once `src` has been read (as [`write_at_async`](Self::write_at_async)).
    /// Refused (`INVALID_STATE`) on a stream that is capturing a graph.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_write_2d_async`](crate::sys::dc_buffer_write_2d_async) fails (the header's
    /// documentation, on the `sys` item, says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, and a capturing stream `INVALID_STATE`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn write_2d_async(
        &mut self,
        index: usize,
        pitch: usize,
        src: &[T],
        src_pitch: usize,
        width: usize,
        height: usize,
        stream: &Stream,
    ) -> Result<()> {
        let what = "DeviceBuffer::write_2d_async";
        let b = |n: usize| bytes_of::<T>(n, what);
        stream.refuse_capture(what)?;
        check(unsafe {
            sys::dc_buffer_write_2d_async(
                self.raw,
                b(index)?,
                b(pitch)?,
                src.as_ptr() as *const c_void,
                b(src.len())?,
                b(src_pitch)?,
                b(width)?,
                height as u64,
                stream.as_raw(),
            )
        })?;
        self.uses.note(stream);
        Ok(())
    }

    /// As [`read_2d`](Self::read_2d), in stream order on `stream`. `dst` is ordinary memory, so
    /// the call returns once `dst` holds the data (as [`read_at_async`](Self::read_at_async)).
    /// Refused (`INVALID_STATE`) on a stream that is capturing a graph.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_read_2d_async`](crate::sys::dc_buffer_read_2d_async) fails (the header's
    /// documentation, on the `sys` item, says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, and a capturing stream `INVALID_STATE`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn read_2d_async(
        &self,
        index: usize,
        pitch: usize,
        dst: &mut [T],
        dst_pitch: usize,
        width: usize,
        height: usize,
        stream: &Stream,
    ) -> Result<()> {
        let what = "DeviceBuffer::read_2d_async";
        let b = |n: usize| bytes_of::<T>(n, what);
        stream.refuse_capture(what)?;
        check(unsafe {
            sys::dc_buffer_read_2d_async(
                self.raw,
                b(index)?,
                b(pitch)?,
                dst.as_mut_ptr() as *mut c_void,
                b(dst.len())?,
                b(dst_pitch)?,
                b(width)?,
                height as u64,
                stream.as_raw(),
            )
        })?;
        self.uses.note(stream);
        Ok(())
    }

    /// Sets a `width` x `height` block (rows `pitch` elements apart from element `index`) to
    /// `value`; returns when done. Elements of 1, 2 or 4 bytes.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_fill_2d`](crate::sys::dc_buffer_fill_2d)
    /// fails (the header's documentation, on the `sys` item, says when). Elements of other than
    /// 1, 2 or 4 bytes, or a count whose byte size overflows, are `INVALID_ARGUMENT`.
    pub fn fill_2d(&mut self, index: usize, pitch: usize, width: usize, height: usize, value: T) -> Result<()> {
        let what = "DeviceBuffer::fill_2d";
        let (pattern, elem) = Self::fill_pattern(what, value)?;
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe { sys::dc_buffer_fill_2d(self.raw, b(index)?, b(pitch)?, b(width)?, height as u64, pattern, elem) })
    }

    /// As [`fill_2d`](Self::fill_2d), in stream order on `stream`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_fill_2d_async`](crate::sys::dc_buffer_fill_2d_async) fails (the header's
    /// documentation, on the `sys` item, says when). Elements of other than 1, 2 or 4 bytes, or a
    /// count whose byte size overflows, are `INVALID_ARGUMENT`.
    pub fn fill_2d_async(&mut self, index: usize, pitch: usize, width: usize, height: usize, value: T, stream: &Stream) -> Result<()> {
        let what = "DeviceBuffer::fill_2d_async";
        let (pattern, elem) = Self::fill_pattern(what, value)?;
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_fill_2d_async(self.raw, b(index)?, b(pitch)?, b(width)?, height as u64, pattern, elem, stream.as_raw())
        })?;
        self.uses.note(stream);
        Ok(())
    }

    /// Copies a box of `depth` planes of `height` rows of `width` elements from `src` into this
    /// buffer; returns when done. Rows are `pitch` elements apart and planes `rows_per_plane`
    /// rows apart on each side, from element `index` (`src_index` in `src`).
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_copy_3d`](crate::sys::dc_buffer_copy_3d)
    /// fails (the header's documentation, on the `sys` item, says when); a count whose byte size
    /// overflows is `INVALID_ARGUMENT`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_from_3d(
        &mut self,
        index: usize,
        pitch: usize,
        rows_per_plane: usize,
        src: &DeviceBuffer<T>,
        src_index: usize,
        src_pitch: usize,
        src_rows_per_plane: usize,
        (width, height, depth): (usize, usize, usize),
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_3d";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_copy_3d(
                self.raw,
                b(index)?,
                b(pitch)?,
                rows_per_plane as u64,
                src.raw,
                b(src_index)?,
                b(src_pitch)?,
                src_rows_per_plane as u64,
                b(width)?,
                height as u64,
                depth as u64,
            )
        })
    }

    /// As [`copy_from_3d`](Self::copy_from_3d), in stream order on `stream`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_copy_3d_async`](crate::sys::dc_buffer_copy_3d_async) fails (the header's
    /// documentation, on the `sys` item, says when); a count whose byte size overflows is
    /// `INVALID_ARGUMENT`, before any call.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_from_3d_async(
        &mut self,
        index: usize,
        pitch: usize,
        rows_per_plane: usize,
        src: &DeviceBuffer<T>,
        src_index: usize,
        src_pitch: usize,
        src_rows_per_plane: usize,
        (width, height, depth): (usize, usize, usize),
        stream: &Stream,
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_3d_async";
        let b = |n: usize| bytes_of::<T>(n, what);
        check(unsafe {
            sys::dc_buffer_copy_3d_async(
                self.raw,
                b(index)?,
                b(pitch)?,
                rows_per_plane as u64,
                src.raw,
                b(src_index)?,
                b(src_pitch)?,
                src_rows_per_plane as u64,
                b(width)?,
                height as u64,
                depth as u64,
                stream.as_raw(),
            )
        })?;
        self.uses.note(stream);
        src.uses.note(stream);
        Ok(())
    }

    // -- copies between buffers --------------------------------------------------------

    /// Copies all of `src` (same length) into this buffer; returns when done.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails. A slice whose
    /// length is not the buffer's is `INVALID_ARGUMENT`, before any call.
    pub fn copy_from(&mut self, src: &DeviceBuffer<T>) -> Result<()> {
        same_len("DeviceBuffer::copy_from", self.len, src.len)?;
        self.copy_from_buffer(0, src, 0, self.len)
    }

    /// Copies `count` elements of `src` from `src_offset` to `dst_offset` here; returns when done.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_copy`](crate::sys::dc_buffer_copy) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call.
    pub fn copy_from_buffer(
        &mut self,
        dst_offset: usize,
        src: &DeviceBuffer<T>,
        src_offset: usize,
        count: usize,
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_buffer";
        let (d, bytes) = range::<T>(what, self.len, dst_offset, count)?;
        let (s, _) = range::<T>(what, src.len, src_offset, count)?;
        check(unsafe { sys::dc_buffer_copy(self.raw, d, src.raw, s, bytes) })
    }

    /// As [`copy_from_buffer`](Self::copy_from_buffer), in stream order on `stream` (a stream
    /// of either buffer's device).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_copy_async`](crate::sys::dc_buffer_copy_async) fails (the header's
    /// documentation, on the `sys` item, says when). A range outside the buffer is `OUT_OF_RANGE`,
    /// before any call.
    pub fn copy_from_buffer_async(
        &mut self,
        dst_offset: usize,
        src: &DeviceBuffer<T>,
        src_offset: usize,
        count: usize,
        stream: &Stream,
    ) -> Result<()> {
        let what = "DeviceBuffer::copy_from_buffer_async";
        let (d, bytes) = range::<T>(what, self.len, dst_offset, count)?;
        let (s, _) = range::<T>(what, src.len, src_offset, count)?;
        check(unsafe { sys::dc_buffer_copy_async(self.raw, d, src.raw, s, bytes, stream.as_raw()) })?;
        self.uses.note(stream);
        src.uses.note(stream);
        Ok(())
    }

    /// Which path a copy from `src` into this buffer takes.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_copy_path`](crate::sys::dc_buffer_copy_path) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn copy_path<U: Pod>(&self, src: &DeviceBuffer<U>) -> Result<CopyPath> {
        let mut path = 0;
        check(unsafe { sys::dc_buffer_copy_path(self.raw, src.raw, &mut path) })?;
        Ok(match path {
            sys::DC_COPY_PATH_SAME_DEVICE => CopyPath::SameDevice,
            sys::DC_COPY_PATH_PEER => CopyPath::Peer,
            sys::DC_COPY_PATH_STAGED => CopyPath::Staged,
            sys::DC_COPY_PATH_HOST => CopyPath::Host,
            other => CopyPath::Other(other),
        })
    }

    // -- fills -------------------------------------------------------------------------

    /// `value` as the 1, 2 or 4 bytes cuMemsetD8/D16/D32 repeat.
    fn fill_pattern(what: &str, value: T) -> Result<(u32, u32)> {
        // SAFETY: each branch reads exactly size_of::<T>() bytes of a Pod value.
        unsafe {
            match size_of::<T>() {
                1 => Ok((std::mem::transmute_copy::<T, u8>(&value) as u32, 1)),
                2 => Ok((std::mem::transmute_copy::<T, u16>(&value) as u32, 2)),
                4 => Ok((std::mem::transmute_copy::<T, u32>(&value), 4)),
                n => Err(Error::local(
                    Status::INVALID_ARGUMENT,
                    format!(
                        "{what}: elements of {n} bytes cannot be filled (the device fills 1, 2 or 4 bytes at a time)"
                    ),
                )),
            }
        }
    }

    /// Sets every element to `value` (T of 1, 2 or 4 bytes); returns when done.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.fill_range(0, self.len, value)
    }

    /// Sets elements [offset, offset + count) to `value`; returns when done.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_fill`](crate::sys::dc_buffer_fill) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call. Elements of other than 1, 2 or 4 bytes are
    /// `INVALID_ARGUMENT`.
    pub fn fill_range(&mut self, offset: usize, count: usize, value: T) -> Result<()> {
        let what = "DeviceBuffer::fill_range";
        let (pattern, elem) = Self::fill_pattern(what, value)?;
        let (off, bytes) = range::<T>(what, self.len, offset, count)?;
        check(unsafe { sys::dc_buffer_fill(self.raw, off, bytes, pattern, elem) })
    }

    /// As [`fill_range`](Self::fill_range), in stream order on `stream`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_fill_async`](crate::sys::dc_buffer_fill_async) fails (the header's
    /// documentation, on the `sys` item, says when). A range outside the buffer is `OUT_OF_RANGE`,
    /// before any call. Elements of other than 1, 2 or 4 bytes are `INVALID_ARGUMENT`.
    pub fn fill_range_async(&mut self, offset: usize, count: usize, value: T, stream: &Stream) -> Result<()> {
        let what = "DeviceBuffer::fill_range_async";
        let (pattern, elem) = Self::fill_pattern(what, value)?;
        let (off, bytes) = range::<T>(what, self.len, offset, count)?;
        check(unsafe { sys::dc_buffer_fill_async(self.raw, off, bytes, pattern, elem, stream.as_raw()) })?;
        self.uses.note(stream);
        Ok(())
    }

    // -- managed memory ----------------------------------------------------------------

    /// Prefetches elements [offset, offset + count) of a managed buffer to `location`, in
    /// stream order on `stream`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_prefetch`](crate::sys::dc_buffer_prefetch)
    /// fails (the header's documentation, on the `sys` item, says when). A range outside the buffer
    /// is `OUT_OF_RANGE`, before any call.
    pub fn prefetch(&self, offset: usize, count: usize, location: Location, stream: &Stream) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::prefetch", self.len, offset, count)?;
        check(unsafe { sys::dc_buffer_prefetch(self.raw, off, bytes, location.raw(), stream.as_raw()) })?;
        self.uses.note(stream);
        Ok(())
    }

    /// Advice (`sys::DC_ADVISE_*`) about elements [offset, offset + count) of a managed buffer.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_advise`](crate::sys::dc_buffer_advise)
    /// fails (the header's documentation, on the `sys` item, says when). A range outside the buffer
    /// is `OUT_OF_RANGE`, before any call.
    pub fn advise(&self, offset: usize, count: usize, advice: i32, location: Location) -> Result<()> {
        let (off, bytes) = range::<T>("DeviceBuffer::advise", self.len, offset, count)?;
        check(unsafe { sys::dc_buffer_advise(self.raw, off, bytes, advice, location.raw()) })
    }
}

/// The caller's host memory registered with the driver (page-locked), so that copies from
/// and to it run at pinned speed. The slice stays borrowed while this lives; dropping it
/// waits until the device is idle, then unregisters the memory.
///
/// Only synchronous copies are offered: an asynchronous one could be captured into a graph
/// and replayed after the borrow ended. For asynchronous copies use a pinned
/// [`DeviceBuffer`].
pub struct RegisteredBuffer<'a, T: Pod> {
    raw: sys::dc_buffer,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

unsafe impl<T: Pod> Send for RegisteredBuffer<'_, T> {}
unsafe impl<T: Pod> Sync for RegisteredBuffer<'_, T> {}

impl<'a, T: Pod> RegisteredBuffer<'a, T> {
    /// Registers `memory` (cuMemHostRegister). Slow (tens of ms for hundreds of MiB):
    /// register once, copy many times. Flags: DC_ALLOC_PORTABLE, DC_ALLOC_DEVICE_MAPPED,
    /// DC_ALLOC_READ_ONLY.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_register_host`](crate::sys::dc_buffer_register_host) fails (the header's
    /// documentation, on the `sys` item, says when). A length whose size in bytes does not fit in
    /// 64 bits is `OUT_OF_RANGE`.
    pub fn new(device: &Device, memory: &'a mut [T], flags: u32) -> Result<Self> {
        let bytes = bytes_of::<T>(memory.len(), "RegisteredBuffer::new")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_buffer_register_host(device.as_raw(), memory.as_mut_ptr().cast(), bytes, flags, &mut raw)
        })?;
        Ok(RegisteredBuffer { raw, len: memory.len(), _borrow: PhantomData })
    }

    pub fn as_raw(&self) -> sys::dc_buffer {
        self.raw
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// # Errors
    /// The library's status and message when [`dc_buffer_kind`](crate::sys::dc_buffer_kind) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn kind(&self) -> Result<BufferKind> {
        let mut kind = 0;
        check(unsafe { sys::dc_buffer_kind(self.raw, &mut kind) })?;
        Ok(BufferKind::from_raw(kind))
    }

    /// Copies `count` elements from `src_offset` of this memory into `dst` at `dst_offset`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_copy`](crate::sys::dc_buffer_copy) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call.
    pub fn copy_to_buffer(
        &self,
        src_offset: usize,
        dst: &mut DeviceBuffer<T>,
        dst_offset: usize,
        count: usize,
    ) -> Result<()> {
        let what = "RegisteredBuffer::copy_to_buffer";
        let (s, bytes) = range::<T>(what, self.len, src_offset, count)?;
        let (d, _) = range::<T>(what, dst.len, dst_offset, count)?;
        check(unsafe { sys::dc_buffer_copy(dst.raw, d, self.raw, s, bytes) })
    }

    /// Copies `count` elements of `src` from `src_offset` into this memory at `dst_offset`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_buffer_copy`](crate::sys::dc_buffer_copy) fails
    /// (the header's documentation, on the `sys` item, says when). A range outside the buffer is
    /// `OUT_OF_RANGE`, before any call.
    pub fn copy_from_buffer(
        &mut self,
        dst_offset: usize,
        src: &DeviceBuffer<T>,
        src_offset: usize,
        count: usize,
    ) -> Result<()> {
        let what = "RegisteredBuffer::copy_from_buffer";
        let (d, bytes) = range::<T>(what, self.len, dst_offset, count)?;
        let (s, _) = range::<T>(what, src.len, src_offset, count)?;
        check(unsafe { sys::dc_buffer_copy(self.raw, d, src.raw, s, bytes) })
    }
}

impl<T: Pod> Drop for RegisteredBuffer<'_, T> {
    fn drop(&mut self) {
        // Work enqueued by others (a kernel given the mapped address) could still touch the
        // memory: wait for the device before the borrow ends. Errors (a lost context) mean
        // the device no longer runs anything.
        unsafe {
            let mut device = std::ptr::null_mut();
            if sys::dc_buffer_device(self.raw, &mut device) == sys::DC_SUCCESS {
                sys::dc_device_synchronize(device);
                sys::dc_device_release(device);
            }
            sys::dc_buffer_release(self.raw);
        }
    }
}

impl<T: Pod> std::fmt::Debug for RegisteredBuffer<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RegisteredBuffer<{}>({:p}, {} elements)", std::any::type_name::<T>(), self.raw, self.len)
    }
}
