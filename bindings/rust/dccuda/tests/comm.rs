//! NCCL through the binding, on the fake NCCL over two fake GPUs: `Comm::init_all`, a
//! grouped all-reduce of both ranks checked against the CPU, a send/receive, and a count
//! past a buffer's end refused before NCCL sees it.

mod common;

use dccuda::{group, Comm, Device, DeviceBuffer, ReduceOp, Status, Stream};

#[test]
fn all_reduce_and_exchange_over_two_ranks() {
    if dccuda::nccl_version().is_err() || Device::count().unwrap_or(0) < 2 {
        eprintln!("SKIPPED: needs NCCL (DCCUDA_NCCL_LIBRARY) and two devices");
        return;
    }
    let comms = Comm::init_all(&[0, 1]).unwrap();
    assert_eq!(comms[1].rank().unwrap(), 1);
    assert_eq!(comms[0].count().unwrap(), 2);
    let devices = [Device::open(0).unwrap(), Device::open(1).unwrap()];
    let streams = [Stream::new(&devices[0]).unwrap(), Stream::new(&devices[1]).unwrap()];
    let n = 64;
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let y: Vec<f64> = (0..n).map(|i| (3 * i + 1) as f64).collect();
    let bufs = [DeviceBuffer::from_slice(&devices[0], &x).unwrap(), DeviceBuffer::from_slice(&devices[1], &y).unwrap()];
    group(|| {
        for r in 0..2 {
            comms[r].all_reduce(&bufs[r], 0, &bufs[r], 0, n, ReduceOp::Max, &streams[r])?;
        }
        Ok(())
    })
    .unwrap();
    for r in 0..2 {
        streams[r].synchronize().unwrap();
        let got = bufs[r].to_vec().unwrap();
        for i in 0..n {
            assert_eq!(got[i], x[i].max(y[i]), "rank {r} element {i}");
        }
    }
    let ints = [DeviceBuffer::from_slice(&devices[0], &[5i32, 6, 7]).unwrap(), DeviceBuffer::<i32>::zeroed(&devices[1], 3).unwrap()];
    group(|| {
        comms[0].send(&ints[0], 3, 1, &streams[0])?;
        comms[1].recv(&ints[1], 3, 0, &streams[1])
    })
    .unwrap();
    streams[1].synchronize().unwrap();
    assert_eq!(ints[1].to_vec().unwrap(), vec![5, 6, 7]);
    let e = comms[0].all_reduce(&bufs[0], 0, &bufs[0], 0, n + 1, ReduceOp::Sum, &streams[0]).unwrap_err();
    assert_eq!(e.status(), Status::OUT_OF_RANGE);
    assert!(e.message().contains("count 65"), "{}", e.message());
}
