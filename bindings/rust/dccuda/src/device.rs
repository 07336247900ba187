//! Devices: opening one, what it is, its memory, peers, and recovery after a fault.

use std::ffi::c_void;
use std::ops::Deref;

use crate::error::{check, Result};
use crate::sys;

crate::owned_handle!(
    /// An open CUDA device (its primary context is retained while any handle or object on
    /// it lives). Every `open` gives a new handle.
    Device,
    sys::dc_device,
    sys::dc_device_release
);

/// What a device is: the C struct, with helpers for the fields that need decoding. Every
/// field of `sys::dc_device_info` is reachable through `Deref`.
#[derive(Clone, Copy, Debug)]
pub struct DeviceInfo(pub sys::dc_device_info);

impl DeviceInfo {
    /// The device's name ("NVIDIA H100 80GB HBM3").
    pub fn name(&self) -> String {
        let bytes: Vec<u8> = self.0.name.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// (major, minor): (9, 0) for Hopper.
    pub fn compute_capability(&self) -> (i32, i32) {
        (self.0.compute_capability_major, self.0.compute_capability_minor)
    }

    /// The architecture number NVRTC takes: 10 * major + minor (90 for sm_90).
    pub fn arch(&self) -> i32 {
        10 * self.0.compute_capability_major + self.0.compute_capability_minor
    }
}

impl Deref for DeviceInfo {
    type Target = sys::dc_device_info;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Device {
    /// The number of CUDA devices (0 is a valid answer when the driver sees no GPU).
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_count`](crate::sys::dc_device_count) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn count() -> Result<usize> {
        let mut n = 0;
        check(unsafe { sys::dc_device_count(&mut n) })?;
        Ok(n.max(0) as usize)
    }

    /// Opens device `ordinal` (0-based).
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_open`](crate::sys::dc_device_open) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn open(ordinal: usize) -> Result<Device> {
        // Ordinals past i32::MAX cannot exist; the library names the bad value.
        let ordinal = i32::try_from(ordinal).unwrap_or(i32::MAX);
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_device_open(ordinal, &mut raw) })?;
        Ok(Device { raw })
    }

    /// Name, compute capability, memory, limits and capabilities.
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_get_info`](crate::sys::dc_device_get_info)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn info(&self) -> Result<DeviceInfo> {
        let mut info = sys::dc_device_info::default();
        check(unsafe { sys::dc_device_get_info(self.raw, &mut info) })?;
        Ok(DeviceInfo(info))
    }

    /// Any CUdevice_attribute (the numeric value of cuda.h's CU_DEVICE_ATTRIBUTE_*).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_attribute`](crate::sys::dc_device_attribute) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn attribute(&self, attribute: i32) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_device_attribute(self.raw, attribute, &mut v) })?;
        Ok(v)
    }

    /// (free, total) device memory in bytes, now.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_memory_info`](crate::sys::dc_device_memory_info) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        let (mut free, mut total) = (0, 0);
        check(unsafe { sys::dc_device_memory_info(self.raw, &mut free, &mut total) })?;
        Ok((free, total))
    }

    /// The statistics of the library's own stream-ordered pool on the device (the one
    /// [`DeviceBuffer::new`](crate::DeviceBuffer::new) uses); all zero without pools.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_pool_statistics`](crate::sys::dc_device_pool_statistics) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn pool_stats(&self) -> Result<crate::PoolStats> {
        let mut s = sys::dc_pool_stats::default();
        check(unsafe { sys::dc_device_pool_statistics(self.raw, &mut s) })?;
        Ok(crate::PoolStats::from_raw(&s))
    }

    /// The device's allocation granularity in bytes (`recommended`: the one best for
    /// performance, else the minimum growable buffers round to).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_allocation_granularity`](crate::sys::dc_device_allocation_granularity) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn allocation_granularity(&self, recommended: bool) -> Result<u64> {
        let which = if recommended { sys::DC_GRANULARITY_RECOMMENDED } else { sys::DC_GRANULARITY_MINIMUM };
        let mut g = 0u64;
        check(unsafe { sys::dc_device_allocation_granularity(self.raw, which, &mut g) })?;
        Ok(g)
    }

    /// Reserves `size` bytes of device address space (a multiple of the granularity;
    /// `alignment` 0 or a power of two); the caller frees it with
    /// [`vmm_free`](Self::vmm_free).
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_reserve`](crate::sys::dc_vmm_reserve)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn vmm_reserve(&self, size: u64, alignment: u64) -> Result<u64> {
        let mut address = 0u64;
        check(unsafe { sys::dc_vmm_reserve(self.raw, size, alignment, &mut address) })?;
        Ok(address)
    }

    /// Frees a reservation whole, once nothing is mapped in it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_free`](crate::sys::dc_vmm_free) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn vmm_free(&self, address: u64, size: u64) -> Result<()> {
        check(unsafe { sys::dc_vmm_free(self.raw, address, size) })
    }

    /// Creates `size` bytes of physical memory (a multiple of the granularity); the caller
    /// releases it with [`vmm_release`](Self::vmm_release).
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_create`](crate::sys::dc_vmm_create) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn vmm_create(&self, size: u64) -> Result<u64> {
        let mut handle = 0u64;
        check(unsafe { sys::dc_vmm_create(self.raw, size, &mut handle) })?;
        Ok(handle)
    }

    /// Releases physical memory (freed at its last unmap if mapped).
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_release`](crate::sys::dc_vmm_release)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn vmm_release(&self, handle: u64) -> Result<()> {
        check(unsafe { sys::dc_vmm_release(self.raw, handle) })
    }

    /// Maps the first `size` bytes of `handle` at `address` inside a reservation.
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_map`](crate::sys::dc_vmm_map) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn vmm_map(&self, address: u64, size: u64, handle: u64) -> Result<()> {
        check(unsafe { sys::dc_vmm_map(self.raw, address, size, handle) })
    }

    /// Unmaps whole mappings covering `[address, address + size)`.
    ///
    /// # Errors
    /// The library's status and message when [`dc_vmm_unmap`](crate::sys::dc_vmm_unmap) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn vmm_unmap(&self, address: u64, size: u64) -> Result<()> {
        check(unsafe { sys::dc_vmm_unmap(self.raw, address, size) })
    }

    /// Sets `accessor`'s access (`sys::DC_VMM_ACCESS_*`) to a mapped range.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_vmm_set_access`](crate::sys::dc_vmm_set_access) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn vmm_set_access(&self, address: u64, size: u64, accessor: &Device, access: i32) -> Result<()> {
        check(unsafe { sys::dc_vmm_set_access(self.raw, address, size, accessor.raw, access) })
    }

    /// Waits until all work on the device has finished.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_synchronize`](crate::sys::dc_device_synchronize) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn synchronize(&self) -> Result<()> {
        check(unsafe { sys::dc_device_synchronize(self.raw) })
    }

    /// Recovers the device after `Status::CONTEXT_LOST`: resets its primary context. Every
    /// object made on the device before (buffers, streams, modules...) is dead afterwards:
    /// using it returns `CONTEXT_LOST`; drop them as usual.
    ///
    /// # Safety
    /// No other thread may use the device (any object on it) during the call: the header
    /// forbids it, and the driver destroys the context those calls would use.
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_reset`](crate::sys::dc_device_reset) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub unsafe fn reset(&self) -> Result<()> {
        check(unsafe { sys::dc_device_reset(self.raw) })
    }

    /// Sets one of the limits of the device's primary context (shared by every user of the
    /// device in the process). The driver may round the value up: read it back with
    /// [`limit`](Self::limit). Some limits cannot change once a kernel depended on them (the
    /// heap after a kernel used `malloc`); `dc_device_reset` restores the defaults.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_set_limit`](crate::sys::dc_device_set_limit) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn set_limit(&self, limit: Limit, value: u64) -> Result<()> {
        check(unsafe { sys::dc_device_set_limit(self.raw, limit.raw(), value) })
    }

    /// The current value of one of the context's limits.
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_limit`](crate::sys::dc_device_limit)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn limit(&self, limit: Limit) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::dc_device_limit(self.raw, limit.raw(), &mut v) })?;
        Ok(v)
    }

    /// Sets the device-wide L1/shared memory preference (`sys::DC_CACHE_PREFER_*`; a hint, and
    /// a kernel's own [`Function::set_cache_config`](crate::Function::set_cache_config) wins).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_set_cache_config`](crate::sys::dc_device_set_cache_config) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn set_cache_config(&self, preference: i32) -> Result<()> {
        check(unsafe { sys::dc_device_set_cache_config(self.raw, preference) })
    }

    /// The device-wide cache preference (`sys::DC_CACHE_PREFER_*`).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_cache_config`](crate::sys::dc_device_cache_config) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn cache_config(&self) -> Result<i32> {
        let mut p = 0i32;
        check(unsafe { sys::dc_device_cache_config(self.raw, &mut p) })?;
        Ok(p)
    }

    /// Gives cached pool memory back to the driver, keeping `keep_bytes`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_trim_memory`](crate::sys::dc_device_trim_memory) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn trim_memory(&self, keep_bytes: u64) -> Result<()> {
        check(unsafe { sys::dc_device_trim_memory(self.raw, keep_bytes) })
    }

    /// The raw CUdevice and primary CUcontext, for other CUDA libraries. The context belongs
    /// to this handle: do not destroy it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_device_native`](crate::sys::dc_device_native)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn native(&self) -> Result<(i32, *mut c_void)> {
        let (mut dev, mut ctx) = (0, std::ptr::null_mut());
        check(unsafe { sys::dc_device_native(self.raw, &mut dev, &mut ctx) })?;
        Ok((dev, ctx))
    }

    /// Whether kernels and copies on `self` can access memory on `peer` directly.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_can_access_peer`](crate::sys::dc_device_can_access_peer) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn can_access_peer(&self, peer: &Device) -> Result<bool> {
        let mut v = 0;
        check(unsafe { sys::dc_device_can_access_peer(self.raw, peer.raw, &mut v) })?;
        Ok(v != 0)
    }

    /// Lets `self` access memory on `peer` (idempotent).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_enable_peer_access`](crate::sys::dc_device_enable_peer_access) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn enable_peer_access(&self, peer: &Device) -> Result<()> {
        check(unsafe { sys::dc_device_enable_peer_access(self.raw, peer.raw) })
    }

    /// Undoes [`enable_peer_access`](Self::enable_peer_access) (idempotent).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_disable_peer_access`](crate::sys::dc_device_disable_peer_access) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn disable_peer_access(&self, peer: &Device) -> Result<()> {
        check(unsafe { sys::dc_device_disable_peer_access(self.raw, peer.raw) })
    }

    /// A `sys::DC_PEER_ATTRIBUTE_*` of the pair (self -> peer).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_device_peer_attribute`](crate::sys::dc_device_peer_attribute) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn peer_attribute(&self, peer: &Device, attribute: i32) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_device_peer_attribute(self.raw, peer.raw, attribute, &mut v) })?;
        Ok(v)
    }

    /// The range of stream priorities: (least, greatest); the greatest is numerically lowest.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_stream_priority_range`](crate::sys::dc_stream_priority_range) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn stream_priority_range(&self) -> Result<(i32, i32)> {
        let (mut least, mut greatest) = (0, 0);
        check(unsafe { sys::dc_stream_priority_range(self.raw, &mut least, &mut greatest) })?;
        Ok((least, greatest))
    }
}

/// The limits of a device's context ([`Device::set_limit`], [`Device::limit`]): cuda.h's `CUlimit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Bytes of stack per GPU thread.
    StackSize,
    /// Bytes of the FIFO device `printf` writes into.
    PrintfFifoSize,
    /// Bytes of the heap device `malloc`/`new` allocate from.
    MallocHeapSize,
    /// Launches device code may have pending (dynamic parallelism).
    DevRuntimePendingLaunchCount,
    /// Bytes of L2 set aside for persisting accesses (compute capability 8.0+).
    PersistingL2CacheSize,
}

impl Limit {
    fn raw(self) -> i32 {
        match self {
            Limit::StackSize => sys::DC_LIMIT_STACK_SIZE,
            Limit::PrintfFifoSize => sys::DC_LIMIT_PRINTF_FIFO_SIZE,
            Limit::MallocHeapSize => sys::DC_LIMIT_MALLOC_HEAP_SIZE,
            Limit::DevRuntimePendingLaunchCount => sys::DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT,
            Limit::PersistingL2CacheSize => sys::DC_LIMIT_PERSISTING_L2_CACHE_SIZE,
        }
    }
}
