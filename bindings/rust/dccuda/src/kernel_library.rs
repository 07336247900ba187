//! Context-independent libraries (`dc_library`): an image loaded once for the
//! process, its kernels got as functions on every device.

use std::path::Path;

use crate::device::Device;
use crate::error::{c_string, check, owned_string, Result};
use crate::module::{Function, ModuleOptions};
use crate::sys;

fn options_ptr(options: Option<&ModuleOptions>) -> *const sys::dc_module_options {
    options.map_or(std::ptr::null(), |o| &o.0)
}

crate::owned_handle!(
    /// An image (PTX, CUBIN or fatbin) loaded once as the driver's `cuLibrary`
    /// (CUDA 12.0+): [`function`](Self::function) gives its kernels on any device
    /// without loading per device. Functions keep it loaded.
    Library,
    sys::dc_library,
    sys::dc_library_release
);

impl Library {
    /// Loads an image from memory (copied). Options as in [`Module::load`](crate::Module::load).
    ///
    /// # Errors
    /// `INVALID_IMAGE` when the image is refused; `NOT_SUPPORTED` on a driver older than
    /// CUDA 12.0; `INVALID_ARGUMENT` for an empty image or bad options.
    pub fn load<'o>(image: &[u8], options: impl Into<Option<&'o ModuleOptions>>) -> Result<Library> {
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_library_load(image.as_ptr().cast(), image.len() as u64, options_ptr(options.into()), &mut raw)
        })?;
        Ok(Library { raw })
    }

    /// Loads an image from a file (the path goes to the library byte for byte).
    ///
    /// # Errors
    /// `NOT_FOUND` or `IO` when the file cannot be read, then as [`load`](Self::load).
    pub fn load_file<'o>(path: impl AsRef<Path>, options: impl Into<Option<&'o ModuleOptions>>) -> Result<Library> {
        let c = crate::error::c_path(path.as_ref(), "Library::load_file: the path")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_library_load_file(c.as_ptr(), options_ptr(options.into()), &mut raw) })?;
        Ok(Library { raw })
    }

    /// Kernel `name` (mangled, for C++) as a function on `device`; `NOT_FOUND` lists the
    /// kernels there are.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_library_get_function`](crate::sys::dc_library_get_function) fails. A string
    /// holding a NUL byte is `INVALID_ARGUMENT`.
    pub fn function(&self, device: &Device, name: &str) -> Result<Function> {
        let c = c_string(name, "Library::function: the name")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_library_get_function(self.raw, device.as_raw(), c.as_ptr(), &mut raw) })?;
        Ok(unsafe { Function::from_raw(raw) })
    }

    /// The number of kernels.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_library_function_count`](crate::sys::dc_library_function_count) fails.
    pub fn function_count(&self) -> Result<u32> {
        let mut n = 0;
        check(unsafe { sys::dc_library_function_count(self.raw, &mut n) })?;
        Ok(n)
    }

    /// The name of kernel `index`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_library_function_name`](crate::sys::dc_library_function_name) fails.
    pub fn function_name(&self, index: u32) -> Result<String> {
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_library_function_name(self.raw, index, &mut p) })?;
        Ok(owned_string(p))
    }

    /// Every kernel's name.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn function_names(&self) -> Result<Vec<String>> {
        (0..self.function_count()?).map(|i| self.function_name(i)).collect()
    }
}
