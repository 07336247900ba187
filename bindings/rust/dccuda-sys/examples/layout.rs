//! Prints what the Rust compiler made of the binding, in the ABI check's line formats
//! (abi/README.md): `layout` (the default) every public struct's layout, `constants` every
//! constant's value. abi/check_abi.py runs it with `cargo run --example layout -- <what>` and
//! compares the output with the C compiler's.
fn main() {
    match std::env::args().nth(1).as_deref() {
        None | Some("layout") => print!("{}", dccuda_sys::layout::report()),
        Some("constants") => print!("{}", dccuda_sys::layout::constants()),
        Some(other) => {
            eprintln!("layout: unknown report `{other}` (layout or constants)");
            std::process::exit(2);
        }
    }
}
