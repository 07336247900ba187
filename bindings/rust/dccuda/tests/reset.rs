//! dc_device_reset through the safe API, alone in its process (the reset kills every object
//! made on the device before it, which would break tests running beside it).

mod common;

use dccuda::{DeviceBuffer, Status, Stream};

#[test]
fn objects_made_before_a_reset_are_dead_and_new_ones_work() {
    let Some(device) = common::device() else { return };
    let buffer = DeviceBuffer::from_slice(&device, &[1u8, 2, 3]).unwrap();
    let stream = Stream::new(&device).unwrap();
    // SAFETY: nothing else in this process uses the device now.
    unsafe { device.reset() }.unwrap();
    let e = buffer.to_vec().unwrap_err();
    assert_eq!(e.status(), Status::CONTEXT_LOST, "{e:#}");
    assert!(e.message().contains("dc_device_reset"), "says why: {e}");
    assert_eq!(stream.synchronize().unwrap_err().status(), Status::CONTEXT_LOST);
    drop((buffer, stream)); // released as usual
    let fresh = DeviceBuffer::from_slice(&device, &[4u8, 5]).unwrap();
    assert_eq!(fresh.to_vec().unwrap(), [4, 5]);
}
