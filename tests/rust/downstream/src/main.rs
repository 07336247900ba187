//! A user's program: data through device 0 and back, and the library's message on failure.
//! Prints "downstream (Rust crate): OK" when every element came back.
use dccuda::{Device, DeviceBuffer};

fn main() -> Result<(), dccuda::Error> {
    let device = Device::open(0)?;
    let data: Vec<u32> = (0..4096).map(|i| i * 3 + 1).collect();
    let buffer = DeviceBuffer::from_slice(&device, &data)?;
    let back = buffer.to_vec()?;
    assert_eq!(back, data, "the round trip through device memory changed the data");
    println!("downstream (Rust crate): dccuda {}", dccuda::version());
    println!("downstream (Rust crate): OK");
    Ok(())
}
