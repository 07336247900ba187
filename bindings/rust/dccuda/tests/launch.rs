//! Kernel launches (one-shot builder, packed, prepared), occupancy and graphs. On the fake
//! driver the kernels are emulated by name; on a GPU they run. Results are checked against
//! a CPU reference either way.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dccuda::{CaptureMode, DeviceBuffer, Function, KernelArg, Launch, LaunchConfig, Module, Status, Stream};

struct Saxpy {
    device: dccuda::Device,
    // The function keeps the module alive; the module is kept too, to test both orders.
    _module: Module,
    f: Function,
}

fn saxpy() -> Option<Saxpy> {
    let device = common::device()?;
    if let Err(e) = dccuda::nvrtc_version() {
        eprintln!("SKIPPED: no NVRTC ({e})");
        return None;
    }
    let module = Module::compile_and_load(&device, common::SAXPY, &dccuda::CompileOptions::new()).unwrap();
    let f = module.function("saxpy").unwrap();
    Some(Saxpy { device, _module: module, f })
}

fn reference(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| a * x + y).collect()
}

fn assert_close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-5 * w.abs().max(1.0), "element {i}: {g} != {w}");
    }
}

#[test]
fn saxpy_through_the_launch_builder() {
    let Some(s) = saxpy() else { return };
    let n = 100_003usize; // not a multiple of the block size: the tail is guarded
    let (x, y) = (common::random_f32(n, 1), common::random_f32(n, 2));
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let dy = DeviceBuffer::from_slice(&s.device, &y).unwrap();
    let stream = Stream::new(&s.device).unwrap();
    let a = 2.5f32;
    unsafe {
        s.f.launch(&LaunchConfig::linear(n as u32, 256)).arg(&a).arg(&dx).arg(&dy).arg(&(n as i32)).launch(&stream)
    }
    .unwrap();
    stream.synchronize().unwrap();
    assert_close(&dy.to_vec().unwrap(), &reference(a, &x, &y));
}

#[test]
fn buffer_offsets_and_the_occupancy_config() {
    let Some(s) = saxpy() else { return };
    let n = 5000usize;
    let (x, y) = (common::random_f32(n, 3), common::random_f32(n, 4));
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let dy = DeviceBuffer::from_slice(&s.device, &y).unwrap();
    let stream = Stream::new(&s.device).unwrap();
    let half = n / 2;
    let config = s.f.config_1d((n - half) as u64, 0).unwrap();
    let [gx, _, _] = config.grid_dim();
    let [bx, _, _] = config.block_dim();
    assert!((gx as usize) * (bx as usize) >= n - half, "config_1d covers n: {gx} x {bx}");
    // The second half only: both pointers start at element `half`.
    unsafe {
        s.f.launch(&config)
            .args([
                KernelArg::value(&-1.0f32),
                KernelArg::buffer_at(&dx, half),
                KernelArg::buffer_at(&dy, half),
                KernelArg::value(&((n - half) as i32)),
            ])
            .launch(&stream)
    }
    .unwrap();
    stream.synchronize().unwrap();
    let got = dy.to_vec().unwrap();
    assert_eq!(&got[..half], &y[..half]);
    assert_close(&got[half..], &reference(-1.0, &x[half..], &y[half..]));

    let blocks = s.f.max_active_blocks(bx as i32, 0).unwrap();
    assert!(blocks >= 1);
    let (min_grid, block) = s.f.max_potential_block_size(0, 0).unwrap();
    assert!(min_grid >= 1 && block >= 32, "{min_grid} {block}");
    let calls = AtomicUsize::new(0);
    let (_, block_with) =
        s.f.max_potential_block_size_with(
            |b| {
                calls.fetch_add(1, Ordering::Relaxed);
                assert!(b > 0);
                0
            },
            256,
        )
        .unwrap();
    assert!((32..=256).contains(&block_with), "{block_with}");
    assert!(calls.load(Ordering::Relaxed) > 0, "the shared memory function was asked");
    s.f.available_dynamic_shared(1, 128).unwrap();
}

#[test]
fn wrong_arguments_are_refused_with_the_parameter_named() {
    let Some(s) = saxpy() else { return };
    let d = DeviceBuffer::<f32>::new(&s.device, 16).unwrap();
    let stream = Stream::new(&s.device).unwrap();
    let config = LaunchConfig::linear(16, 16);
    // A double where the kernel takes a float (parameter 0).
    let e = unsafe { s.f.launch(&config).arg(&1.0f64).arg(&d).arg(&d).arg(&16i32).launch(&stream) }.unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("saxpy") && e.message().contains("parameter"), "{e}");
    // One argument short.
    let e = unsafe { s.f.launch(&config).arg(&1.0f32).arg(&d).arg(&d).launch(&stream) }.unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e}");
    // A block larger than any device allows.
    let e = unsafe {
        s.f.launch(&LaunchConfig::new().block(1 << 20)).arg(&1.0f32).arg(&d).arg(&d).arg(&16i32).launch(&stream)
    };
    assert!(e.is_err());
}

#[test]
fn a_prepared_launch_runs_many_times_and_rebinds() {
    let Some(s) = saxpy() else { return };
    let n = 4096usize;
    let x = common::random_f32(n, 5);
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let mut dy = DeviceBuffer::<f32>::zeroed(&s.device, n).unwrap();
    let stream = Stream::new(&s.device).unwrap();
    let mut launch = Launch::new(&s.f, &LaunchConfig::linear(n as u32, 128)).unwrap();
    // Not every argument bound yet.
    let e = unsafe { launch.enqueue(&stream) }.unwrap_err();
    assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
    launch
        .set_args(&[
            KernelArg::value(&1.0f32),
            KernelArg::buffer(&dx),
            KernelArg::buffer(&dy),
            KernelArg::value(&(n as i32)),
        ])
        .unwrap();
    for _ in 0..3 {
        unsafe { launch.enqueue(&stream) }.unwrap();
    }
    stream.synchronize().unwrap();
    let want: Vec<f32> = x.iter().map(|v| 3.0 * v).collect();
    assert_close(&dy.to_vec().unwrap(), &want);

    // Rebinding one value; the bound value was copied, so changing the variable afterwards
    // does nothing.
    let mut a = 0.5f32;
    launch.set_arg(0, &a).unwrap();
    a = 100.0;
    let _ = a;
    dy.fill(0.0).unwrap();
    unsafe { launch.enqueue(&stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_close(&dy.to_vec().unwrap(), &x.iter().map(|v| 0.5 * v).collect::<Vec<_>>());

    let e = launch.set_arg(1, &7i32).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "an int where a pointer goes: {e}");
    let e = launch.set_arg(9, &7i32).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE, "{e}");
    launch.set_config(&LaunchConfig::linear(n as u32, 64)).unwrap();
    unsafe { launch.enqueue(&stream) }.unwrap();
    stream.synchronize().unwrap();
}

#[test]
fn prepared_launches_enqueue_in_one_batch() {
    let Some(s) = saxpy() else { return };
    let n = 2048usize;
    let x = common::random_f32(n, 7);
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let dy = DeviceBuffer::<f32>::zeroed(&s.device, n).unwrap();
    let stream = Stream::new(&s.device).unwrap();
    let mut launch = Launch::new(&s.f, &LaunchConfig::linear(n as u32, 128)).unwrap();
    let unbound = Launch::new(&s.f, &LaunchConfig::linear(n as u32, 128)).unwrap();
    launch
        .set_args(&[
            KernelArg::value(&2.0f32),
            KernelArg::buffer(&dx),
            KernelArg::buffer(&dy),
            KernelArg::value(&(n as i32)),
        ])
        .unwrap();
    // An unbound launch at index 1 refuses the whole batch: nothing runs.
    let e = unsafe { Launch::enqueue_batch(&[&launch, &unbound, &launch], &stream) }.unwrap_err();
    assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
    assert!(e.to_string().contains("launches[1]"), "{e}");
    stream.synchronize().unwrap();
    assert_close(&dy.to_vec().unwrap(), &vec![0.0; n]);
    // The same launch twice in one batch, and an empty batch.
    unsafe { Launch::enqueue_batch(&[&launch, &launch], &stream) }.unwrap();
    unsafe { Launch::enqueue_batch(&[], &stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_close(&dy.to_vec().unwrap(), &x.iter().map(|v| 4.0 * v).collect::<Vec<_>>());
}

#[test]
fn a_prepared_launch_keeps_its_buffers_alive() {
    let Some(s) = saxpy() else { return };
    let n = 64usize;
    let dy = DeviceBuffer::from_slice(&s.device, &vec![1.0f32; n]).unwrap();
    let mut launch = Launch::new(&s.f, &LaunchConfig::linear(n as u32, 64)).unwrap();
    {
        let dx = DeviceBuffer::from_slice(&s.device, &vec![2.0f32; n]).unwrap();
        launch
            .set_args(&[
                KernelArg::value(&1.0f32),
                KernelArg::buffer(&dx),
                KernelArg::buffer(&dy),
                KernelArg::value(&(n as i32)),
            ])
            .unwrap();
    } // dx's handle is released; the launch still holds the buffer
    let stream = Stream::new(&s.device).unwrap();
    unsafe { launch.enqueue(&stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_eq!(dy.to_vec().unwrap(), vec![3.0f32; n]);
}

#[test]
fn a_packed_launch() {
    let Some(s) = saxpy() else { return };
    let n = 300usize;
    let (x, y) = (common::random_f32(n, 8), common::random_f32(n, 9));
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let dy = DeviceBuffer::from_slice(&s.device, &y).unwrap();
    // float a @0, const float* x @8, float* y @16, int n @24: 28 bytes.
    let mut params = [0u8; 28];
    params[0..4].copy_from_slice(&2.0f32.to_ne_bytes());
    params[8..16].copy_from_slice(&dx.device_pointer().unwrap().to_ne_bytes());
    params[16..24].copy_from_slice(&dy.device_pointer().unwrap().to_ne_bytes());
    params[24..28].copy_from_slice(&(n as i32).to_ne_bytes());
    let stream = Stream::new(&s.device).unwrap();
    unsafe { s.f.launch_packed(&LaunchConfig::linear(n as u32, 128), &params, &stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_close(&dy.to_vec().unwrap(), &reference(2.0, &x, &y));
    let e = unsafe { s.f.launch_packed(&LaunchConfig::linear(n as u32, 128), &params[..20], &stream) }.unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e}");
}

#[test]
fn a_captured_graph_replays_kernels_copies_and_host_nodes() {
    let Some(s) = saxpy() else { return };
    let n = 2048usize;
    let x = common::random_f32(n, 10);
    let dx = DeviceBuffer::from_slice(&s.device, &x).unwrap();
    let dy = DeviceBuffer::<f32>::zeroed(&s.device, n).unwrap();
    let mut copy = DeviceBuffer::<f32>::zeroed(&s.device, n).unwrap();
    let mut stream = Stream::new(&s.device).unwrap();
    assert!(!stream.is_capturing().unwrap());
    let runs = Arc::new(AtomicUsize::new(0));
    let graph = {
        // SAFETY: the buffers outlive every launch of the graph.
        let mut capture = unsafe { stream.begin_capture(CaptureMode::ThreadLocal) }.unwrap();
        assert!(capture.is_capturing().unwrap());
        unsafe {
            s.f.launch(&LaunchConfig::linear(n as u32, 256))
                .arg(&1.0f32)
                .arg(&dx)
                .arg(&dy)
                .arg(&(n as i32))
                .launch(&capture)
        }
        .unwrap();
        copy.copy_from_buffer_async(0, &dy, 0, n, &capture).unwrap();
        let counter = runs.clone();
        capture
            .add_callback(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        capture.end().unwrap()
    };
    assert!(!stream.is_capturing().unwrap());
    assert_eq!(graph.node_count().unwrap(), 3, "a kernel node, a copy node and a host node");
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing runs while capturing");
    assert!(dy.to_vec().unwrap().iter().all(|&v| v == 0.0), "nothing ran while capturing");
    graph.instantiate().unwrap();
    graph.upload(&stream).unwrap();
    for _ in 0..4 {
        graph.launch(&stream).unwrap();
    }
    stream.synchronize().unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 4, "the host node runs on every launch");
    assert_close(&dy.to_vec().unwrap(), &x.iter().map(|v| 4.0 * v).collect::<Vec<_>>());
    assert_eq!(copy.to_vec().unwrap(), dy.to_vec().unwrap(), "the copy node ran after the kernel");

    // Update from a capture of the same work with another scale factor.
    let mut graph = graph;
    let source = {
        // SAFETY: the buffers outlive every launch of the graph.
        let mut capture = unsafe { stream.begin_capture(CaptureMode::ThreadLocal) }.unwrap();
        unsafe {
            s.f.launch(&LaunchConfig::linear(n as u32, 256))
                .arg(&-1.0f32)
                .arg(&dx)
                .arg(&dy)
                .arg(&(n as i32))
                .launch(&capture)
        }
        .unwrap();
        copy.copy_from_buffer_async(0, &dy, 0, n, &capture).unwrap();
        let counter = runs.clone();
        capture
            .add_callback(move || {
                counter.fetch_add(10, Ordering::SeqCst);
            })
            .unwrap();
        capture.end().unwrap()
    };
    graph.update(&source).unwrap();
    drop(source); // the updated graph keeps source's host function
    graph.launch(&stream).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 14);
    assert_close(&dy.to_vec().unwrap(), &x.iter().map(|v| 3.0 * v).collect::<Vec<_>>());
}

#[test]
fn capture_misuse_is_a_clean_error() {
    let Some(s) = saxpy() else { return };
    let mut stream = Stream::new(&s.device).unwrap();
    // Ending a capture that never began (through the raw API: the safe one cannot).
    let mut g = std::ptr::null_mut();
    let status = unsafe { dccuda::sys::dc_stream_end_capture(stream.as_raw(), &mut g) };
    assert_eq!(status, dccuda::sys::DC_ERROR_INVALID_STATE);
    assert!(g.is_null());
    // A capture dropped without end() is ended and discarded.
    {
        let _capture = unsafe { stream.begin_capture(CaptureMode::Global) }.unwrap();
    }
    assert!(!stream.is_capturing().unwrap());
    // Copies with host slices are refused while capturing (the graph would replay them
    // into memory Rust may have freed); the capture goes on.
    let mut buffer = DeviceBuffer::<u32>::zeroed(&s.device, 4).unwrap();
    let mut host = [1u32, 2, 3, 4];
    {
        let capture = unsafe { stream.begin_capture(CaptureMode::ThreadLocal) }.unwrap();
        let e = buffer.write_at_async(0, &host, &capture).unwrap_err();
        assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
        assert!(e.message().contains("capturing"), "{e}");
        let e = buffer.read_at_async(0, &mut host, &capture).unwrap_err();
        assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
        let graph = capture.end().unwrap();
        assert_eq!(graph.node_count().unwrap(), 0);
    }
    assert_eq!(buffer.to_vec().unwrap(), [0; 4]);
    // Synchronising a capturing stream invalidates the capture: end() reports it.
    let capture = unsafe { stream.begin_capture(CaptureMode::Relaxed) }.unwrap();
    let _ = capture.synchronize();
    assert!(capture.end().is_err());
    assert!(!stream.is_capturing().unwrap());
}

#[test]
fn a_module_compiled_on_one_thread_launches_from_another() {
    let Some(device) = common::device() else { return };
    if dccuda::nvrtc_version().is_err() {
        eprintln!("SKIPPED: no NVRTC");
        return;
    }
    let module = Module::compile_and_load(&device, common::SAXPY, &dccuda::CompileOptions::new()).unwrap();
    let f = Arc::new(module.function("saxpy").unwrap());
    let device = Arc::new(device);
    let workers: Vec<_> = (0..4)
        .map(|t| {
            let (f, device) = (Arc::clone(&f), Arc::clone(&device));
            std::thread::spawn(move || {
                let n = 1000usize;
                let x = DeviceBuffer::from_slice(&device, &vec![t as f32; n]).unwrap();
                let y = DeviceBuffer::from_slice(&device, &vec![1.0f32; n]).unwrap();
                let stream = Stream::new(&device).unwrap();
                let mut launch = Launch::new(&f, &dccuda::LaunchConfig::linear(n as u32, 128)).unwrap();
                launch.set_arg(0, &2.0f32).unwrap();
                launch.set_arg(1, &x).unwrap();
                launch.set_arg(2, &y).unwrap();
                launch.set_arg(3, &(n as i32)).unwrap();
                unsafe { launch.enqueue(&stream) }.unwrap();
                stream.synchronize().unwrap();
                assert_eq!(y.to_vec().unwrap(), vec![2.0 * t as f32 + 1.0; n]);
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
}
