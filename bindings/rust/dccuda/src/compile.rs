//! Runtime compilation with NVRTC, through the library's kernel cache.

use std::ffi::{c_char, CString};

use crate::device::Device;
use crate::error::{c_string, check, owned_string, Error, Result, Status};
use crate::sys;

/// What a compile produces (`sys::DC_OUTPUT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Machine code for one architecture (the default).
    Cubin,
    /// PTX, JIT-compiled by the driver at load.
    Ptx,
    /// LTO-IR for link-time optimisation.
    LtoIr,
    /// A kind this crate does not know yet.
    Other(i32),
}

impl Output {
    fn raw(self) -> i32 {
        match self {
            Output::Cubin => sys::DC_OUTPUT_CUBIN,
            Output::Ptx => sys::DC_OUTPUT_PTX,
            Output::LtoIr => sys::DC_OUTPUT_LTOIR,
            Output::Other(v) => v,
        }
    }

    fn from_raw(v: i32) -> Self {
        match v {
            sys::DC_OUTPUT_CUBIN => Output::Cubin,
            sys::DC_OUTPUT_PTX => Output::Ptx,
            sys::DC_OUTPUT_LTOIR => Output::LtoIr,
            other => Output::Other(other),
        }
    }
}

/// Where a program's output came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheSource {
    /// Compiled by NVRTC in this call.
    Miss,
    /// Found in the in-process cache.
    Memory,
    /// Found in the on-disk cache.
    Disk,
    Other(i32),
}

/// Options for [`Program::compile`] and `Module::compile_and_load`: a builder. Strings are
/// kept as Rust strings and turned into C strings for the call (a string with a NUL byte
/// is an `INVALID_ARGUMENT` error then).
#[derive(Clone, Debug)]
pub struct CompileOptions {
    name: Option<String>,
    output: Output,
    arch: i32,
    flags: u32,
    max_registers: i32,
    std: Option<String>,
    options: Vec<String>,
    defines: Vec<String>,
    include_paths: Vec<String>,
    headers: Vec<(String, String)>,
    name_expressions: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            name: None,
            output: Output::Cubin,
            arch: 0,
            flags: 0,
            max_registers: 0,
            std: None,
            options: Vec::new(),
            defines: Vec::new(),
            include_paths: Vec::new(),
            headers: Vec::new(),
            name_expressions: Vec::new(),
        }
    }
}

impl CompileOptions {
    /// CUBIN for the device's own architecture, no flags.
    pub fn new() -> Self {
        Self::default()
    }
    /// The name of the source in diagnostics (default "dccuda.cu").
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }
    /// Target architecture as 10 * major + minor (90 = sm_90); 0 = the device's own.
    pub fn arch(mut self, arch: i32) -> Self {
        self.arch = arch;
        self
    }
    /// `sys::DC_COMPILE_*` flags, added to those already set.
    pub fn flags(mut self, flags: u32) -> Self {
        self.flags |= flags;
        self
    }
    /// --use_fast_math
    pub fn fast_math(self) -> Self {
        self.flags(sys::DC_COMPILE_FAST_MATH)
    }
    /// --generate-line-info
    pub fn line_info(self) -> Self {
        self.flags(sys::DC_COMPILE_LINE_INFO)
    }
    /// Neither read nor write the kernel cache.
    pub fn no_cache(self) -> Self {
        self.flags(sys::DC_COMPILE_NO_CACHE)
    }
    /// --maxrregcount (0 = no limit).
    pub fn max_registers(mut self, n: i32) -> Self {
        self.max_registers = n;
        self
    }
    /// The language standard ("c++17", "c++20").
    pub fn std(mut self, std: impl Into<String>) -> Self {
        self.std = Some(std.into());
        self
    }
    /// A raw NVRTC option, passed as it is.
    pub fn option(mut self, option: impl Into<String>) -> Self {
        self.options.push(option.into());
        self
    }
    /// "NAME" or "NAME=VALUE".
    pub fn define(mut self, define: impl Into<String>) -> Self {
        self.defines.push(define.into());
        self
    }
    pub fn include_path(mut self, path: impl Into<String>) -> Self {
        self.include_paths.push(path.into());
        self
    }
    /// An in-memory header: `#include "name"` gets `source`.
    pub fn header(mut self, name: impl Into<String>, source: impl Into<String>) -> Self {
        self.headers.push((name.into(), source.into()));
        self
    }
    /// An expression whose lowered name you need (`"scale<float>"`): see
    /// [`Program::lowered_name`].
    pub fn name_expression(mut self, expression: impl Into<String>) -> Self {
        self.name_expressions.push(expression.into());
        self
    }

    /// The C strings and pointer arrays for one call; the struct points into them.
    pub(crate) fn to_c(&self, what: &str) -> Result<CCompileOptions> {
        fn strings(list: &[String], what: &str, which: &str) -> Result<Vec<CString>> {
            list.iter().map(|s| c_string(s, &format!("{what}: {which} `{s}`"))).collect()
        }
        let count = |n: usize, which: &str| {
            u32::try_from(n).map_err(|_| Error::local(Status::INVALID_ARGUMENT, format!("{what}: too many {which}")))
        };
        let header_names: Vec<String> = self.headers.iter().map(|h| h.0.clone()).collect();
        let header_sources: Vec<String> = self.headers.iter().map(|h| h.1.clone()).collect();
        let c = CCompileOptions {
            name: self.name.as_deref().map(|n| c_string(n, &format!("{what}: the program name"))).transpose()?,
            std: self.std.as_deref().map(|s| c_string(s, &format!("{what}: std"))).transpose()?,
            options: strings(&self.options, what, "option")?,
            defines: strings(&self.defines, what, "define")?,
            include_paths: strings(&self.include_paths, what, "include path")?,
            header_names: strings(&header_names, what, "header name")?,
            header_sources: strings(&header_sources, what, "header source")?,
            name_expressions: strings(&self.name_expressions, what, "name expression")?,
            pointers: Vec::new(),
            raw: sys::dc_compile_options {
                output: self.output.raw(),
                arch: self.arch,
                flags: self.flags,
                max_registers: self.max_registers,
                num_options: count(self.options.len(), "options")?,
                num_defines: count(self.defines.len(), "defines")?,
                num_include_paths: count(self.include_paths.len(), "include paths")?,
                num_headers: count(self.headers.len(), "headers")?,
                num_name_expressions: count(self.name_expressions.len(), "name expressions")?,
                ..Default::default()
            },
        };
        Ok(c.link())
    }
}

/// CompileOptions as C: owns every string and pointer array `raw` points into. Moving it
/// moves no heap memory, so the pointers stay valid for as long as it lives.
pub(crate) struct CCompileOptions {
    pub(crate) name: Option<CString>,
    std: Option<CString>,
    options: Vec<CString>,
    defines: Vec<CString>,
    include_paths: Vec<CString>,
    header_names: Vec<CString>,
    header_sources: Vec<CString>,
    name_expressions: Vec<CString>,
    pointers: Vec<Vec<*const c_char>>,
    raw: sys::dc_compile_options,
}

impl CCompileOptions {
    fn link(mut self) -> Self {
        let lists = [
            &self.options,
            &self.defines,
            &self.include_paths,
            &self.header_names,
            &self.header_sources,
            &self.name_expressions,
        ];
        self.pointers = lists.iter().map(|l| l.iter().map(|s| s.as_ptr()).collect()).collect();
        let p = |v: &Vec<*const c_char>| if v.is_empty() { std::ptr::null() } else { v.as_ptr() };
        self.raw.options = p(&self.pointers[0]);
        self.raw.defines = p(&self.pointers[1]);
        self.raw.include_paths = p(&self.pointers[2]);
        self.raw.header_names = p(&self.pointers[3]);
        self.raw.header_sources = p(&self.pointers[4]);
        self.raw.name_expressions = p(&self.pointers[5]);
        self.raw.std = self.std.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        self
    }

    pub(crate) fn raw(&self) -> &sys::dc_compile_options {
        &self.raw
    }

    pub(crate) fn name_ptr(&self) -> *const c_char {
        self.name.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
    }
}

crate::owned_handle!(
    /// A compiled program: its output (CUBIN, PTX or LTO-IR), log and lowered names.
    Program,
    sys::dc_program,
    sys::dc_program_release
);

impl Program {
    /// Compiles CUDA C++ `source`. `device` supplies the architecture when the options do
    /// not name one (no GPU is needed when they do). On `Status::COMPILE` the error's
    /// message has the first error line and [`Error::detail`] the whole log.
    ///
    /// # Errors
    /// The library's status and message when [`dc_compile`](crate::sys::dc_compile) fails (the
    /// header's documentation, on the `sys` item, says when). A string holding a NUL byte is
    /// `INVALID_ARGUMENT`.
    pub fn compile<'o>(
        source: &str,
        options: impl Into<Option<&'o CompileOptions>>,
        device: Option<&Device>,
    ) -> Result<Program> {
        let defaults;
        let options = match options.into() {
            Some(options) => options,
            None => {
                defaults = CompileOptions::new();
                &defaults
            }
        };
        let src = c_string(source, "Program::compile: the source")?;
        let c = options.to_c("Program::compile")?;
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_compile(
                src.as_ptr(),
                c.name_ptr(),
                c.raw(),
                device.map_or(std::ptr::null_mut(), |d| d.as_raw()),
                &mut raw,
            )
        })?;
        Ok(Program { raw })
    }

    /// The compiled image's kind and bytes (PTX includes its terminating NUL).
    ///
    /// # Errors
    /// The library's status and message when [`dc_program_output`](crate::sys::dc_program_output)
    /// fails (the header's documentation, on the `sys` item, says when).
    pub fn output(&self) -> Result<(Output, &[u8])> {
        let (mut kind, mut data, mut size) = (0, std::ptr::null(), 0u64);
        check(unsafe { sys::dc_program_output(self.raw, &mut kind, &mut data, &mut size) })?;
        let bytes = if data.is_null() || size == 0 {
            &[][..]
        } else {
            // Valid while the program lives, which the borrow of self guarantees.
            unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) }
        };
        Ok((Output::from_raw(kind), bytes))
    }

    /// The compiler's log (warnings), "" if empty.
    ///
    /// # Errors
    /// The library's status and message when [`dc_program_log`](crate::sys::dc_program_log) fails
    /// (the header's documentation, on the `sys` item, says when).
    pub fn log(&self) -> Result<String> {
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_program_log(self.raw, &mut p) })?;
        Ok(owned_string(p))
    }

    /// The lowered (mangled) name of a name expression given at compile time.
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_program_lowered_name`](crate::sys::dc_program_lowered_name) fails (the header's
    /// documentation, on the `sys` item, says when). A string holding a NUL byte is
    /// `INVALID_ARGUMENT`.
    pub fn lowered_name(&self, expression: &str) -> Result<String> {
        let expr = c_string(expression, "Program::lowered_name: the expression")?;
        let mut p = std::ptr::null();
        check(unsafe { sys::dc_program_lowered_name(self.raw, expr.as_ptr(), &mut p) })?;
        Ok(owned_string(p))
    }

    /// Where the output came from (compiled now, or a cache).
    ///
    /// # Errors
    /// The library's status and message when
    /// [`dc_program_cache_source`](crate::sys::dc_program_cache_source) fails (the header's
    /// documentation, on the `sys` item, says when).
    pub fn cache_source(&self) -> Result<CacheSource> {
        let mut v = 0;
        check(unsafe { sys::dc_program_cache_source(self.raw, &mut v) })?;
        Ok(match v {
            sys::DC_CACHE_MISS => CacheSource::Miss,
            sys::DC_CACHE_MEMORY => CacheSource::Memory,
            sys::DC_CACHE_DISK => CacheSource::Disk,
            other => CacheSource::Other(other),
        })
    }
}

/// Empties the in-process cache and/or the on-disk cache (`sys::DC_CACHE_CLEAR_*`).
///
/// # Errors
/// The library's status and message when [`dc_cache_clear`](crate::sys::dc_cache_clear) fails (the
/// header's documentation, on the `sys` item, says when).
pub fn cache_clear(flags: u32) -> Result<()> {
    check(unsafe { sys::dc_cache_clear(flags) })
}

/// The on-disk cache folder, "" when the disk cache is disabled.
///
/// # Errors
/// The library's status and message when [`dc_cache_directory`](crate::sys::dc_cache_directory)
/// fails (the header's documentation, on the `sys` item, says when).
pub fn cache_directory() -> Result<String> {
    let mut p = std::ptr::null();
    check(unsafe { sys::dc_cache_directory(&mut p) })?;
    Ok(owned_string(p))
}

/// As [`cache_directory`], byte for byte: a folder whose name is not UTF-8 comes back
/// unchanged (`cache_directory` replaces such bytes with U+FFFD).
///
/// # Errors
/// As [`cache_directory`].
pub fn cache_directory_path() -> Result<std::path::PathBuf> {
    let mut p = std::ptr::null();
    check(unsafe { sys::dc_cache_directory(&mut p) })?;
    Ok(crate::error::owned_path(p))
}
