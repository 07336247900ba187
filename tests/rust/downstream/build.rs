//! How a program of a dccuda user finds libdccuda.so.1 at run time without
//! LD_LIBRARY_PATH: its own run path, pointing at the folder it was linked from
//! (DCCUDA_LIB_DIR, the variable dccuda-sys links from). Installed system-wide
//! (ldconfig) or with LD_LIBRARY_PATH set, none of this is needed.
fn main() {
    println!("cargo:rerun-if-env-changed=DCCUDA_LIB_DIR");
    if let Some(dir) = std::env::var_os("DCCUDA_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = std::path::PathBuf::from(dir);
        let dir = dir.canonicalize().unwrap_or(dir);
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{}", dir.display());
    }
}
