//! Streams, events and host callbacks.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use dccuda::{sys, DefaultStream, DeviceBuffer, Event, Status, Stream};

#[test]
fn streams_and_events_order_work() {
    let Some(device) = common::device() else { return };
    let a = Stream::new(&device).unwrap();
    let b = Stream::with_options(&device, sys::DC_STREAM_BLOCKING, 0).unwrap();
    let (least, greatest) = device.stream_priority_range().unwrap();
    assert!(greatest <= least, "greatest priority is numerically lowest: {greatest} {least}");
    let _high = Stream::with_options(&device, 0, greatest).unwrap();

    let data = common::random_f32(1 << 16, 11);
    let mut x = DeviceBuffer::<f32>::new(&device, data.len()).unwrap();
    let mut y = DeviceBuffer::<f32>::new(&device, data.len()).unwrap();
    let start = Event::new(&device).unwrap();
    let done = Event::new(&device).unwrap();
    start.record(&a).unwrap();
    x.write_at_async(0, &data, &a).unwrap();
    done.record(&a).unwrap();
    b.wait_event(&done).unwrap();
    y.copy_from_buffer_async(0, &x, 0, data.len(), &b).unwrap();
    b.synchronize().unwrap();
    assert!(b.query().unwrap());
    done.synchronize().unwrap();
    assert!(done.query().unwrap());
    let ms = Event::elapsed_ms(&start, &done).unwrap();
    assert!(ms >= 0.0, "{ms}");
    assert_eq!(y.to_vec().unwrap(), data);
    assert!(!a.native().unwrap().is_null());
    assert!(!start.native().unwrap().is_null());
}

#[test]
fn timing_needs_timing_events() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let e1 = Event::with_flags(&device, sys::DC_EVENT_DISABLE_TIMING).unwrap();
    let e2 = Event::with_flags(&device, sys::DC_EVENT_DISABLE_TIMING).unwrap();
    e1.record(&stream).unwrap();
    e2.record(&stream).unwrap();
    stream.synchronize().unwrap();
    let e = Event::elapsed_ms(&e1, &e2).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e}");
    assert!(e.message().contains("dc_event_elapsed_ms"), "{e}");
}

#[test]
fn default_streams_work_and_know_their_device() {
    let Some(device) = common::device() else { return };
    for which in [DefaultStream::Legacy, DefaultStream::PerThread] {
        let s = Stream::default_stream(&device, which).unwrap();
        s.synchronize().unwrap();
        let d = s.device().unwrap();
        assert_eq!(d.native().unwrap().0, device.native().unwrap().0);
    }
}

#[test]
fn a_callback_runs_after_earlier_work_and_once() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let mut buffer = DeviceBuffer::<u32>::new(&device, 256).unwrap();
    buffer.fill_range_async(0, 256, 5, &stream).unwrap();
    let (tx, rx) = mpsc::channel();
    let owned = String::from("abc"); // moved into the callback, dropped when it ran
    stream
        .add_callback(move || {
            tx.send(owned.len()).unwrap();
        })
        .unwrap();
    stream.synchronize().unwrap();
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), 3);
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err(), "runs exactly once");
    assert!(buffer.to_vec().unwrap().iter().all(|&v| v == 5));
}
