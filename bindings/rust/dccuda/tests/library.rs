//! Context-independent libraries: one image loaded once, its saxpy got on every device and
//! launched there, checked against a CPU reference (the fake driver emulates saxpy by name).

mod common;

use dccuda::{Device, DeviceBuffer, Library, Status, Stream};

#[test]
fn one_library_serves_every_device() {
    let Some(_device) = common::device() else { return };
    if let Err(e) = dccuda::nvrtc_version() {
        eprintln!("SKIPPED: no NVRTC ({e})");
        return;
    }
    // PTX: the same image runs on every device whatever its architecture.
    let options = dccuda::CompileOptions::new().output(dccuda::Output::Ptx);
    let program = dccuda::Program::compile(common::SAXPY, &options, None).unwrap();
    let library = Library::load(program.output().unwrap().1, None).unwrap();
    assert!(library.function_names().unwrap().iter().any(|n| n == "saxpy"));
    let err = library.function(&_device, "no_such_kernel").expect_err("a missing kernel is an error");
    assert_eq!(err.status(), Status::NOT_FOUND);
    let n = 4099usize;
    let (x, y) = (common::random_f32(n, 5), common::random_f32(n, 6));
    for ordinal in 0..Device::count().unwrap() {
        let device = Device::open(ordinal).unwrap();
        let f = library.function(&device, "saxpy").unwrap();
        let dx = DeviceBuffer::from_slice(&device, &x).unwrap();
        let dy = DeviceBuffer::from_slice(&device, &y).unwrap();
        let stream = Stream::new(&device).unwrap();
        let a = 1.5f32 + ordinal as f32;
        unsafe {
            f.launch(&f.config_1d(n as u64, 0).unwrap()).arg(&a).arg(&dx).arg(&dy).arg(&(n as i32)).launch(&stream)
        }
        .unwrap();
        stream.synchronize().unwrap();
        let got = dy.to_vec().unwrap();
        for i in 0..n {
            let want = a * x[i] + y[i];
            assert!((got[i] - want).abs() <= 1e-5 * want.abs().max(1.0), "device {ordinal}, element {i}");
        }
    }
}
