//! Element types that can live in device memory and come back as host values.

/// Plain old data: a type that can be copied to and from the device as bytes.
///
/// # Safety
/// Implement it only for types where every bit pattern of `size_of::<Self>()` bytes is a
/// valid value (so bytes read back from the device are always a value of the type), with no
/// padding that a copy could leave uninitialised in a way that matters, and no pointers into
/// host memory or other resources: `#[repr(C)]` structs of numbers, and arrays of them.
/// `bool`, `char`, enums and references are not `Pod`.
pub unsafe trait Pod: Copy + Send + Sync + 'static {}

macro_rules! pod {
    ($($t:ty),*) => { $(unsafe impl Pod for $t {})* };
}
pod!(u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, usize, isize, f32, f64);
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}
