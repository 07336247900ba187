//! Stream memory operations (values written and waited for in stream order, one at a time and
//! batched), the device's limits and cache preference, and a batch received from a queue that
//! is empty (no kernel runs here). Values are read back on the host after each step.

mod common;

use dccuda::{sys, Compare, DeviceBuffer, Direction, Limit, MemOp, Queue, Status, Stream};

#[test]
fn values_are_written_in_stream_order_and_batches_are_checked_whole() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    // Stream memory operations take device memory from cuMemAlloc (DC_ALLOC_NO_POOL): the
    // driver refuses memory of the stream-ordered pool.
    let zeroed = || {
        let mut buffer = DeviceBuffer::<u64>::with_flags(&device, 8, sys::DC_ALLOC_NO_POOL).unwrap();
        buffer.copy_from_slice(&[0; 8]).unwrap();
        buffer
    };
    let mut a = zeroed();
    let mut b = zeroed();
    stream.write_value32(&mut a, 4, 0xabcd_1234, 0).unwrap();
    stream.write_value64(&mut a, 8, 0x1122_3344_5566_7788, sys::DC_VALUE_NO_MEMORY_BARRIER).unwrap();
    // Waits whose values are already there never hold the stream.
    stream.wait_value32(&a, 4, 0xabcd_1234, Compare::Equal, 0).unwrap();
    stream.wait_value64(&a, 8, 0x1122_3344_5566_7700, Compare::GreaterOrEqual, 0).unwrap();
    stream
        .batch_mem_ops(&[
            MemOp::wait32(&a, 4, 0x4, Compare::And, 0),
            MemOp::write32(&mut b, 16, 77, 0),
        ])
        .unwrap();
    stream
        .batch_mem_ops(&[MemOp::wait64(&a, 8, 0, Compare::Nor, 0), MemOp::write64(&mut b, 24, 0xffff_0000_ffff, 0)])
        .unwrap();
    stream.synchronize().unwrap();
    let got = a.to_vec().unwrap();
    assert_eq!(got[0], 0xabcd_1234u64 << 32);
    assert_eq!(got[1], 0x1122_3344_5566_7788);
    let got = b.to_vec().unwrap();
    assert_eq!(got[2], 77);
    assert_eq!(got[3], 0xffff_0000_ffff);

    let e = stream.write_value32(&mut a, 2, 1, 0).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e}");
    assert!(e.message().contains("offset"), "{}", e.message());
    let e = stream.wait_value32(&a, 64, 1, Compare::Equal, 0).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE, "{e}");
    assert_eq!(stream.batch_mem_ops(&[]).unwrap_err().status(), Status::INVALID_ARGUMENT);
    let e = stream.batch_mem_ops(&[MemOp::write32(&mut b, 32, 5, 0), MemOp::wait32(&a, 34, 5, Compare::Equal, 0)]).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e}");
    assert!(e.message().contains('1'), "names the operation: {}", e.message());
    stream.synchronize().unwrap();
    assert_eq!(b.to_vec().unwrap()[4], 0, "nothing of a refused batch ran");
}

#[test]
fn device_limits_and_the_cache_preference_are_set_and_read_back() {
    let Some(device) = common::device() else { return };
    device.set_limit(Limit::MallocHeapSize, 64 << 20).unwrap();
    assert!(device.limit(Limit::MallocHeapSize).unwrap() >= 64 << 20);
    device.set_limit(Limit::PrintfFifoSize, 2 << 20).unwrap();
    assert!(device.limit(Limit::PrintfFifoSize).unwrap() >= 2 << 20);
    assert!(device.limit(Limit::StackSize).unwrap() > 0);
    assert_eq!(device.cache_config().unwrap(), sys::DC_CACHE_PREFER_NONE);
    device.set_cache_config(sys::DC_CACHE_PREFER_L1).unwrap();
    // A device with a fixed L1/shared split may keep its own answer; the fake keeps the value.
    if dccuda::driver_library().is_ok_and(|path| path.contains("dcfake")) {
        assert_eq!(device.cache_config().unwrap(), sys::DC_CACHE_PREFER_L1);
    }
    device.set_cache_config(sys::DC_CACHE_PREFER_NONE).unwrap();
    assert_eq!(device.set_cache_config(9).unwrap_err().status(), Status::INVALID_ARGUMENT);
}

#[test]
fn a_batch_from_an_empty_queue_is_empty_and_a_sending_queue_refuses_it() {
    let Some(device) = common::device() else { return };
    let incoming = Queue::<u64>::new(&device, Direction::ToHost, 4).unwrap();
    assert!(incoming.receive_batch(4).unwrap().is_empty());
    let outgoing = Queue::<u64>::new(&device, Direction::ToDevice, 4).unwrap();
    assert_eq!(outgoing.receive_batch(4).unwrap_err().status(), Status::INVALID_ARGUMENT);
}
