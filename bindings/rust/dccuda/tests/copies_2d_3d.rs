//! 2D fills, asynchronous 2D writes and reads, and 3D copies between buffers with other
//! pitches and plane heights, checked element by element against the host's arithmetic.

mod common;

use dccuda::{DeviceBuffer, Status, Stream};

#[test]
fn two_d_fills_and_asynchronous_two_d_copies() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    // 4 rows of 4 u32 elements, 8 elements apart.
    let mut b = DeviceBuffer::<u32>::from_slice(&device, &[0xeeee_eeee; 32]).unwrap();
    b.fill_2d(0, 8, 4, 4, 7).unwrap();
    let got = b.to_vec().unwrap();
    for r in 0..4 {
        assert_eq!(&got[r * 8..r * 8 + 4], &[7; 4]);
        assert_eq!(&got[r * 8 + 4..r * 8 + 8], &[0xeeee_eeee; 4]);
    }
    b.fill_2d_async(4, 8, 4, 4, 9, &stream).unwrap();
    let host: Vec<u32> = (0..16).collect();
    b.write_2d_async(0, 8, &host, 4, 4, 4, &stream).unwrap();
    let mut back = vec![0u32; 16];
    b.read_2d_async(0, 8, &mut back, 4, 4, 4, &stream).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(back, host);
    let got = b.to_vec().unwrap();
    for r in 0..4 {
        assert_eq!(&got[r * 8 + 4..r * 8 + 8], &[9; 4]);
    }
    assert_eq!(b.fill_2d(0, 2, 4, 4, 1).unwrap_err().status(), Status::INVALID_ARGUMENT, "a pitch below the width");
    let mut bytes = DeviceBuffer::<u64>::zeroed(&device, 4).unwrap();
    assert_eq!(bytes.fill_2d(0, 2, 2, 2, 1).unwrap_err().status(), Status::INVALID_ARGUMENT, "8-byte elements");
}

#[test]
fn three_d_copies_repack_planes() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    // Source: 2 planes of 4 rows of 16 u16 elements; the box is 8 wide, 3 high, 2 deep.
    let src_host: Vec<u16> = (0..2 * 4 * 16).map(|i| i as u16 * 3).collect();
    let src = DeviceBuffer::from_slice(&device, &src_host).unwrap();
    let mut dst = DeviceBuffer::<u16>::zeroed(&device, 2 * 3 * 8).unwrap();
    dst.copy_from_3d(0, 8, 3, &src, 0, 16, 4, (8, 3, 2)).unwrap();
    let got = dst.to_vec().unwrap();
    for z in 0..2 {
        for y in 0..3 {
            for x in 0..8 {
                assert_eq!(got[z * 24 + y * 8 + x], src_host[z * 64 + y * 16 + x], "({x}, {y}, {z})");
            }
        }
    }
    let mut again = DeviceBuffer::<u16>::zeroed(&device, 2 * 3 * 8).unwrap();
    again.copy_from_3d_async(0, 8, 3, &src, 0, 16, 4, (8, 3, 2), &stream).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(again.to_vec().unwrap(), got);
    let e = dst.copy_from_3d(0, 8, 2, &src, 0, 16, 4, (8, 3, 2)).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "rows per plane below the height: {e}");
}
