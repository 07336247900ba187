//! Modules (loaded images) and their functions (kernels), with occupancy queries.

use std::ffi::c_void;
use std::ops::Deref;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use crate::buffer::DeviceBuffer;
use crate::compile::{CompileOptions, Program};
use crate::device::Device;
use crate::error::{c_string, check, owned_string, Result};
use crate::launch::LaunchConfig;
use crate::pod::Pod;
use crate::sys;

/// JIT options for loading a module (a builder over `sys::dc_module_options`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ModuleOptions(pub sys::dc_module_options);

impl ModuleOptions {
    pub fn new() -> Self {
        Self::default()
    }
    /// `sys::DC_JIT_*` flags (line info, debug info).
    pub fn flags(mut self, flags: u32) -> Self {
        self.0.flags |= flags;
        self
    }
    /// PTX JIT optimisation level 0..4 (-1: the driver's default).
    pub fn optimization_level(mut self, level: i32) -> Self {
        self.0.optimization_level = level;
        self
    }
    /// PTX JIT register limit (0: none).
    pub fn max_registers(mut self, n: i32) -> Self {
        self.0.max_registers = n;
        self
    }
    /// Bytes of JIT log kept (0: 16 KiB).
    pub fn log_size(mut self, bytes: u32) -> Self {
        self.0.log_size = bytes;
        self
    }
}

fn options_ptr(options: Option<&ModuleOptions>) -> *const sys::dc_module_options {
    options.map_or(std::ptr::null(), |o| &o.0)
}

crate::owned_handle!(
    /// A loaded module (PTX, CUBIN or fatbin). Its functions keep it loaded.
    Module,
    sys::dc_module,
    sys::dc_module_release
);

impl Module {
    /// Loads an image from memory (copied; PTX is JIT-compiled).
    ///
    /// Options, here and in every loading or compiling constructor, are given as
    /// `&options`, `Some(&options)` or `None` (the defaults).
    ///
    /// # Errors
    /// `INVALID_IMAGE` when the driver refuses the image ([`Error::detail`](crate::Error::detail)
    /// has the JIT log); `INVALID_ARGUMENT` for an empty image or bad options.
    pub fn load<'o>(device: &Device, image: &[u8], options: impl Into<Option<&'o ModuleOptions>>) -> Result<Module> {
        let options = options.into();
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_module_load(
                device.as_raw(),
                image.as_ptr().cast(),
                image.len() as u64,
                options_ptr(options),
                &mut raw,
            )
        })?;
        Ok(Module { raw })
    }

    /// Loads an image from a file. The path goes to the library byte for byte (it need not
    /// be UTF-8).
    ///
    /// # Errors
    /// `NOT_FOUND` or `IO` when the file cannot be read, then as [`load`](Self::load).
    pub fn load_file<'o>(
        device: &Device,
        path: impl AsRef<Path>,
        options: impl Into<Option<&'o ModuleOptions>>,
    ) -> Result<Module> {
        let options = options.into();
        let path = path.as_ref();
        let c = crate::error::c_path(path, "Module::load_file: the path")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_module_load_file(device.as_raw(), c.as_ptr(), options_ptr(options), &mut raw) })?;
        Ok(Module { raw })
    }

    /// Loads a compiled program's output (CUBIN or PTX).
    ///
    /// # Errors
    /// As [`load`](Self::load).
    pub fn load_program<'o>(
        device: &Device,
        program: &Program,
        options: impl Into<Option<&'o ModuleOptions>>,
    ) -> Result<Module> {
        let options = options.into();
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_module_load_program(device.as_raw(), program.as_raw(), options_ptr(options), &mut raw)
        })?;
        Ok(Module { raw })
    }

    /// Compiles `source` for `device` (through the kernel cache) and loads it. Options as in
    /// [`load`](Self::load): `&options`, `Some(&options)` or `None`.
    ///
    /// # Errors
    /// `COMPILE` with NVRTC's log in [`Error::detail`](crate::Error::detail);
    /// `NO_COMPILER` without NVRTC; `INVALID_ARGUMENT` for a source or option holding a NUL.
    pub fn compile_and_load<'o>(
        device: &Device,
        source: &str,
        options: impl Into<Option<&'o CompileOptions>>,
    ) -> Result<Module> {
        let defaults;
        let options = match options.into() {
            Some(options) => options,
            None => {
                defaults = CompileOptions::new();
                &defaults
            }
        };
        let src = c_string(source, "Module::compile_and_load: the source")?;
        let c = options.to_c("Module::compile_and_load")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_module_compile_and_load(device.as_raw(), src.as_ptr(), c.name_ptr(), c.raw(), &mut raw)
        })?;
        Ok(Module { raw })
    }

    /// The JIT info log of the load ("" for CUBIN).
    ///
    /// # Errors
    /// The library's status and message when [`dc_module_jit_log`](crate::sys::dc_module_jit_log)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn jit_log(&self) -> Result<String> {
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_module_jit_log(self.raw, &mut p) })?;
        Ok(owned_string(p))
    }

    /// A kernel by its (mangled, for C++) name. `NOT_FOUND` lists the kernels there are.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_module_get_function`](crate::sys::dc_module_get_function) fails (the header's
    /// documentation, on the `sys` item, says when). A string holding a NUL byte is
    /// `INVALID_ARGUMENT`.
    pub fn function(&self, name: &str) -> Result<Function> {
        let c = c_string(name, "Module::function: the name")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_module_get_function(self.raw, c.as_ptr(), &mut raw) })?;
        Ok(unsafe { Function::from_raw(raw) })
    }

    /// The number of kernels.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_module_function_count`](crate::sys::dc_module_function_count) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn function_count(&self) -> Result<u32> {
        let mut n = 0;
        check(unsafe { sys::dc_module_function_count(self.raw, &mut n) })?;
        Ok(n)
    }

    /// The name of kernel `index`.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_module_function_name`](crate::sys::dc_module_function_name) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn function_name(&self, index: u32) -> Result<String> {
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_module_function_name(self.raw, index, &mut p) })?;
        Ok(owned_string(p))
    }

    /// Every kernel's name.
    ///
    /// # Errors
    /// The library's status and message, unchanged, when a call it makes fails.
    pub fn function_names(&self) -> Result<Vec<String>> {
        (0..self.function_count()?).map(|i| self.function_name(i)).collect()
    }

    /// A `__device__` / `__constant__` variable as a buffer of T (its size must be a whole
    /// number of T). It keeps the module alive.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_module_get_global`](crate::sys::dc_module_get_global) fails (the header's
    /// documentation, on the `sys` item, says when). A string holding a NUL byte is
    /// `INVALID_ARGUMENT`.
    pub fn global<T: Pod>(&self, name: &str) -> Result<DeviceBuffer<T>> {
        let c = c_string(name, "Module::global: the name")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::dc_module_get_global(self.raw, c.as_ptr(), &mut raw) })?;
        DeviceBuffer::from_library(raw, &format!("Module::global({name})"))
    }
}

/// A kernel's attributes: the C struct (every field through `Deref`).
#[derive(Clone, Copy, Debug)]
pub struct FunctionInfo(pub sys::dc_function_info);

impl Deref for FunctionInfo {
    type Target = sys::dc_function_info;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

crate::owned_handle!(
    /// A kernel of a module (keeps the module alive).
    Function,
    sys::dc_function,
    sys::dc_function_release
);

impl Function {
    /// The kernel's name as the module knows it.
    ///
    /// # Errors
    /// The library's status and message when [`dc_function_name`](crate::sys::dc_function_name)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn name(&self) -> Result<String> {
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_function_name(self.raw, &mut p) })?;
        Ok(owned_string(p))
    }

    /// Registers, shared and local memory, limits, parameter count and block size.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_get_info`](crate::sys::dc_function_get_info) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn info(&self) -> Result<FunctionInfo> {
        let mut info = sys::dc_function_info::default();
        check(unsafe { sys::dc_function_get_info(self.raw, &mut info) })?;
        Ok(FunctionInfo(info))
    }

    /// Any CUfunction_attribute (cuda.h's CU_FUNC_ATTRIBUTE_*).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_attribute`](crate::sys::dc_function_attribute) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn attribute(&self, attribute: i32) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_function_attribute(self.raw, attribute, &mut v) })?;
        Ok(v)
    }

    /// Sets a CUfunction_attribute (e.g. 8, MAX_DYNAMIC_SHARED_SIZE_BYTES).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_set_attribute`](crate::sys::dc_function_set_attribute) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn set_attribute(&self, attribute: i32, value: i32) -> Result<()> {
        check(unsafe { sys::dc_function_set_attribute(self.raw, attribute, value) })
    }

    /// The L1/shared preference (`sys::DC_CACHE_PREFER_*`).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_set_cache_config`](crate::sys::dc_function_set_cache_config) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn set_cache_config(&self, preference: i32) -> Result<()> {
        check(unsafe { sys::dc_function_set_cache_config(self.raw, preference) })
    }

    /// The number of parameters.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_param_count`](crate::sys::dc_function_param_count) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn param_count(&self) -> Result<u32> {
        let mut n = 0;
        check(unsafe { sys::dc_function_param_count(self.raw, &mut n) })?;
        Ok(n)
    }

    /// (offset, size) of parameter `index` in the packed parameter block.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_function_param_info`](crate::sys::dc_function_param_info) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn param_info(&self, index: u32) -> Result<(u64, u64)> {
        let (mut offset, mut size) = (0, 0);
        check(unsafe { sys::dc_function_param_info(self.raw, index, &mut offset, &mut size) })?;
        Ok((offset, size))
    }

    /// The raw CUfunction, valid while this handle lives.
    ///
    /// # Errors
    /// The library's status and message when [`dc_function_native`](crate::sys::dc_function_native)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn native(&self) -> Result<*mut c_void> {
        let mut p = std::ptr::null_mut();
        check(unsafe { sys::dc_function_native(self.raw, &mut p) })?;
        Ok(p)
    }

    /// A 1-D configuration of at least `n` threads with the occupancy-optimal block size.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_launch_config_1d`](crate::sys::dc_launch_config_1d) fails (the header's documentation,
    /// on the `sys` item, says when).
    pub fn config_1d(&self, n: u64, shared_memory_bytes: u32) -> Result<LaunchConfig> {
        let mut c = LaunchConfig::new();
        check(unsafe { sys::dc_launch_config_1d(self.raw, n, shared_memory_bytes, c.as_raw_mut()) })?;
        Ok(c)
    }

    /// Blocks of `block_size` threads that fit on one multiprocessor at once.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_occupancy_max_active_blocks`](crate::sys::dc_occupancy_max_active_blocks) fails (the
    /// header's documentation, on the `sys` item, says when).
    pub fn max_active_blocks(&self, block_size: i32, dynamic_shared_bytes: u64) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_occupancy_max_active_blocks(self.raw, block_size, dynamic_shared_bytes, &mut v) })?;
        Ok(v)
    }

    /// (minimum grid size, block size) for maximum occupancy with a fixed amount of dynamic
    /// shared memory per block; `block_size_limit` 0 = none.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_occupancy_max_potential_block_size`](crate::sys::dc_occupancy_max_potential_block_size)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn max_potential_block_size(&self, dynamic_shared_bytes: u64, block_size_limit: i32) -> Result<(i32, i32)> {
        let (mut grid, mut block) = (0, 0);
        check(unsafe {
            sys::dc_occupancy_max_potential_block_size(
                self.raw,
                None,
                std::ptr::null_mut(),
                dynamic_shared_bytes,
                block_size_limit,
                &mut grid,
                &mut block,
            )
        })?;
        Ok((grid, block))
    }

    /// As [`max_potential_block_size`](Self::max_potential_block_size), with the dynamic
    /// shared memory a block of a given size needs given by `shared(block_size)` (called on
    /// this thread before the call returns).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_occupancy_max_potential_block_size`](crate::sys::dc_occupancy_max_potential_block_size)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn max_potential_block_size_with<F: Fn(i32) -> u64>(
        &self,
        shared: F,
        block_size_limit: i32,
    ) -> Result<(i32, i32)> {
        unsafe extern "C" fn call<F: Fn(i32) -> u64>(block_size: i32, user_data: *mut c_void) -> u64 {
            let f = unsafe { &*(user_data as *const F) };
            match catch_unwind(AssertUnwindSafe(|| f(block_size))) {
                Ok(v) => v,
                Err(_) => {
                    eprintln!("dccuda: a block shared memory function panicked; aborting");
                    std::process::abort();
                }
            }
        }
        let (mut grid, mut block) = (0, 0);
        check(unsafe {
            sys::dc_occupancy_max_potential_block_size(
                self.raw,
                Some(call::<F>),
                &shared as *const F as *mut c_void,
                0,
                block_size_limit,
                &mut grid,
                &mut block,
            )
        })?;
        Ok((grid, block))
    }

    /// How many clusters of `config`'s cluster size can be co-resident.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_occupancy_max_active_clusters`](crate::sys::dc_occupancy_max_active_clusters) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn max_active_clusters(&self, config: &LaunchConfig) -> Result<i32> {
        let mut v = 0;
        check(unsafe { sys::dc_occupancy_max_active_clusters(self.raw, config.as_raw(), &mut v) })?;
        Ok(v)
    }

    /// Dynamic shared memory available per block when `num_blocks` blocks of `block_size`
    /// threads share a multiprocessor.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_occupancy_available_dynamic_shared`](crate::sys::dc_occupancy_available_dynamic_shared)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn available_dynamic_shared(&self, num_blocks: i32, block_size: i32) -> Result<u64> {
        let mut v = 0;
        check(unsafe { sys::dc_occupancy_available_dynamic_shared(self.raw, num_blocks, block_size, &mut v) })?;
        Ok(v)
    }
}
