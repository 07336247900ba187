//! Pools you control, growable buffers and IPC through the safe API: pool statistics move
//! with allocations, a growable buffer keeps its address and data as it grows, and
//! memory that cannot be shared is refused.
mod common;

use dccuda::{DeviceBuffer, Event, Pool, PoolAttribute, Status};

const MIB: u64 = 1 << 20;

#[test]
fn pool_statistics_move_with_allocations() {
    let Some(device) = common::device() else { return };
    let pool = Pool::new(&device, 0, false).unwrap();
    pool.set_attribute(PoolAttribute::ReleaseThreshold, u64::MAX).unwrap();
    assert_eq!(pool.attribute(PoolAttribute::ReleaseThreshold).unwrap(), u64::MAX);
    assert_eq!(pool.stats().unwrap().used_current, 0);
    let a: DeviceBuffer<u32> = pool.alloc((3 * MIB / 4) as usize).unwrap();
    let b: DeviceBuffer<u8> = pool.alloc((5 * MIB) as usize).unwrap();
    let both = pool.stats().unwrap();
    assert!(both.used_current >= 8 * MIB, "{both:?}");
    assert!(both.reserved_current >= both.used_current, "{both:?}");
    drop(b);
    device.synchronize().unwrap();
    let after = pool.stats().unwrap();
    assert!(after.used_current < both.used_current, "{after:?}");
    assert_eq!(after.used_high, both.used_current, "the high-water mark stays until reset");
    pool.reset_high_water().unwrap();
    assert_eq!(pool.stats().unwrap().used_high, pool.stats().unwrap().used_current);
    // Dropping the pool while a buffer from it lives is safe: the buffer keeps it.
    drop(pool);
    let data = vec![7u32; a.len()];
    let mut a = a;
    a.copy_from_slice(&data).unwrap();
    assert_eq!(a.to_vec().unwrap(), data);
    assert!(device.pool_stats().is_ok());
}

#[test]
fn a_growable_buffer_keeps_its_address_and_data() {
    let Some(device) = common::device() else { return };
    let granularity = device.allocation_granularity(false).unwrap() as usize;
    let elements = granularity / 4;
    let mut buffer = DeviceBuffer::<u32>::growable(&device, 8 * elements, 1).unwrap();
    assert_eq!(buffer.len(), elements, "one granule");
    assert_eq!(buffer.reserved_len().unwrap(), 8 * elements);
    let address = buffer.device_pointer().unwrap();
    let first: Vec<u32> = (0..elements as u32).collect();
    buffer.copy_from_slice(&first).unwrap();
    buffer.grow(3 * elements + 1).unwrap();
    assert_eq!(buffer.len(), 4 * elements);
    assert_eq!(buffer.device_pointer().unwrap(), address);
    let mut back = vec![0u32; elements];
    buffer.read_at(0, &mut back).unwrap();
    assert_eq!(back, first);
    let err = buffer.grow(8 * elements + 1).unwrap_err();
    assert_eq!(err.status(), Status::OUT_OF_RANGE, "{err}");
    let mut plain = DeviceBuffer::<u32>::new(&device, 16).unwrap();
    assert_eq!(plain.grow(32).unwrap_err().status(), Status::INVALID_ARGUMENT);
}

#[test]
fn only_shareable_memory_is_exported() {
    let Some(device) = common::device() else { return };
    let pooled = DeviceBuffer::<u8>::new(&device, 4096).unwrap();
    let err = pooled.export_ipc().unwrap_err();
    assert_eq!(err.status(), Status::NOT_SUPPORTED, "{err}");
    let plain = DeviceBuffer::<u8>::with_flags(&device, 4096, dccuda::sys::DC_ALLOC_NO_POOL).unwrap();
    assert!(plain.export_ipc().is_ok());
    let event =
        Event::with_flags(&device, dccuda::sys::DC_EVENT_INTERPROCESS | dccuda::sys::DC_EVENT_DISABLE_TIMING).unwrap();
    let bytes = event.export_ipc().unwrap();
    assert_eq!(bytes.len(), 128);
    let junk = [0u8; 128];
    assert_eq!(DeviceBuffer::<u8>::import_ipc(&device, &junk).unwrap_err().status(), Status::INVALID_ARGUMENT);
    assert_eq!(Event::import_ipc(&device, &junk).unwrap_err().status(), Status::INVALID_ARGUMENT);
}

#[test]
fn virtual_memory_pieces_make_one_range() {
    let Some(device) = common::device() else { return };
    let g = device.allocation_granularity(false).unwrap();
    let base = device.vmm_reserve(2 * g, 0).unwrap();
    let a = device.vmm_create(g).unwrap();
    let b = device.vmm_create(g).unwrap();
    device.vmm_map(base, g, a).unwrap();
    device.vmm_map(base + g, g, b).unwrap();
    device.vmm_set_access(base, 2 * g, &device, dccuda::sys::DC_VMM_ACCESS_READWRITE).unwrap();
    assert_eq!(device.vmm_map(base, g, b).unwrap_err().status(), Status::INVALID_ARGUMENT);
    {
        // SAFETY: [base, base + 2g) is mapped device memory that outlives the wrap.
        let mut range = unsafe { DeviceBuffer::<u8>::wrap(&device, base, (2 * g) as usize) }.unwrap();
        let data: Vec<u8> = (0..8192u32).map(|i| (i * 7) as u8).collect();
        range.write_at((g - 4096) as usize, &data).unwrap();
        let mut back = vec![0u8; 8192];
        range.read_at((g - 4096) as usize, &mut back).unwrap();
        assert_eq!(back, data);
    }
    assert_eq!(device.vmm_free(base, 2 * g).unwrap_err().status(), Status::INVALID_STATE);
    device.vmm_unmap(base, 2 * g).unwrap();
    device.vmm_release(a).unwrap();
    device.vmm_release(b).unwrap();
    device.vmm_free(base, 2 * g).unwrap();
}
