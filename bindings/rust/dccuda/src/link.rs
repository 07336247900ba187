//! Linking device code ([`dc_link`](crate::sys::dc_link)): relocatable code and LTO-IR of
//! several programs, files and archives into one CUBIN, with nvJitLink (else the driver's
//! cuLink), through the kernel cache. The result is a [`Program`]; load it with
//! `Module::load_program`.

use std::ffi::CString;
use std::path::Path;

use crate::compile::Program;
use crate::device::Device;
use crate::error::{c_path, c_string, check, Result};
use crate::sys;

/// What a link input's bytes are (`sys::DC_LINK_INPUT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkInputKind {
    /// Machine code (relocatable, `-rdc`).
    Cubin,
    /// PTX text.
    Ptx,
    /// LTO-IR (needs nvJitLink).
    LtoIr,
    /// A fatbin.
    Fatbin,
    /// A host object file holding device code.
    Object,
    /// An archive of such objects.
    Library,
}

impl LinkInputKind {
    fn raw(self) -> i32 {
        match self {
            LinkInputKind::Cubin => sys::DC_LINK_INPUT_CUBIN,
            LinkInputKind::Ptx => sys::DC_LINK_INPUT_PTX,
            LinkInputKind::LtoIr => sys::DC_LINK_INPUT_LTOIR,
            LinkInputKind::Fatbin => sys::DC_LINK_INPUT_FATBIN,
            LinkInputKind::Object => sys::DC_LINK_INPUT_OBJECT,
            LinkInputKind::Library => sys::DC_LINK_INPUT_LIBRARY,
        }
    }
}

/// One input of [`Program::link`], borrowed for the call.
#[derive(Clone, Copy, Debug)]
pub enum LinkInput<'a> {
    /// A compiled program's output (relocatable CUBIN, PTX or LTO-IR).
    Program(&'a Program),
    /// Bytes of a kind, with the name the linker's logs give them.
    Bytes(LinkInputKind, &'a [u8], &'a str),
    /// A file of a kind, read during the call.
    File(LinkInputKind, &'a Path),
    /// The device runtime (`libcudadevrt`) for dynamic parallelism: found in the toolkit,
    /// or at the path given.
    DeviceRuntime(Option<&'a Path>),
}

/// Options for [`Program::link`]: a builder.
#[derive(Clone, Debug)]
pub struct LinkOptions {
    arch: i32,
    flags: u32,
    optimization_level: i32,
    max_registers: i32,
    options: Vec<String>,
}

impl Default for LinkOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkOptions {
    /// The defaults (`DC_LINK_OPTIONS_INIT`): the device's architecture, the linker's `-O`.
    pub fn new() -> Self {
        LinkOptions { arch: 0, flags: 0, optimization_level: -1, max_registers: 0, options: Vec::new() }
    }
    /// Target architecture, 10 * major + minor (90 = sm_90).
    pub fn arch(mut self, arch: i32) -> Self {
        self.arch = arch;
        self
    }
    /// Adds `sys::DC_LINK_*` flags.
    pub fn flags(mut self, flags: u32) -> Self {
        self.flags |= flags;
        self
    }
    /// Links with the driver's cuLink even when nvJitLink is there.
    pub fn use_driver(self) -> Self {
        self.flags(sys::DC_LINK_USE_DRIVER)
    }
    /// Neither reads nor writes the kernel cache.
    pub fn no_cache(self) -> Self {
        self.flags(sys::DC_LINK_NO_CACHE)
    }
    /// `-O`: 0..3 (nvJitLink takes 0 and 3).
    pub fn optimization_level(mut self, level: i32) -> Self {
        self.optimization_level = level;
        self
    }
    /// `-maxrregcount`.
    pub fn max_registers(mut self, n: i32) -> Self {
        self.max_registers = n;
        self
    }
    /// A raw nvJitLink option.
    pub fn option(mut self, option: impl Into<String>) -> Self {
        self.options.push(option.into());
        self
    }
}

impl Program {
    /// Links `inputs` into one CUBIN (a program: `output()` is a CUBIN, `log()` the
    /// linker's info log). `device` supplies the architecture when the options name none,
    /// and the context the driver's cuLink links in. On `Status::COMPILE` (an undefined
    /// symbol...) [`Error::detail`](crate::Error::detail) holds the linker's error log.
    ///
    /// # Errors
    /// The library's status and message when [`dc_link`](crate::sys::dc_link) fails (the
    /// header's documentation, on the `sys` item, says when). A string holding a NUL byte is
    /// `INVALID_ARGUMENT`.
    pub fn link(inputs: &[LinkInput<'_>], options: Option<&LinkOptions>, device: Option<&Device>) -> Result<Program> {
        let defaults = LinkOptions::new();
        let o = options.unwrap_or(&defaults);
        // The C strings live until the call returns.
        let mut strings: Vec<CString> = Vec::new();
        let mut raw_inputs: Vec<sys::dc_link_input> = Vec::with_capacity(inputs.len());
        for input in inputs {
            let mut r = sys::dc_link_input {
                kind: 0,
                reserved: 0,
                program: std::ptr::null_mut(),
                data: std::ptr::null(),
                size: 0,
                path: std::ptr::null(),
                name: std::ptr::null(),
            };
            match *input {
                LinkInput::Program(p) => {
                    r.kind = sys::DC_LINK_INPUT_PROGRAM;
                    r.program = p.as_raw();
                }
                LinkInput::Bytes(kind, bytes, name) => {
                    r.kind = kind.raw();
                    r.data = bytes.as_ptr().cast();
                    r.size = bytes.len() as u64;
                    let n = c_string(name, "Program::link: an input's name")?;
                    r.name = n.as_ptr();
                    strings.push(n);
                }
                LinkInput::File(kind, path) => {
                    r.kind = kind.raw();
                    let p = c_path(path, "Program::link: an input's path")?;
                    r.path = p.as_ptr();
                    strings.push(p);
                }
                LinkInput::DeviceRuntime(path) => {
                    r.kind = sys::DC_LINK_INPUT_DEVICE_RUNTIME;
                    if let Some(path) = path {
                        let p = c_path(path, "Program::link: the device runtime's path")?;
                        r.path = p.as_ptr();
                        strings.push(p);
                    }
                }
            }
            raw_inputs.push(r);
        }
        let option_strings =
            o.options.iter().map(|s| c_string(s, "Program::link: an option")).collect::<Result<Vec<CString>>>()?;
        let option_ptrs: Vec<*const std::ffi::c_char> = option_strings.iter().map(|s| s.as_ptr()).collect();
        let c = sys::dc_link_options {
            arch: o.arch,
            flags: o.flags,
            optimization_level: o.optimization_level,
            max_registers: o.max_registers,
            num_options: option_ptrs.len() as u32,
            options: if option_ptrs.is_empty() { std::ptr::null() } else { option_ptrs.as_ptr() },
            ..sys::dc_link_options::default()
        };
        let mut raw = std::ptr::null_mut();
        check(unsafe {
            sys::dc_link(
                if raw_inputs.is_empty() { std::ptr::null() } else { raw_inputs.as_ptr() },
                raw_inputs.len() as u32,
                &c,
                device.map_or(std::ptr::null_mut(), |d| d.as_raw()),
                &mut raw,
            )
        })?;
        drop(strings);
        // SAFETY: dc_link succeeded: `raw` is a new program handle this call owns.
        Ok(unsafe { Program::from_raw(raw) })
    }
}

/// The version of the nvJitLink [`Program::link`] uses, `(0, 0)` when it cannot say.
///
/// # Errors
/// `NOT_SUPPORTED` without nvJitLink (the message says what was tried and what to do).
pub fn nvjitlink_version() -> Result<(i32, i32)> {
    let (mut major, mut minor) = (0, 0);
    check(unsafe { sys::dc_nvjitlink_version(&mut major, &mut minor) })?;
    Ok((major, minor))
}
