//! The CPU cost of dccuda calls made through the Rust binding: a prepared launch enqueued in
//! bursts (an empty kernel and the 4-argument saxpy), the one-shot launch builder, and small
//! synchronous copies. The same calls as the C benchmarks, so the difference is the
//! binding's own cost.
//!
//!     bench_calls [--repeats R] [--burst B] [--copy-bytes N]
//!
//! Each figure is the median over R repeats (after a warm-up) of the mean time per call in a
//! burst of B calls, timed with the host clock; launches are synchronised after each burst,
//! outside the timed part, so bursts stay below the queue depth. One line per figure:
//!
//!     rust <name> <ns per call> ns/call (median of R x B)

use std::time::Instant;

use dccuda::{CompileOptions, Device, DeviceBuffer, KernelArg, Launch, LaunchConfig, Module, Stream};

const SOURCE: &str = r#"
extern "C" __global__ void empty() {}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"#;

struct Options {
    repeats: usize,
    burst: usize,
    copy_bytes: usize,
}

fn options() -> Options {
    let mut o = Options { repeats: 50, burst: 256, copy_bytes: 4096 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<usize>().ok());
        match (args[i].as_str(), value) {
            ("--repeats", Some(v)) if v > 0 => o.repeats = v,
            ("--burst", Some(v)) if v > 0 => o.burst = v,
            ("--copy-bytes", Some(v)) if v > 0 => o.copy_bytes = v,
            _ => {
                eprintln!("usage: bench_calls [--repeats R] [--burst B] [--copy-bytes N]");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    o
}

/// Median over `repeats` of the ns per call of `burst` calls of `call`; `after` runs after
/// each burst, untimed (a synchronisation).
fn measure(o: &Options, mut call: impl FnMut(), mut after: impl FnMut()) -> f64 {
    for _ in 0..o.burst {
        call();
    }
    after();
    let mut samples: Vec<f64> = (0..o.repeats)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..o.burst {
                call();
            }
            let ns = t.elapsed().as_nanos() as f64 / o.burst as f64;
            after();
            ns
        })
        .collect();
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

fn report(o: &Options, name: &str, ns: f64) {
    println!("rust {name:<28} {ns:>10.1} ns/call (median of {} x {})", o.repeats, o.burst);
}

fn main() -> dccuda::Result<()> {
    let o = options();
    let device = Device::open(0)?;
    let info = device.info()?;
    let driver = dccuda::driver_library()?;
    println!("# device 0: {} (sm_{}), driver {driver}, CUDA {}", info.name(), info.arch(), dccuda::driver_version()?);
    if driver.contains("dcfake") {
        println!("# the FAKE driver (a test double): these figures say nothing about a GPU");
    }
    let module = Module::compile_and_load(&device, SOURCE, &CompileOptions::new())?;
    let empty = module.function("empty")?;
    let saxpy = module.function("saxpy")?;
    let stream = Stream::new(&device)?;
    let n = 1024usize;
    let x = DeviceBuffer::from_slice(&device, &vec![1.0f32; n])?;
    let y = DeviceBuffer::from_slice(&device, &vec![2.0f32; n])?;
    let config = LaunchConfig::linear(n as u32, 256);
    let sync = || stream.synchronize().expect("stream synchronize");

    let empty_launch = Launch::new(&empty, &LaunchConfig::new())?;
    report(
        &o,
        "launch_prepared_empty",
        measure(&o, || unsafe { empty_launch.enqueue(&stream) }.expect("enqueue"), sync),
    );

    let mut saxpy_launch = Launch::new(&saxpy, &config)?;
    saxpy_launch.set_args(&[
        KernelArg::value(&1.0f32),
        KernelArg::buffer(&x),
        KernelArg::buffer(&y),
        KernelArg::value(&(n as i32)),
    ])?;
    report(
        &o,
        "launch_prepared_saxpy4",
        measure(&o, || unsafe { saxpy_launch.enqueue(&stream) }.expect("enqueue"), sync),
    );

    report(
        &o,
        "launch_builder_saxpy4",
        measure(
            &o,
            || {
                unsafe { saxpy.launch(&config).arg(&1.0f32).arg(&x).arg(&y).arg(&(n as i32)).launch(&stream) }
                    .expect("launch");
            },
            sync,
        ),
    );

    let bytes = o.copy_bytes;
    let host: Vec<u8> = (0..bytes).map(|i| (i * 31 + 7) as u8).collect();
    let mut back = vec![0u8; bytes];
    let mut dev = DeviceBuffer::<u8>::new(&device, bytes)?;
    report(&o, &format!("copy_h2d_{bytes}B"), measure(&o, || dev.write_at(0, &host).expect("write"), || {}));
    report(&o, &format!("copy_d2h_{bytes}B"), measure(&o, || dev.read_at(0, &mut back).expect("read"), || {}));
    assert_eq!(back, host, "the copies moved the data");

    // The cost of tracking the streams a buffer is used on (one event record per
    // asynchronous use, so that dropping it waits for every stream): the tracked fill
    // against the same call made raw, on the same buffer and stream.
    let mut words = DeviceBuffer::<u32>::new(&device, n)?;
    report(
        &o,
        "fill_async_tracked_4KiB",
        measure(&o, || words.fill_range_async(0, n, 7, &stream).expect("fill"), sync),
    );
    report(
        &o,
        "fill_async_raw_4KiB",
        measure(
            &o,
            || {
                let status = unsafe {
                    dccuda::sys::dc_buffer_fill_async(words.as_raw(), 0, (n * 4) as u64, 7, 4, stream.as_raw())
                };
                assert_eq!(status, dccuda::sys::DC_SUCCESS, "raw fill");
            },
            sync,
        ),
    );
    Ok(())
}
