//! NVRTC compilation (real NVRTC, also in CI), the kernel cache, modules and functions.

mod common;

use dccuda::{CacheSource, CompileOptions, Error, Module, ModuleOptions, Output, Program, Status};

fn nvrtc_or_skip() -> bool {
    match dccuda::nvrtc_version() {
        Ok(_) => true,
        Err(e) => {
            assert_eq!(e.status(), Status::NO_COMPILER, "{e:#}");
            eprintln!("SKIPPED: no NVRTC ({e})");
            false
        }
    }
}

#[test]
fn ptx_without_a_device_names_the_kernel() {
    if !nvrtc_or_skip() {
        return;
    }
    let options = CompileOptions::new().output(Output::Ptx).arch(80).name("saxpy.cu").no_cache();
    let program = Program::compile(common::SAXPY, &options, None).unwrap();
    let (kind, bytes) = program.output().unwrap();
    assert_eq!(kind, Output::Ptx);
    assert_eq!(bytes.last(), Some(&0), "PTX is NUL-terminated");
    let text = std::str::from_utf8(&bytes[..bytes.len() - 1]).unwrap();
    assert!(text.contains(".entry saxpy"), "{text}");
    assert_eq!(program.cache_source().unwrap(), CacheSource::Miss);
    program.log().unwrap();
}

#[test]
fn a_compile_error_carries_the_log() {
    if !nvrtc_or_skip() {
        return;
    }
    let bad = "extern \"C\" __global__ void broken(int* p) { p[0] = undeclared_name; }";
    let options = CompileOptions::new().output(Output::Ptx).arch(80).name("broken.cu");
    let e: Error = Program::compile(bad, &options, None).unwrap_err();
    assert_eq!(e.status(), Status::COMPILE);
    assert!(e.message().contains("dc_compile"), "{e}");
    assert!(e.message().contains("undeclared_name"), "first error line in the message: {e}");
    assert!(e.detail().contains("broken.cu"), "the whole log: {}", e.detail());
    assert!(e.detail().contains("undeclared_name"), "{}", e.detail());
    assert_ne!(e.nvrtc_error(), 0, "the raw nvrtcResult");
    let shown = format!("{e:#}");
    assert!(shown.starts_with("DC_ERROR_COMPILE: ") && shown.contains(e.detail()), "{shown}");
}

#[test]
fn strings_with_nul_are_refused_before_the_library() {
    let e = Program::compile("a\0b", &CompileOptions::new(), None).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("NUL"), "{e}");
    let e = Program::compile("x", &CompileOptions::new().define("A\0"), None).unwrap_err();
    assert!(e.message().contains("define"), "{e}");
}

#[test]
fn options_headers_defines_and_lowered_names() {
    if !nvrtc_or_skip() {
        return;
    }
    let source = r#"
#include "scale.h"
template <typename T> __global__ void scale(T* p, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * f + OFFSET;
}
"#;
    let options = CompileOptions::new()
        .output(Output::Ptx)
        .arch(80)
        .std("c++17")
        .define("OFFSET=SCALE_OFFSET")
        .header("scale.h", "#define SCALE_OFFSET 0")
        .option("--device-as-default-execution-space")
        .fast_math()
        .max_registers(64)
        .name_expression("scale<float>")
        .no_cache();
    let program = Program::compile(source, &options, None).unwrap();
    let lowered = program.lowered_name("scale<float>").unwrap();
    assert!(lowered.starts_with("_Z") && lowered.contains("scale"), "{lowered}");
    let (_, ptx) = program.output().unwrap();
    assert!(String::from_utf8_lossy(ptx).contains(&lowered));
    let e = program.lowered_name("scale<double>").unwrap_err();
    assert_eq!(e.status(), Status::NOT_FOUND, "{e}");
}

#[test]
fn the_cache_answers_an_identical_compile() {
    if !nvrtc_or_skip() {
        return;
    }
    // Unique source per run so that a disk entry of an earlier run does not answer first.
    let tag = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
    let source = format!("{}\n// {tag}\n", common::SAXPY);
    let options = CompileOptions::new().output(Output::Ptx).arch(80);
    let first = Program::compile(&source, &options, None).unwrap();
    assert_eq!(first.cache_source().unwrap(), CacheSource::Miss);
    let second = Program::compile(&source, &options, None).unwrap();
    assert_eq!(second.cache_source().unwrap(), CacheSource::Memory);
    assert_eq!(first.output().unwrap().1, second.output().unwrap().1);
    dccuda::cache_directory().unwrap();
}

#[test]
fn modules_list_and_describe_their_kernels() {
    if !nvrtc_or_skip() {
        return;
    }
    let Some(device) = common::device() else { return };
    let source = format!("{}\n__device__ float table[8];\nextern \"C\" __global__ void empty() {{}}\n", common::SAXPY);
    let program = Program::compile(&source, &CompileOptions::new(), Some(&device)).unwrap();
    assert_eq!(program.output().unwrap().0, Output::Cubin);
    let module = Module::load_program(&device, &program, Some(&ModuleOptions::new().log_size(4096))).unwrap();
    let mut names = module.function_names().unwrap();
    names.sort();
    assert_eq!(names, ["empty", "saxpy"]);
    let saxpy = module.function("saxpy").unwrap();
    assert_eq!(saxpy.name().unwrap(), "saxpy");
    assert_eq!(saxpy.param_count().unwrap(), 4);
    // float a, const float* x, float* y, int n: the C layout.
    let layout: Vec<(u64, u64)> = (0..4).map(|i| saxpy.param_info(i).unwrap()).collect();
    assert_eq!(layout, [(0, 4), (8, 8), (16, 8), (24, 4)]);
    let info = saxpy.info().unwrap();
    assert_eq!(info.num_params, 4);
    assert!(info.max_threads_per_block > 0);
    assert_eq!(saxpy.param_info(4).unwrap_err().status(), Status::OUT_OF_RANGE);
    assert!(!saxpy.native().unwrap().is_null());

    let e = module.function("sxapy").unwrap_err();
    assert_eq!(e.status(), Status::NOT_FOUND);
    assert!(e.message().contains("saxpy"), "the message lists the kernels: {e}");

    let mut table = module.global::<f32>("table").unwrap();
    assert_eq!(table.len(), 8);
    table.copy_from_slice(&[0.5; 8]).unwrap();
    assert_eq!(table.to_vec().unwrap(), vec![0.5; 8]);
    let e = module.global::<[f32; 3]>("table").unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "32 bytes are not whole [f32; 3]s: {e}");
}

#[test]
fn modules_load_from_memory_files_and_source() {
    if !nvrtc_or_skip() {
        return;
    }
    let Some(device) = common::device() else { return };
    let ptx = Program::compile(common::SAXPY, &CompileOptions::new().output(Output::Ptx), Some(&device)).unwrap();
    let (_, bytes) = ptx.output().unwrap();
    let from_memory = Module::load(&device, bytes, None).unwrap();
    from_memory.function("saxpy").unwrap();
    from_memory.jit_log().unwrap();

    let path = std::env::temp_dir().join(format!("dccuda-rust-{}.ptx", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let from_file = Module::load_file(&device, &path, None);
    std::fs::remove_file(&path).unwrap();
    from_file.unwrap().function("saxpy").unwrap();

    // A file name that is not UTF-8 reaches the library byte for byte (to_string_lossy
    // would have named another file).
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = [format!("dccuda-rust-{}-", std::process::id()).as_bytes(), b"\xfe.ptx"].concat();
        let odd = std::env::temp_dir().join(std::ffi::OsStr::from_bytes(&name));
        std::fs::write(&odd, bytes).unwrap();
        let loaded = Module::load_file(&device, &odd, &ModuleOptions::new());
        std::fs::remove_file(&odd).unwrap();
        loaded.unwrap().function("saxpy").unwrap();
    }

    // Options the same way everywhere: &options, Some(&options) or None.
    let compiled = Module::compile_and_load(&device, common::SAXPY, &CompileOptions::new()).unwrap();
    assert_eq!(compiled.function_count().unwrap(), 1);
    let compiled = Module::compile_and_load(&device, common::SAXPY, None).unwrap();
    assert_eq!(compiled.function_count().unwrap(), 1);
    Module::load(&device, bytes, Some(&ModuleOptions::new())).unwrap();
    Program::compile(common::SAXPY, None, Some(&device)).unwrap();

    let e = Module::load(&device, b"this is not an image", None).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_IMAGE, "{e:#}");
    let e = Module::load_file(&device, "/nonexistent/kernels.ptx", None).unwrap_err();
    assert!(matches!(e.status(), Status::IO | Status::NOT_FOUND), "{e}");
}
