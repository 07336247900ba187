//! Prints the Rust layout of every public struct in the ABI check's line format
//! (abi/README.md). abi/check_abi.py runs it with `cargo run --example layout` and compares
//! the output with the C compiler's.
fn main() {
    print!("{}", dccuda_sys::layout::report());
}
