//! Element types that can live in device memory and come back as host values.

/// Plain old data: a type that can be copied to and from the device as bytes.
///
/// # Safety
/// Implement it only for types
/// - where every bit pattern of `size_of::<Self>()` bytes is a valid value (so bytes read
///   back from the device are always a value of the type);
/// - with **no padding**: every byte of a value is initialised, because the binding reads
///   values as bytes (a kernel argument, the pattern of [`DeviceBuffer::fill`], a copy to
///   the device), and reading a padding byte is reading uninitialised memory;
/// - with no pointers into host memory or other resources.
///
/// That is: numbers, arrays of `Pod`, and `#[repr(C)]` structs of `Pod` fields laid out
/// without gaps. `bool`, `char`, enums and references are not `Pod`. For a struct, prefer
/// [`impl_pod!`](crate::impl_pod), which checks the last two rules at compile time.
///
/// [`DeviceBuffer::fill`]: crate::DeviceBuffer::fill
pub unsafe trait Pod: Copy + Send + Sync + 'static {}

macro_rules! pod {
    ($($t:ty),*) => { $(unsafe impl Pod for $t {})* };
}
pod!(u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, usize, isize, f32, f64);
// An array has no padding between its elements: its size is N times the element's.
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}

/// Implements [`Pod`] for a struct after checking, at compile time, that every field is
/// named (the pattern is exhaustive), that each has the type given and is `Pod`, and that
/// the struct's size is the sum of its fields' sizes, which is to say it has no padding.
/// Declare the struct `#[repr(C)]` so that the kernel sees the same layout.
///
/// ```
/// #[repr(C)]
/// #[derive(Clone, Copy)]
/// struct Particle { position: [f32; 3], mass: f32, id: u64 }
/// dccuda::impl_pod!(Particle { position: [f32; 3], mass: f32, id: u64 });
/// ```
///
/// A struct with padding is refused:
///
/// ```compile_fail
/// #[repr(C)]
/// #[derive(Clone, Copy)]
/// struct Padded { flag: u8, value: f64 } // 7 bytes of padding after `flag`
/// dccuda::impl_pod!(Padded { flag: u8, value: f64 });
/// ```
///
/// So is a field left out, and a field whose type is not `Pod`:
///
/// ```compile_fail
/// #[repr(C)]
/// #[derive(Clone, Copy)]
/// struct Pair { a: u32, b: u32 }
/// dccuda::impl_pod!(Pair { a: u32 });
/// ```
///
/// ```compile_fail
/// #[repr(C)]
/// #[derive(Clone, Copy)]
/// struct Flags { a: u32, on: bool, rest: [u8; 3] }
/// dccuda::impl_pod!(Flags { a: u32, on: bool, rest: [u8; 3] });
/// ```
#[macro_export]
macro_rules! impl_pod {
    ($t:ident { $($field:ident : $ft:ty),* $(,)? }) => {
        const _: () = {
            // Every field named, each with the type given.
            #[allow(dead_code)]
            fn fields_are_these(v: $t) {
                let $t { $($field),* } = v;
                $( let _: $ft = $field; )*
            }
            // Each field is Pod.
            #[allow(dead_code)]
            fn fields_are_pod() {
                fn is_pod<P: $crate::Pod>() {}
                $( is_pod::<$ft>(); )*
            }
            assert!(
                ::core::mem::size_of::<$t>() == 0 $(+ ::core::mem::size_of::<$ft>())*,
                concat!(stringify!($t), " has padding (its size is more than the sum of its fields'): it cannot be Pod; add explicit fields for the gaps")
            );
        };
        // SAFETY: checked above: no padding, every field Pod (so any bit pattern is a value).
        unsafe impl $crate::Pod for $t {}
    };
}
