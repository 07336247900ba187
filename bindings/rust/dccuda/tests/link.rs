//! Linking (real nvJitLink, also in CI; the driver's cuLink through the fake driver):
//! LTO-IR and relocatable code of two programs into one CUBIN that loads as a module.

mod common;

use dccuda::{
    nvjitlink_version, CacheSource, CompileOptions, LinkInput, LinkInputKind, LinkOptions, Module, Output, Program,
    Status,
};

const CALLEE: &str = "extern \"C\" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }";
const CALLER: &str = "extern \"C\" __device__ float axpy_one(float a, float x, float y);\n\
    extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n) {\n\
      int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
      if (i < n) y[i] = axpy_one(a, x[i], y[i]);\n\
    }\n";

fn tools_or_skip(need_nvjitlink: bool) -> bool {
    if let Err(e) = dccuda::nvrtc_version() {
        assert_eq!(e.status(), Status::NO_COMPILER, "{e:#}");
        eprintln!("SKIPPED: no NVRTC ({e})");
        return false;
    }
    if need_nvjitlink {
        if let Err(e) = nvjitlink_version() {
            assert_eq!(e.status(), Status::NOT_SUPPORTED, "{e:#}");
            eprintln!("SKIPPED: no nvJitLink ({e})");
            return false;
        }
    }
    true
}

#[test]
fn lto_ir_of_two_programs_links_and_loads() {
    let Some(device) = common::device() else { return };
    if !tools_or_skip(true) {
        return;
    }
    let o = CompileOptions::new().output(Output::LtoIr).flags(dccuda::sys::DC_COMPILE_RELOCATABLE).no_cache();
    let caller = Program::compile(CALLER, &o, Some(&device)).unwrap();
    let callee = Program::compile(CALLEE, &o, Some(&device)).unwrap();
    let (_, callee_bytes) = callee.output().unwrap();
    let inputs = [LinkInput::Program(&caller), LinkInput::Bytes(LinkInputKind::LtoIr, callee_bytes, "callee")];
    let linked = Program::link(&inputs, Some(&LinkOptions::new().no_cache()), Some(&device)).unwrap();
    assert_eq!(linked.output().unwrap().0, Output::Cubin);
    assert_eq!(linked.cache_source().unwrap(), CacheSource::Miss);
    let module = Module::load_program(&device, &linked, None).unwrap();
    module.function("saxpy").unwrap();
}

#[test]
fn relocatable_cubins_link_with_the_driver() {
    let Some(device) = common::device() else { return };
    if !tools_or_skip(false) {
        return;
    }
    let o = CompileOptions::new().flags(dccuda::sys::DC_COMPILE_RELOCATABLE).no_cache();
    let caller = Program::compile(CALLER, &o, Some(&device)).unwrap();
    let callee = Program::compile(CALLEE, &o, Some(&device)).unwrap();
    let inputs = [LinkInput::Program(&caller), LinkInput::Program(&callee)];
    let linked = Program::link(&inputs, Some(&LinkOptions::new().use_driver().no_cache()), Some(&device)).unwrap();
    let module = Module::load_program(&device, &linked, None).unwrap();
    module.function("saxpy").unwrap();
}

#[test]
fn an_undefined_symbol_fails_with_the_log() {
    let Some(device) = common::device() else { return };
    if !tools_or_skip(true) {
        return;
    }
    let o = CompileOptions::new().flags(dccuda::sys::DC_COMPILE_RELOCATABLE).no_cache();
    let caller = Program::compile(CALLER, &o, Some(&device)).unwrap();
    let e = Program::link(&[LinkInput::Program(&caller)], None, Some(&device)).unwrap_err();
    assert_eq!(e.status(), Status::COMPILE, "{e:#}");
    assert!(e.detail().contains("axpy_one"), "{}", e.detail());
    let e = Program::link(&[], None, Some(&device)).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e:#}");
}

#[test]
fn nvrtc_lists_its_architectures() {
    if !tools_or_skip(false) {
        return;
    }
    let archs = dccuda::nvrtc_supported_archs().unwrap();
    assert!(archs.windows(2).all(|w| w[0] < w[1]), "{archs:?}");
    assert!(archs.contains(&90), "{archs:?}");
}
