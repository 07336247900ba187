//! Buffers and copies through the safe API.

mod common;

use dccuda::{sys, BufferKind, CopyPath, DeviceBuffer, RegisteredBuffer, Status, Stream};

#[test]
fn copy_round_trip_of_random_data() {
    let Some(device) = common::device() else { return };
    let data = common::random_f32(10_000, 7);
    let buffer = DeviceBuffer::from_slice(&device, &data).unwrap();
    assert_eq!(buffer.len(), data.len());
    assert_eq!(buffer.size_bytes().unwrap(), (data.len() * 4) as u64);
    assert_eq!(buffer.kind().unwrap(), BufferKind::Device);
    assert_eq!(buffer.to_vec().unwrap(), data);
    let mut back = vec![0f32; data.len()];
    buffer.copy_to_slice(&mut back).unwrap();
    assert_eq!(back, data);
}

#[test]
fn partial_writes_and_reads_land_at_their_offsets() {
    let Some(device) = common::device() else { return };
    let mut buffer = DeviceBuffer::<u32>::zeroed(&device, 64).unwrap();
    assert!(buffer.to_vec().unwrap().iter().all(|&v| v == 0));
    buffer.write_at(10, &[1, 2, 3]).unwrap();
    let mut mid = [0u32; 5];
    buffer.read_at(9, &mut mid).unwrap();
    assert_eq!(mid, [0, 1, 2, 3, 0]);
    // The last element exactly.
    buffer.write_at(63, &[99]).unwrap();
    assert_eq!(buffer.to_vec().unwrap()[63], 99);
}

#[test]
fn out_of_range_copies_are_refused_with_the_numbers() {
    let Some(device) = common::device() else { return };
    let mut buffer = DeviceBuffer::<f64>::new(&device, 8).unwrap();
    let e = buffer.write_at(6, &[0.0; 3]).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    assert!(e.message().contains("[6, 6 + 3)") && e.message().contains("8 elements"), "{e}");
    let e = buffer.read_at(usize::MAX, &mut [0.0; 2]).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE, "{e}");
    let e = buffer.copy_from_slice(&[1.0; 7]).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("8 elements") || e.message().contains("has 8"), "{e}");
    let e = buffer.fill(0.0).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "8-byte elements cannot be filled: {e}");
}

#[test]
fn a_zero_sized_allocation_is_the_library_s_error() {
    let Some(device) = common::device() else { return };
    let e = DeviceBuffer::<u8>::new(&device, 0).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().starts_with("dc_buffer_alloc"), "the library's message: {e}");
}

#[test]
fn buffer_to_buffer_copies_and_fills() {
    let Some(device) = common::device() else { return };
    let src = DeviceBuffer::from_slice(&device, &(0u16..100).collect::<Vec<_>>()).unwrap();
    let mut dst = DeviceBuffer::<u16>::new(&device, 100).unwrap();
    dst.fill(0xBEEF).unwrap();
    assert!(dst.to_vec().unwrap().iter().all(|&v| v == 0xBEEF));
    dst.copy_from_buffer(50, &src, 10, 20).unwrap();
    let v = dst.to_vec().unwrap();
    assert_eq!(&v[50..70], &(10u16..30).collect::<Vec<_>>()[..]);
    assert_eq!(v[49], 0xBEEF);
    assert_eq!(v[70], 0xBEEF);
    dst.copy_from(&src).unwrap();
    assert_eq!(dst.to_vec().unwrap(), src.to_vec().unwrap());
    assert_eq!(dst.copy_path(&src).unwrap(), CopyPath::SameDevice);
    let e = dst.copy_from_buffer(90, &src, 0, 20).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);

    let mut bytes = DeviceBuffer::<u8>::new(&device, 33).unwrap();
    bytes.fill(7).unwrap();
    bytes.fill_range(3, 4, 9).unwrap();
    let b = bytes.to_vec().unwrap();
    assert_eq!(&b[..8], &[7, 7, 7, 9, 9, 9, 9, 7]);
    let mut floats = DeviceBuffer::<f32>::new(&device, 5).unwrap();
    floats.fill(1.5).unwrap();
    assert_eq!(floats.to_vec().unwrap(), vec![1.5; 5]);
}

#[test]
fn async_copies_on_a_stream() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let data = common::random_f32(4096, 3);
    let mut buffer = DeviceBuffer::<f32>::new_async(&stream, data.len()).unwrap();
    buffer.write_at_async(0, &data, &stream).unwrap();
    let mut copy = DeviceBuffer::<f32>::new(&device, data.len()).unwrap();
    copy.copy_from_buffer_async(0, &buffer, 0, data.len(), &stream).unwrap();
    copy.fill_range_async(0, 16, 0.25, &stream).unwrap();
    let mut back = vec![0f32; data.len()];
    copy.read_at_async(0, &mut back, &stream).unwrap();
    stream.synchronize().unwrap();
    assert!(back[..16].iter().all(|&v| v == 0.25));
    assert_eq!(&back[16..], &data[16..]);
}

#[test]
fn pinned_and_managed_memory_are_visible_from_the_host() {
    let Some(device) = common::device() else { return };
    let mut pinned = DeviceBuffer::<i32>::pinned(&device, 16, 0).unwrap();
    assert_eq!(pinned.kind().unwrap(), BufferKind::Pinned);
    pinned.copy_from_slice(&(0..16).collect::<Vec<_>>()).unwrap();
    // No work is enqueued on the memory: reading it on the host is fine.
    let host = unsafe { pinned.host_slice() }.unwrap();
    assert_eq!(host, &(0..16).collect::<Vec<_>>()[..]);
    unsafe { pinned.host_slice_mut() }.unwrap()[0] = 42;
    assert_eq!(pinned.to_vec().unwrap()[0], 42);

    let plain = DeviceBuffer::<i32>::new(&device, 4).unwrap();
    let e = plain.host_pointer().unwrap_err();
    assert_eq!(e.status(), Status::NOT_SUPPORTED, "device memory has no host address: {e}");
    assert_ne!(plain.device_pointer().unwrap(), 0);

    let info = device.info().unwrap();
    if info.managed_memory != 0 {
        let mut managed = DeviceBuffer::<u64>::managed(&device, 8, 0).unwrap();
        assert_eq!(managed.kind().unwrap(), BufferKind::Managed);
        managed.copy_from_slice(&[5; 8]).unwrap();
        device.synchronize().unwrap();
        assert_eq!(unsafe { managed.host_slice() }.unwrap(), &[5; 8]);
    }
}

#[test]
fn registered_host_memory_copies_and_is_given_back() {
    let Some(device) = common::device() else { return };
    let mut host: Vec<u32> = (0..1000).collect();
    let mut dev = DeviceBuffer::<u32>::zeroed(&device, 1000).unwrap();
    {
        let mut registered = RegisteredBuffer::new(&device, &mut host, 0).unwrap();
        assert_eq!(registered.kind().unwrap(), BufferKind::RegisteredHost);
        registered.copy_to_buffer(0, &mut dev, 0, 1000).unwrap();
        let twice: Vec<u32> = (0..1000).map(|v| v * 2).collect();
        let src = DeviceBuffer::from_slice(&device, &twice).unwrap();
        registered.copy_from_buffer(500, &src, 500, 500).unwrap();
        let e = registered.copy_from_buffer(900, &src, 0, 200).unwrap_err();
        assert_eq!(e.status(), Status::OUT_OF_RANGE);
    }
    assert_eq!(dev.to_vec().unwrap(), (0..1000).collect::<Vec<u32>>());
    assert_eq!(host[499], 499);
    assert_eq!(host[500], 1000);
    assert_eq!(host[999], 1998);
}

#[test]
fn a_buffer_knows_its_device() {
    let Some(device) = common::device() else { return };
    let buffer = DeviceBuffer::<u8>::new(&device, 1).unwrap();
    let again = buffer.device().unwrap();
    assert_eq!(again.native().unwrap().0, device.native().unwrap().0);
}

#[test]
fn raw_handles_round_trip() {
    let Some(device) = common::device() else { return };
    let buffer = DeviceBuffer::<u8>::new(&device, 4).unwrap();
    let raw = buffer.into_raw();
    let mut size = 0u64;
    assert_eq!(unsafe { sys::dc_buffer_size(raw, &mut size) }, sys::DC_SUCCESS);
    assert_eq!(size, 4);
    let owned = unsafe { DeviceBuffer::<u8>::from_raw(raw, 4) };
    drop(owned);
    assert_eq!(unsafe { sys::dc_buffer_size(raw, &mut size) }, sys::DC_ERROR_INVALID_HANDLE);
}

#[test]
fn views_are_buffers_over_part_of_their_parent() {
    let Some(device) = common::device() else { return };
    let data: Vec<u32> = (0..100).collect();
    let parent = DeviceBuffer::from_slice(&device, &data).unwrap();
    let mut view = parent.view(10..30).unwrap();
    assert_eq!(view.len(), 20);
    assert_eq!(view.device_pointer().unwrap(), parent.device_pointer().unwrap() + 40);
    assert_eq!(view.to_vec().unwrap(), data[10..30].to_vec());
    view.write_at(19, &[7]).unwrap();
    assert_eq!(parent.to_vec().unwrap()[29], 7);
    // Bounded by the view's own range, although the parent has room.
    let e = view.write_at(19, &[1, 2]).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    let e = parent.view(90..101).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    // The view keeps the memory alive after the parent is dropped.
    drop(parent);
    assert_eq!(view.to_vec().unwrap()[0], 10);
    let inner = view.view_mut(5..6).unwrap();
    assert_eq!(inner.to_vec().unwrap(), vec![15]);
}

#[test]
fn tiles_copy_in_2d_against_the_cpu() {
    let Some(device) = common::device() else { return };
    let (mut m, pitch) = DeviceBuffer::<u32>::pitched(&device, 13, 7).unwrap();
    assert!(pitch >= 13);
    // A 5 x 3 block from host rows 6 apart into m at row 2, column 4.
    let host: Vec<u32> = (0..18).map(|i| i * 7 + 1).collect();
    m.write_2d(2 * pitch + 4, pitch, &host, 6, 5, 3).unwrap();
    let mut other = DeviceBuffer::<u32>::zeroed(&device, 11 * 9).unwrap();
    other.copy_from_2d(11 + 2, 11, &m, 2 * pitch + 4, pitch, 5, 3).unwrap();
    let mut back = vec![0u32; 15];
    other.read_2d(11 + 2, 11, &mut back, 5, 5, 3).unwrap();
    for r in 0..3 {
        for c in 0..5 {
            assert_eq!(back[r * 5 + c], host[r * 6 + c], "element {r},{c}");
        }
    }
    let all = other.to_vec().unwrap();
    assert_eq!(all[11 + 1], 0);
    let e = other.copy_from_2d(8 * 11, 11, &m, 0, pitch, 5, 2).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    assert!(e.to_string().contains("row 1"), "{e}");
}
