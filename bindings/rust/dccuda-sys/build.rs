//! Finds libdccuda for the linker, and measures the C layout of the public structs for the
//! layout test.
//!
//! The library is looked for, in order:
//!   1. `DCCUDA_LIB_DIR`: a folder holding libdccuda.so (or only libdccuda.so.1);
//!   2. `DCCUDA_LIBRARY`: the library file itself (what abi/check_abi.py sets too);
//!   3. `pkg-config --libs dccuda` (an installed dccuda; PKG_CONFIG names another pkg-config).
//!
//! Without any of them the crate still builds, without linking the library, and a warning
//! says what to set: `cargo check`, `cargo doc`, rust-analyzer and docs.rs need no library
//! (a program linked that way fails at link time, with dc_* undefined, after that warning).
//! Under docs.rs (`DOCS_RS`) or with the feature `no-link` nothing is looked for at all: for
//! documentation, or for a program that links libdccuda by its own means.
//!
//! The folder is also written into the run path of this package's tests and examples and
//! passed on to dependent crates (`DEP_DCCUDA_LIB_DIR`), so that they run from the build
//! tree without LD_LIBRARY_PATH. `DCCUDA_RPATH` replaces that run path (for example
//! `$ORIGIN/../../lib` for a bundle); `DCCUDA_RPATH=none` leaves it out.
//!
//! The layout reference: abi/layout_c.c (the ABI check's own C program) is compiled with the
//! header and `layout/layout_fields.inc` and run; its output goes to `$OUT_DIR/c_layout.txt`,
//! which tests/layout.rs compares with the Rust structs. If that fails, the file says why
//! and the test fails with it: the build itself does not.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Found {
    dirs: Vec<PathBuf>,
}

fn main() {
    for var in [
        "DCCUDA_LIB_DIR",
        "DCCUDA_LIBRARY",
        "DCCUDA_INCLUDE_DIR",
        "DCCUDA_RPATH",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "CC",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-env-changed=DOCS_RS");
    println!("cargo:rerun-if-changed=build.rs");

    let include = include_dir();
    if let Some(inc) = &include {
        println!("cargo:include={}", inc.display());
    }
    if env::var_os("DOCS_RS").is_some() || env::var_os("CARGO_FEATURE_NO_LINK").is_some() {
        // Documentation, or a program that links libdccuda itself: no search, no link.
        if env::var_os("DOCS_RS").is_some() {
            write_layout_report("# error: not measured under docs.rs\n");
        } else {
            measure_c_layout(include.as_deref());
        }
        return;
    }
    let found = match find_library() {
        Ok(found) => found,
        Err(why) => {
            // No exit: checking, documenting and analysing the crate need no library.
            println!("cargo:warning=dccuda-sys: libdccuda not found, so it is not linked ({why}). Checking and documenting work; to link a program, build the library and set DCCUDA_LIB_DIR to its folder (or DCCUDA_LIBRARY to the file, or install dccuda.pc for pkg-config).");
            measure_c_layout(include.as_deref());
            return;
        }
    };
    let joined = env::join_paths(&found.dirs).expect("library folders contain no path separator");
    // Dependent crates read this as DEP_DCCUDA_LIB_DIR (the `links` metadata).
    println!("cargo:lib_dir={}", joined.to_string_lossy());
    let rpath = run_path(&found.dirs);
    if let Some(rpath) = &rpath {
        println!("cargo:rpath={rpath}");
        if target_is_elf() {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{rpath}");
        }
    }

    measure_c_layout(include.as_deref());
}

fn target_is_elf() -> bool {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    !matches!(os.as_str(), "windows" | "macos" | "ios")
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
}

/// The repository root, when the crate is inside dccuda's repository.
fn repo_root() -> Option<PathBuf> {
    let root = manifest_dir().join("../../..");
    root.join("include/dccuda.h").is_file().then(|| root.canonicalize().unwrap_or(root))
}

fn link_in(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
    let windows = env::var("CARGO_CFG_TARGET_OS").map(|os| os == "windows").unwrap_or(false);
    if windows || dir.join("libdccuda.so").exists() || dir.join("libdccuda.dylib").exists() {
        println!("cargo:rustc-link-lib=dylib=dccuda");
        Ok(())
    } else if dir.join("libdccuda.so.1").exists() {
        // Only the SONAME file (no development link): name it exactly.
        println!("cargo:rustc-link-lib=dylib:+verbatim=libdccuda.so.1");
        Ok(())
    } else {
        Err(format!("{} holds neither libdccuda.so nor libdccuda.so.1", dir.display()))
    }
}

fn find_library() -> Result<Found, String> {
    if let Some(dir) = env::var_os("DCCUDA_LIB_DIR").filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        link_in(&dir).map_err(|e| format!("DCCUDA_LIB_DIR: {e}"))?;
        return Ok(Found { dirs: vec![dir] });
    }
    if let Some(file) = env::var_os("DCCUDA_LIBRARY").filter(|v| !v.is_empty()) {
        let file = PathBuf::from(file);
        if !file.is_file() {
            return Err(format!("DCCUDA_LIBRARY: {} is not a file", file.display()));
        }
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        println!("cargo:rustc-link-search=native={}", dir.display());
        if name == "libdccuda.so" || name == "dccuda.dll" || name == "dccuda.lib" {
            println!("cargo:rustc-link-lib=dylib=dccuda");
        } else {
            println!("cargo:rustc-link-lib=dylib:+verbatim={name}");
        }
        return Ok(Found { dirs: vec![dir] });
    }
    pkg_config()
}

/// `pkg-config --libs dccuda`, run as a process (no crates).
fn pkg_config() -> Result<Found, String> {
    let tool = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let out = Command::new(&tool)
        .args(["--libs", "dccuda"])
        .output()
        .map_err(|e| format!("DCCUDA_LIB_DIR and DCCUDA_LIBRARY are not set, and `{tool}` could not run ({e})"))?;
    if !out.status.success() {
        return Err(format!(
            "DCCUDA_LIB_DIR and DCCUDA_LIBRARY are not set, and `{tool} --libs dccuda` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut dirs = Vec::new();
    let mut linked = false;
    for word in text.split_whitespace() {
        if let Some(dir) = word.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
            dirs.push(PathBuf::from(dir));
        } else if let Some(lib) = word.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
            linked |= lib == "dccuda";
        }
    }
    if !linked {
        return Err(format!("`{tool} --libs dccuda` printed `{}`, without -ldccuda", text.trim()));
    }
    Ok(Found { dirs })
}

fn run_path(dirs: &[PathBuf]) -> Option<String> {
    match env::var("DCCUDA_RPATH") {
        Ok(v) if v == "none" => None,
        Ok(v) if !v.is_empty() => Some(v),
        _ if dirs.is_empty() => None,
        _ => {
            let abs: Vec<PathBuf> = dirs.iter().map(|d| d.canonicalize().unwrap_or_else(|_| d.clone())).collect();
            Some(env::join_paths(abs).ok()?.to_string_lossy().into_owned())
        }
    }
}

fn include_dir() -> Option<PathBuf> {
    if let Some(dir) = env::var_os("DCCUDA_INCLUDE_DIR").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(root) = repo_root() {
        return Some(root.join("include"));
    }
    let tool = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let out = Command::new(tool).args(["--cflags-only-I", "dccuda"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split_whitespace()
        .filter_map(|w| w.strip_prefix("-I"))
        .map(PathBuf::from)
        .find(|d| d.join("dccuda.h").is_file())
}

fn write_layout_report(text: &str) {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out_dir.join("c_layout.txt"), text).expect("write c_layout.txt");
}

/// Compiles and runs abi/layout_c.c; writes its output (or why there is none) to
/// $OUT_DIR/c_layout.txt.
fn measure_c_layout(include: Option<&Path>) {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let report = out_dir.join("c_layout.txt");
    let fields = manifest_dir().join("layout");
    println!("cargo:rerun-if-changed={}", fields.join("layout_fields.inc").display());
    let result = (|| -> Result<String, String> {
        if env::var("HOST").ok() != env::var("TARGET").ok() {
            return Err("cross-compiling: the C layout is measured only for native builds".into());
        }
        let include = include.ok_or("dccuda.h not found (set DCCUDA_INCLUDE_DIR)")?;
        let program = repo_root()
            .map(|r| r.join("abi/layout_c.c"))
            .filter(|p| p.is_file())
            .ok_or("abi/layout_c.c not found: the layout test runs inside dccuda's repository")?;
        println!("cargo:rerun-if-changed={}", include.join("dccuda.h").display());
        println!("cargo:rerun-if-changed={}", program.display());
        let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
        let exe = out_dir.join("layout_c");
        let compiled = Command::new(&cc)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(include)
            .arg("-I")
            .arg(&fields)
            .arg(&program)
            .arg("-o")
            .arg(&exe)
            .output()
            .map_err(|e| format!("{cc} could not run: {e}"))?;
        if !compiled.status.success() {
            return Err(format!(
                "{cc} failed on {}:\n{}",
                program.display(),
                String::from_utf8_lossy(&compiled.stderr)
            ));
        }
        let ran = Command::new(&exe).output().map_err(|e| format!("{} could not run: {e}", exe.display()))?;
        if !ran.status.success() {
            return Err(format!("{} exited with {}", exe.display(), ran.status));
        }
        Ok(String::from_utf8_lossy(&ran.stdout).into_owned())
    })();
    let text = match result {
        Ok(text) => text,
        Err(why) => {
            println!("cargo:warning=dccuda-sys: no C layout reference: {}", why.lines().next().unwrap_or(""));
            why.lines().map(|l| format!("# error: {l}\n")).collect()
        }
    };
    fs::write(&report, text).expect("write c_layout.txt");
}
