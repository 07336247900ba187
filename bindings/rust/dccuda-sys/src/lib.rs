//! Raw declarations of dccuda's C ABI: every function, constant, handle type, callback type
//! and struct of `include/dccuda.h`, as they are there.
//!
//! `src/generated.rs` is generated from the header by `abi/gen.py` (through abi/api.py, the
//! parser the ABI check uses) and committed; a test fails when it is stale. Nothing here is
//! safe to call without reading the function's documentation, which is the header's.
//!
//! Status values and flags are plain `pub const`s, not Rust enums: the library may answer a
//! status this crate does not know yet (values are append-only), and an enum could not hold it.
//!
//! Handles are raw pointers to opaque structs (`dc_device = *mut dc_device_s`): they are not
//! addresses, never dereferenced, and a released one is answered with
//! `DC_ERROR_INVALID_HANDLE`. The safe crate `dccuda` owns them.
#![no_std]
#![allow(non_camel_case_types, non_upper_case_globals, clippy::missing_safety_doc)]

// Formatted by the generator, not rustfmt; its struct-list macro is used by `layout`.
#[rustfmt::skip]
#[macro_use]
mod generated;
pub use generated::*;

#[doc(hidden)]
pub mod layout;
