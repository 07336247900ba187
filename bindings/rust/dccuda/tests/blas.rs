//! cuBLAS through the safe API: GEMM of f32 and f64 against a CPU reference, the level-1/2
//! calls, and a matrix past its buffer refused naming it. In CI on the fake driver and the
//! fake cuBLAS (DCCUDA_CUBLAS_LIBRARY); skipped where no cuBLAS is found.
mod common;

use dccuda::{Blas, BlasOp, DeviceBuffer, Matrix, Status, Stream};

fn blas_or_skip(device: &dccuda::Device, stream: Option<&Stream>) -> Option<Blas> {
    match Blas::new(device, stream) {
        Ok(b) => Some(b),
        Err(e) if e.status() == Status::NOT_SUPPORTED => {
            eprintln!("SKIPPED: no cuBLAS: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn gemm_matches_the_reference() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let Some(blas) = blas_or_skip(&device, Some(&stream)) else { return };
    let (m, n, k) = (5usize, 3usize, 4usize);
    let a: Vec<f64> = (0..m * k).map(|i| ((i * 7 % 17) as f64 - 8.0) / 8.0).collect();
    let b: Vec<f64> = (0..k * n).map(|i| ((i * 5 % 13) as f64 - 6.0) / 8.0).collect();
    let mut want = vec![0.0; m * n];
    for j in 0..n {
        for i in 0..m {
            want[i + j * m] = 2.0 * (0..k).map(|p| a[i + p * m] * b[p + j * k]).sum::<f64>();
        }
    }
    let mut da = DeviceBuffer::<f64>::new(&device, m * k).unwrap();
    let mut db = DeviceBuffer::<f64>::new(&device, k * n).unwrap();
    let dc = DeviceBuffer::<f64>::new(&device, m * n).unwrap();
    da.copy_from_slice(&a).unwrap();
    db.copy_from_slice(&b).unwrap();
    blas.gemm(
        BlasOp::N,
        BlasOp::N,
        m as i64,
        n as i64,
        k as i64,
        2.0,
        Matrix { buffer: &da, ld: m as i64 },
        Matrix { buffer: &db, ld: k as i64 },
        0.0,
        Matrix { buffer: &dc, ld: m as i64 },
        None,
    )
    .unwrap();
    stream.synchronize().unwrap();
    let got = dc.to_vec().unwrap();
    for i in 0..m * n {
        assert!((got[i] - want[i]).abs() < 1e-12, "C[{i}] = {} vs {}", got[i], want[i]);
    }
    // B one column short: refused before cuBLAS, naming B.
    let short = DeviceBuffer::<f64>::new(&device, k * n - 1).unwrap();
    let e = blas
        .gemm(
            BlasOp::N,
            BlasOp::N,
            m as i64,
            n as i64,
            k as i64,
            1.0,
            Matrix { buffer: &da, ld: m as i64 },
            Matrix { buffer: &short, ld: k as i64 },
            0.0,
            Matrix { buffer: &dc, ld: m as i64 },
            None,
        )
        .unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    assert!(e.message().contains("B (desc->b_buffer)"), "{e}");
}

#[test]
fn level_one_and_two() {
    let Some(device) = common::device() else { return };
    let Some(blas) = blas_or_skip(&device, None) else { return };
    let mut x = DeviceBuffer::<f32>::new(&device, 4).unwrap();
    let mut y = DeviceBuffer::<f32>::new(&device, 4).unwrap();
    x.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    y.copy_from_slice(&[1.0; 4]).unwrap();
    assert_eq!(blas.dot(4, &x, 1, &y, 1).unwrap(), 10.0);
    assert!((blas.nrm2(4, &x, 1).unwrap() - 30f64.sqrt()).abs() < 1e-6);
    blas.axpy(4, 2.0, &x, 1, &mut y, 1).unwrap();
    blas.scal(4, 0.5, &mut y, 1).unwrap();
    device.synchronize().unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![1.5, 2.5, 3.5, 4.5]);
    let mut a = DeviceBuffer::<f32>::new(&device, 16).unwrap();
    let mut diag = vec![0.0f32; 16];
    for i in 0..4 {
        diag[i * 5] = 3.0;
    }
    a.copy_from_slice(&diag).unwrap();
    blas.gemv(BlasOp::T, 4, 4, 1.0, Matrix { buffer: &a, ld: 4 }, &x, 0.0, &mut y).unwrap();
    device.synchronize().unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![3.0, 6.0, 9.0, 12.0]);
    let e = blas.axpy(4, 1.0, &x, 0, &mut y, 1).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("incx is 0"), "{e}");
    assert!(dccuda::blas_library_version().unwrap() >= 120000);
}
