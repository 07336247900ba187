//! cuFFT through the binding (the fake cuFFT in CI): a round trip scales by n, wrong element
//! types and short buffers are refused, a released plan is reused.

mod common;

use dccuda::{ComplexF32, ComplexF64, DeviceBuffer, FftDirection, FftKind, FftPlan, FftPrecision, Status, Stream};

fn have_cufft() -> bool {
    match dccuda::cufft_version() {
        Ok(_) => true,
        Err(e) => {
            eprintln!("SKIPPED: no cuFFT ({e})");
            false
        }
    }
}

#[test]
fn a_round_trip_scales_by_n() {
    let Some(device) = common::device() else { return };
    if !have_cufft() {
        return;
    }
    let mut plan = FftPlan::new(&device, FftKind::ComplexToComplex, FftPrecision::Single, &[4, 8], 2).unwrap();
    let stream = Stream::new(&device).unwrap();
    plan.set_stream(Some(&stream)).unwrap();
    let x: Vec<ComplexF32> = (0..64).map(|i| ComplexF32 { re: (i % 5) as f32 - 2.0, im: (i % 3) as f32 }).collect();
    let mut a = DeviceBuffer::from_slice(&device, &x).unwrap();
    let mut b = DeviceBuffer::<ComplexF32>::new(&device, 64).unwrap();
    plan.execute(&a, &mut b, FftDirection::Forward).unwrap();
    plan.execute(&b, &mut a, FftDirection::Inverse).unwrap();
    stream.synchronize().unwrap();
    let mut y = vec![ComplexF32::default(); 64];
    a.copy_to_slice(&mut y).unwrap();
    for (i, (u, v)) in x.iter().zip(&y).enumerate() {
        assert!((v.re - 32.0 * u.re).abs() < 1e-3 && (v.im - 32.0 * u.im).abs() < 1e-3, "element {i}: {v:?}");
    }
    assert_eq!(plan.info().unwrap().input_bytes, 512);
}

#[test]
fn wrong_types_and_short_buffers_are_refused() {
    let Some(device) = common::device() else { return };
    if !have_cufft() {
        return;
    }
    let plan = FftPlan::new(&device, FftKind::RealToComplex, FftPrecision::Double, &[8], 1).unwrap();
    let real = DeviceBuffer::<f64>::new(&device, 8).unwrap();
    let short = DeviceBuffer::<f64>::new(&device, 7).unwrap();
    let mut out = DeviceBuffer::<ComplexF64>::new(&device, 5).unwrap();
    let mut wrong = DeviceBuffer::<ComplexF32>::new(&device, 5).unwrap();
    let e = plan.execute(&real, &mut wrong, FftDirection::Forward).expect_err("single output for a double plan");
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    let e = plan.execute(&short, &mut out, FftDirection::Forward).expect_err("a short input");
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    assert!(e.message().contains("the input needs 64 bytes from in_offset 0, but in holds 56 bytes"), "{}", e.message());
    let e = plan.execute(&real, &mut out, FftDirection::Inverse).expect_err("R2C is forward only");
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    plan.execute(&real, &mut out, FftDirection::Forward).unwrap();
}

#[test]
fn a_released_plan_is_reused() {
    let Some(device) = common::device() else { return };
    if !have_cufft() {
        return;
    }
    FftPlan::trim_cache(&device, 0).unwrap();
    let first = FftPlan::new(&device, FftKind::ComplexToReal, FftPrecision::Single, &[6, 10], 1).unwrap();
    assert!(!first.info().unwrap().reused);
    drop(first);
    let second = FftPlan::new(&device, FftKind::ComplexToReal, FftPrecision::Single, &[6, 10], 1).unwrap();
    assert!(second.info().unwrap().reused);
    drop(second);
    FftPlan::trim_cache(&device, 0).unwrap();
}
