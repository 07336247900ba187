//! Memory pools you control (`dc_pool`): a stream-ordered pool of your own on one device,
//! with its size limit, release threshold, reuse rules, statistics and peer access.
//! Buffers from it are ordinary [`DeviceBuffer`]s; each keeps the pool alive, so dropping
//! the [`Pool`] while buffers from it live is safe (the library destroys the driver's pool
//! after the last of them).

use crate::buffer::{bytes_of, DeviceBuffer};
use crate::device::Device;
use crate::error::{check, Result};
use crate::pod::Pod;
use crate::stream::Stream;
use crate::sys;

crate::owned_handle!(
    /// A memory pool on one device (`dc_pool`).
    Pool,
    sys::dc_pool,
    sys::dc_pool_release
);

/// An attribute of a pool (`sys::DC_POOL_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolAttribute {
    /// 0 or 1: reuse memory freed on another stream once an event orders the two.
    ReuseFollowEventDependencies,
    /// 0 or 1: reuse memory whose free has completed, without a dependency.
    ReuseAllowOpportunistic,
    /// 0 or 1: let the driver insert dependencies to reuse memory.
    ReuseAllowInternalDependencies,
    /// Bytes of freed memory kept cached at a synchronisation.
    ReleaseThreshold,
}

impl PoolAttribute {
    fn raw(self) -> i32 {
        match self {
            PoolAttribute::ReuseFollowEventDependencies => sys::DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
            PoolAttribute::ReuseAllowOpportunistic => sys::DC_POOL_REUSE_ALLOW_OPPORTUNISTIC,
            PoolAttribute::ReuseAllowInternalDependencies => sys::DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
            PoolAttribute::ReleaseThreshold => sys::DC_POOL_RELEASE_THRESHOLD,
        }
    }
}

/// A pool's statistics in bytes: reserved from the device (in use or cached) and in use by
/// allocations, now and at their high-water marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    pub device_ordinal: i32,
    pub reserved_current: u64,
    pub reserved_high: u64,
    pub used_current: u64,
    pub used_high: u64,
}

impl PoolStats {
    pub(crate) fn from_raw(s: &sys::dc_pool_stats) -> Self {
        PoolStats {
            device_ordinal: s.device_ordinal,
            reserved_current: s.reserved_current,
            reserved_high: s.reserved_high,
            used_current: s.used_current,
            used_high: s.used_high,
        }
    }
}

impl Pool {
    /// A pool on `device` reserving at most `max_size` bytes (0: the device's memory; a
    /// limit needs a CUDA 12.2 driver). `exportable`: its memory may be shared with other
    /// processes (Linux).
    ///
    /// # Errors
    /// The library's status and message when [`dc_pool_create`](crate::sys::dc_pool_create)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn new(device: &Device, max_size: u64, exportable: bool) -> Result<Pool> {
        let flags = if exportable { sys::DC_POOL_EXPORTABLE } else { 0 };
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_pool_create(device.as_raw(), max_size, flags, &mut raw) })?;
        Ok(Pool { raw })
    }

    /// Sets an attribute (the reuse ones take 0 or 1).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_set_attribute`](crate::sys::dc_pool_set_attribute) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn set_attribute(&self, attribute: PoolAttribute, value: u64) -> Result<()> {
        check(unsafe { sys::dc_pool_set_attribute(self.raw, attribute.raw(), value) })
    }

    /// An attribute's value.
    ///
    /// # Errors
    /// The library's status and message when [`dc_pool_attribute`](crate::sys::dc_pool_attribute)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn attribute(&self, attribute: PoolAttribute) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::dc_pool_attribute(self.raw, attribute.raw(), &mut v) })?;
        Ok(v)
    }

    /// The pool's statistics.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_statistics`](crate::sys::dc_pool_statistics) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn stats(&self) -> Result<PoolStats> {
        let mut s = sys::dc_pool_stats::default();
        check(unsafe { sys::dc_pool_statistics(self.raw, &mut s) })?;
        Ok(PoolStats::from_raw(&s))
    }

    /// Resets the high-water marks to the current values.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_reset_high_water`](crate::sys::dc_pool_reset_high_water) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn reset_high_water(&self) -> Result<()> {
        check(unsafe { sys::dc_pool_reset_high_water(self.raw) })
    }

    /// Gives cached memory back until the pool reserves at most `keep_bytes`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_pool_trim`](crate::sys::dc_pool_trim) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn trim(&self, keep_bytes: u64) -> Result<()> {
        check(unsafe { sys::dc_pool_trim(self.raw, keep_bytes) })
    }

    /// Grants (or takes back) `accessor`'s access to the pool's memory.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_set_access`](crate::sys::dc_pool_set_access) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn set_access(&self, accessor: &Device, enable: bool) -> Result<()> {
        check(unsafe { sys::dc_pool_set_access(self.raw, accessor.as_raw(), i32::from(enable)) })
    }

    /// `len` elements from the pool, usable from every stream when it returns.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_alloc_from_pool`](crate::sys::dc_buffer_alloc_from_pool) fails (the header's
    /// documentation, on the `sys` item, says when). A length whose size in bytes does not fit
    /// in 64 bits is `OUT_OF_RANGE`.
    pub fn alloc<T: Pod>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        let bytes = bytes_of::<T>(len, "Pool::alloc")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_alloc_from_pool(self.raw, std::ptr::null_mut(), bytes, &mut raw) })?;
        // SAFETY: a fresh buffer of exactly `len` elements that nothing else releases.
        Ok(unsafe { DeviceBuffer::from_raw(raw, len) })
    }

    /// `len` elements from the pool in stream order on `stream` (of the pool's device).
    ///
    /// # Errors
    /// As [`alloc`](Self::alloc).
    pub fn alloc_async<T: Pod>(&self, len: usize, stream: &Stream) -> Result<DeviceBuffer<T>> {
        let bytes = bytes_of::<T>(len, "Pool::alloc_async")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_buffer_alloc_from_pool(self.raw, stream.as_raw(), bytes, &mut raw) })?;
        // SAFETY: as in alloc.
        let buffer: DeviceBuffer<T> = unsafe { DeviceBuffer::from_raw(raw, len) };
        buffer.note_use(stream);
        Ok(buffer)
    }

    /// Exports the pool (made exportable) for another process: `DC_IPC_HANDLE_SIZE` bytes
    /// that [`Pool::import_ipc`] takes there. Buffers from it are exported with
    /// [`DeviceBuffer::export_ipc`].
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_export_ipc`](crate::sys::dc_pool_export_ipc) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn export_ipc(&self) -> Result<[u8; sys::DC_IPC_HANDLE_SIZE as usize]> {
        let mut bytes = [0u8; sys::DC_IPC_HANDLE_SIZE as usize];
        check(unsafe { sys::dc_pool_export_ipc(self.raw, bytes.as_mut_ptr().cast(), bytes.len() as u64) })?;
        Ok(bytes)
    }

    /// Imports a pool another process exported ([`Pool::export_ipc`]) on `device`, taking
    /// the exporter's descriptor with `pidfd_getfd`. The pool only holds imported buffers
    /// ([`Pool::import_buffer`]).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_import_ipc`](crate::sys::dc_pool_import_ipc) fails (the header's documentation,
    /// on the `sys` item, says when; `NOT_SUPPORTED` where the system refuses to hand over
    /// the descriptor: then use [`Pool::export_fd`] and [`Pool::import_fd`]).
    pub fn import_ipc(device: &Device, handle: &[u8]) -> Result<Pool> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_pool_import_ipc(device.as_raw(), handle.as_ptr().cast(), handle.len() as u64, &mut raw) })?;
        Ok(Pool { raw })
    }

    /// The pool's file descriptor, to send over a Unix socket yourself. It stays the
    /// pool's: do not close it.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_export_fd`](crate::sys::dc_pool_export_fd) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn export_fd(&self) -> Result<i32> {
        let mut fd = 0i32;
        check(unsafe { sys::dc_pool_export_fd(self.raw, &mut fd) })?;
        Ok(fd)
    }

    /// Imports a pool from `fd`, a descriptor of this process for another process's
    /// exported pool (received over a Unix socket); `fd` stays the caller's.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_pool_import_fd`](crate::sys::dc_pool_import_fd) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn import_fd(device: &Device, fd: i32) -> Result<Pool> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_pool_import_fd(device.as_raw(), fd, &mut raw) })?;
        Ok(Pool { raw })
    }

    /// Imports into this pool (imported with [`Pool::import_ipc`] or [`Pool::import_fd`])
    /// a buffer the exporter allocated from it and exported: a buffer that keeps the pool
    /// alive; drop it before the exporter frees its buffer.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_buffer_import_ipc_from_pool`](crate::sys::dc_buffer_import_ipc_from_pool) fails (the
    /// header's documentation, on the `sys` item, says when). A size that is not a whole
    /// number of elements is `INVALID_ARGUMENT`.
    pub fn import_buffer<T: Pod>(&self, handle: &[u8]) -> Result<DeviceBuffer<T>> {
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_buffer_import_ipc_from_pool(self.raw, handle.as_ptr().cast(), handle.len() as u64, &mut raw)
        })?;
        DeviceBuffer::from_library(raw, "Pool::import_buffer")
    }
}
