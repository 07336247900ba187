//! Writes the run path dccuda-sys chose (the folder libdccuda was linked from, or
//! $DCCUDA_RPATH) into this crate's tests and examples, so they run from the build tree
//! without LD_LIBRARY_PATH. Link arguments of a build script apply only to its own package,
//! hence this second script; dccuda-sys passes the path on as `links` metadata.
fn main() {
    println!("cargo:rerun-if-env-changed=DCCUDA_RPATH");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(os.as_str(), "windows" | "macos" | "ios") {
        return;
    }
    if let Ok(rpath) = std::env::var("DEP_DCCUDA_RPATH") {
        if !rpath.is_empty() {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{rpath}");
        }
    }
}
