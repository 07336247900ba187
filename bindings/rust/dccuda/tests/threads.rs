//! Handles cross threads: the library allows every call from any thread.

mod common;

use std::sync::Arc;
use std::thread;

use dccuda::{Device, DeviceBuffer, Event, Function, Graph, Launch, Module, Program, Stream};

fn send_sync<T: Send + Sync>() {}

#[test]
fn every_handle_type_is_send_and_sync() {
    send_sync::<Device>();
    send_sync::<DeviceBuffer<f32>>();
    send_sync::<Stream>();
    send_sync::<Event>();
    send_sync::<Program>();
    send_sync::<Module>();
    send_sync::<Function>();
    send_sync::<Launch>();
    send_sync::<Graph>();
    send_sync::<dccuda::Error>();
}

#[test]
fn handles_move_to_other_threads_and_are_dropped_there() {
    let Some(device) = common::device() else { return };
    let data: Vec<u32> = (0..4096).collect();
    let buffer = DeviceBuffer::from_slice(&device, &data).unwrap();
    let stream = Stream::new(&device).unwrap();
    // Moved into another thread, used and dropped there.
    let back = thread::spawn(move || {
        let mut out = vec![0u32; 4096];
        buffer.read_at_async(0, &mut out, &stream).unwrap();
        stream.synchronize().unwrap();
        out
    })
    .join()
    .unwrap();
    assert_eq!(back, data);
}

#[test]
fn one_device_shared_by_many_threads() {
    let Some(device) = common::device() else { return };
    let device = Arc::new(device);
    let workers: Vec<_> = (0..8u32)
        .map(|t| {
            let device = Arc::clone(&device);
            thread::spawn(move || {
                let stream = Stream::new(&device).unwrap();
                let mut b = DeviceBuffer::<u32>::new(&device, 1000).unwrap();
                for round in 0..20u32 {
                    let v: Vec<u32> = (0..1000).map(|i| i * t + round).collect();
                    b.write_at_async(0, &v, &stream).unwrap();
                    let mut out = vec![0u32; 1000];
                    b.read_at_async(0, &mut out, &stream).unwrap();
                    stream.synchronize().unwrap();
                    assert_eq!(out, v);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
}

#[test]
fn errors_stay_on_their_thread() {
    let Some(device) = common::device() else { return };
    let device = Arc::new(device);
    let d2 = Arc::clone(&device);
    // A failure on another thread does not show up as this thread's error.
    let e = thread::spawn(move || DeviceBuffer::<u8>::new(&d2, 0).unwrap_err()).join().unwrap();
    assert!(e.message().starts_with("dc_buffer_alloc"), "{e}");
    let ok = DeviceBuffer::<u8>::new(&device, 1);
    assert!(ok.is_ok());
    assert_eq!(unsafe { dccuda::sys::dc_last_error_status() }, dccuda::sys::DC_SUCCESS);
}
