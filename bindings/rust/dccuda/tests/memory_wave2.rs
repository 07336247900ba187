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

// One process stands for both sides on the fake driver (its imports are the exporter's own
// memory); a real driver's two-process run is the C++ GPU suite's.
#[test]
#[cfg(target_os = "linux")]
fn a_pool_and_its_buffer_round_trip_in_one_process_on_the_fake() {
    let Some(device) = common::device() else { return };
    // The fake models both sides in one process; a real driver refuses to import its own exports.
    if !dccuda::driver_library().is_ok_and(|path| path.contains("dcfake")) {
        eprintln!("SKIPPED: one-process pool sharing is the fake driver's model");
        return;
    }
    let pool = dccuda::Pool::new(&device, 0, true).unwrap();
    let mut owner = pool.alloc::<u32>(256).unwrap();
    let data: Vec<u32> = (0..256).collect();
    owner.copy_from_slice(&data).unwrap();
    let pool_bytes = pool.export_ipc().unwrap();
    let buffer_bytes = owner.export_ipc().unwrap();
    let imported = dccuda::Pool::import_ipc(&device, &pool_bytes).unwrap();
    let shared = imported.import_buffer::<u32>(&buffer_bytes).unwrap();
    let mut back = vec![0u32; 256];
    shared.copy_to_slice(&mut back).unwrap();
    assert_eq!(back, data);
    assert_eq!(imported.alloc::<u32>(1).unwrap_err().status(), Status::INVALID_ARGUMENT);
    // The descriptor route: the pool's own descriptor, not taken by the import.
    let fd = pool.export_fd().unwrap();
    let by_fd = dccuda::Pool::import_fd(&device, fd).unwrap();
    assert_eq!(pool.export_fd().unwrap(), fd);
    let err = DeviceBuffer::<u32>::import_ipc(&device, &buffer_bytes).unwrap_err();
    assert_eq!(err.status(), Status::INVALID_ARGUMENT, "{err}");
    assert!(err.to_string().contains("dc_buffer_import_ipc_from_pool"), "{err}");
    let plain = dccuda::Pool::new(&device, 0, false).unwrap();
    assert_eq!(plain.export_ipc().unwrap_err().status(), Status::NOT_SUPPORTED);
    // The importer drops first.
    drop(shared);
    drop(by_fd);
    drop(imported);
    drop(owner);
}
