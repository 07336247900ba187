//! Queues and control blocks from Rust: typed messages, full and empty, time limits,
//! batches, counters, the control block's life. No kernel runs here: the queues are
//! checked from the host's side (the kernel's side is tested in C++, test_resident).

mod common;

use std::time::{Duration, Instant};

use dccuda::{sys, Control, ControlState, Direction, Queue, Status, Wait};

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
struct Order {
    id: u64,
    price: f64,
    quantity: u32,
    side: u32,
}
unsafe impl dccuda::Pod for Order {}

#[test]
fn typed_messages_fill_a_queue_and_time_out() {
    let Some(device) = common::device() else { return };
    let q = Queue::<Order>::new(&device, Direction::ToDevice, 4).unwrap();
    let order = Order { id: 1, price: 2.5, quantity: 3, side: 1 };
    for _ in 0..4 {
        assert!(q.try_send(&order).unwrap());
    }
    assert!(!q.try_send(&order).unwrap(), "full");
    let started = Instant::now();
    let e = q.send(&order, Wait::Block, Duration::from_millis(20)).unwrap_err();
    assert_eq!(e.status(), Status::TIMEOUT, "{e}");
    assert!(started.elapsed() >= Duration::from_millis(20));
    let s = q.stats().unwrap();
    assert_eq!(s.slot_size, 32);
    assert_eq!(s.capacity, 4);
    assert_eq!(s.length, 4);
    assert_eq!(s.drops, 2);
    assert_eq!(s.full_waits, 1);
    assert_ne!(q.device_pointer().unwrap(), 0);
    // The host does not receive from a queue it sends on.
    assert_eq!(q.try_receive().unwrap_err().status(), Status::INVALID_ARGUMENT);

    let batch = Queue::<u64>::new(&device, Direction::ToDevice, 8).unwrap();
    assert_eq!(batch.send_batch(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).unwrap(), 8);
    assert_eq!(batch.send_batch(&[11]).unwrap(), 0);

    let incoming = Queue::<Order>::new(&device, Direction::ToHost, 4).unwrap();
    assert_eq!(incoming.try_receive().unwrap(), None);
    let e = incoming.receive(Wait::SpinYield, Duration::from_millis(5)).unwrap_err();
    assert_eq!(e.status(), Status::TIMEOUT, "{e}");
    assert_eq!(Queue::<u8>::new(&device, Direction::ToHost, 3).unwrap_err().status(), Status::INVALID_ARGUMENT);
}

#[test]
fn a_control_block_from_idle_to_reset() {
    let Some(device) = common::device() else { return };
    let c = Control::new(&device).unwrap();
    assert_eq!(c.state().unwrap(), ControlState::Idle);
    assert_eq!(c.check_progress(Duration::from_millis(1)).unwrap_err().status(), Status::INVALID_STATE);
    let e = c.wait_stopped(Wait::Block, Duration::from_millis(2)).unwrap_err();
    assert_eq!(e.status(), Status::TIMEOUT, "{e}");
    c.request_stop().unwrap();
    assert_eq!(c.status().unwrap().stop_requested, 1);
    c.reset().unwrap();
    assert_eq!(c.status().unwrap().stop_requested, 0);
    assert_ne!(c.device_pointer().unwrap(), 0);
    assert_eq!(c.status().unwrap().state, sys::DC_CONTROL_IDLE);
}
