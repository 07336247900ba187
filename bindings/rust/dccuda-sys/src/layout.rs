//! The Rust side of the layout and constant checks: every public struct's size, alignment and field
//! offsets and sizes, in the line format of abi/README.md (`struct dc_arg size 32 align 8`,
//! `field dc_arg.kind offset 0 size 4`). examples/layout.rs prints it for abi/check_abi.py;
//! tests/layout.rs compares it with what the C compiler says.

extern crate alloc;
use alloc::string::String;
use core::fmt::Write;

macro_rules! report_struct {
    ($out:ident; $t:ident { $($f:ident),* }) => {{
        let _ = writeln!($out, "struct {} size {} align {}", stringify!($t),
                         core::mem::size_of::<$t>(), core::mem::align_of::<$t>());
        $(
            let _ = writeln!($out, "field {}.{} offset {} size {}", stringify!($t), stringify!($f),
                             core::mem::offset_of!($t, $f), field_size(|s: &$t| &s.$f));
        )*
    }};
}

/// The size of a field's type, read from a projection (no value is made or read).
fn field_size<S, F>(_project: fn(&S) -> &F) -> usize {
    core::mem::size_of::<F>()
}

/// Every struct of the header, as this crate declares it.
pub fn report() -> String {
    use crate::*;
    let mut out = String::new();
    macro_rules! one {
        ($t:ident { $($f:ident),* }) => { report_struct!(out; $t { $($f),* }) };
    }
    __dccuda_for_each_struct!(one);
    out
}

/// Every constant as this crate declares it, in the constant check's line format
/// (`constant DC_ERROR_INVALID_HANDLE -2`): what the Rust compiler made of each value.
pub fn constants() -> String {
    use crate::*;
    let mut out = String::new();
    macro_rules! one {
        ($c:ident) => {
            let _ = writeln!(out, "constant {} {}", stringify!($c), $c as i64);
        };
    }
    __dccuda_for_each_constant!(one);
    out
}
