//! saxpy through the Rust binding: compile CUDA C++ with NVRTC, copy in, launch, copy out,
//! check against the CPU. Exit status 0 only when every element is right.
//!
//!     cargo run --example saxpy [-- N]
//!
//! It runs on whatever driver libdccuda loads: the real one on a GPU machine, the fake
//! driver when DCCUDA_DRIVER_LIBRARY names it (then it says so: that is not a GPU run).

use std::process::ExitCode;

use dccuda::{CompileOptions, Device, DeviceBuffer, Module, Stream};

const SOURCE: &str = r#"
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"#;

fn run(n: usize) -> dccuda::Result<usize> {
    let device = Device::open(0)?;
    let info = device.info()?;
    let (major, minor) = info.compute_capability();
    let driver = dccuda::driver_library()?;
    println!("device 0: {} (sm_{major}{minor}), driver {driver}", info.name());
    if driver.contains("dcfake") {
        println!("note: the FAKE driver (a test double): this is not a GPU run");
    }

    let module = Module::compile_and_load(&device, SOURCE, &CompileOptions::new().name("saxpy.cu"))?;
    let saxpy = module.function("saxpy")?;

    // Deterministic, non-trivial data.
    let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 / 100.0 - 5.0).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104729) % 1000) as f32 / 250.0).collect();
    let a = 2.0f32;
    let dx = DeviceBuffer::from_slice(&device, &x)?;
    let dy = DeviceBuffer::from_slice(&device, &y)?;

    let stream = Stream::new(&device)?;
    let config = saxpy.config_1d(n as u64, 0)?;
    unsafe { saxpy.launch(&config).arg(&a).arg(&dx).arg(&dy).arg(&(n as i32)).launch(&stream) }?;
    stream.synchronize()?;
    let out = dy.to_vec()?;

    let wrong = out
        .iter()
        .zip(x.iter().zip(&y))
        .filter(|(got, (x, y))| (**got - (a * **x + **y)).abs() > 1e-5 * (a * **x + **y).abs().max(1.0))
        .count();
    println!(
        "saxpy: n = {n}, grid {:?} x block {:?}, y[0] = {} (want {}), y[n-1] = {} (want {})",
        config.grid_dim(),
        config.block_dim(),
        out[0],
        a * x[0] + y[0],
        out[n - 1],
        a * x[n - 1] + y[n - 1]
    );
    Ok(wrong)
}

fn main() -> ExitCode {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    if n == 0 {
        eprintln!("usage: saxpy [N > 0]");
        return ExitCode::from(2);
    }
    match run(n) {
        Ok(0) => {
            println!("saxpy (Rust): PASS");
            ExitCode::SUCCESS
        }
        Ok(wrong) => {
            println!("saxpy (Rust): FAIL, {wrong} of {n} elements wrong");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("saxpy (Rust): FAIL: {e:#}");
            ExitCode::FAILURE
        }
    }
}
