//! Shared by the integration tests. They run against whatever driver the library loads:
//! the fake driver in CI (DCCUDA_DRIVER_LIBRARY=<build>/tests/libdcfake_cuda.so), a real
//! GPU on a GPU machine. Nothing here depends on fake-specific values.
#![allow(dead_code)]

use dccuda::{Device, Status};

pub const SAXPY: &str = r#"
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"#;

/// A line saying which driver the tests ran on, printed once per test binary (a run on
/// the fake driver is never a GPU run).
pub fn describe_driver() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| match dccuda::driver_library() {
        Ok(path) if path.contains("dcfake") => eprintln!("driver: the FAKE driver ({path}; test double, no GPU)"),
        Ok(path) => {
            eprintln!("driver: {path}, CUDA {:?}, {} device(s)", dccuda::driver_version(), Device::count().unwrap_or(0))
        }
        Err(e) => eprintln!("driver: none ({e})"),
    });
}

/// Device 0, or None (with a SKIPPED line) when there is no driver or device.
pub fn device() -> Option<Device> {
    describe_driver();
    match Device::count() {
        Ok(n) if n > 0 => Some(Device::open(0).expect("device 0 opens")),
        Ok(_) => {
            eprintln!("SKIPPED: no CUDA device (real or fake)");
            None
        }
        Err(e) => {
            assert!(e.status() == Status::NO_DRIVER, "unexpected error: {e:#}");
            eprintln!("SKIPPED: no driver ({e})");
            None
        }
    }
}

/// Fills with pseudo-random values (a fixed LCG: no crates, reproducible).
pub fn random_f32(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        })
        .collect()
}
