//! Devices: info, memory, peers, synchronisation.

mod common;

use dccuda::{sys, Device, DeviceBuffer, Status};

#[test]
fn info_describes_the_device() {
    let Some(device) = common::device() else { return };
    let info = device.info().unwrap();
    assert!(!info.name().is_empty());
    assert!(info.arch() >= 50, "sm_{}", info.arch());
    assert_eq!(info.ordinal, 0);
    assert!(info.total_memory > 0 && info.multiprocessor_count > 0);
    assert_eq!(info.warp_size, 32);
    assert!(info.max_threads_per_block >= 1024);
    let (free, total) = device.memory_info().unwrap();
    assert!(free <= total && total == info.total_memory, "{free} {total} {}", info.total_memory);
    // CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10
    assert_eq!(device.attribute(10).unwrap(), 32);
    let (cu_device, context) = device.native().unwrap();
    assert_eq!(cu_device, 0);
    assert!(!context.is_null());
}

#[test]
fn every_open_is_a_new_handle_of_the_same_device() {
    let Some(a) = common::device() else { return };
    let b = Device::open(0).unwrap();
    assert_ne!(a.as_raw(), b.as_raw());
    assert_eq!(a.native().unwrap(), b.native().unwrap(), "same device, same primary context");
    // A device can always access itself.
    assert!(a.can_access_peer(&b).unwrap());
    a.enable_peer_access(&b).unwrap();
    a.disable_peer_access(&b).unwrap();
    let e = a.peer_attribute(&b, sys::DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "a pair of one device: {e}");
}

#[test]
fn two_devices_when_there_are_two() {
    let Some(a) = common::device() else { return };
    if Device::count().unwrap() < 2 {
        eprintln!("SKIPPED: needs two devices (DCFAKE_DEVICES=2 on the fake driver)");
        return;
    }
    let b = Device::open(1).unwrap();
    let can = a.can_access_peer(&b).unwrap();
    let rank = a.peer_attribute(&b, sys::DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED).unwrap();
    assert_eq!(can, rank != 0);
    let src = DeviceBuffer::from_slice(&a, &[1u32, 2, 3]).unwrap();
    let mut dst = DeviceBuffer::<u32>::new(&b, 3).unwrap();
    dst.copy_from(&src).unwrap();
    assert_eq!(dst.to_vec().unwrap(), [1, 2, 3]);
}

#[test]
fn synchronize_and_trim() {
    let Some(device) = common::device() else { return };
    {
        let _buffers: Vec<_> = (0..4).map(|_| DeviceBuffer::<u8>::new(&device, 1 << 20).unwrap()).collect();
    }
    device.synchronize().unwrap();
    device.trim_memory(0).unwrap();
}
