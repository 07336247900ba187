//! dc_init with explicit options, in its own process (init must come before any other call).

use dccuda::{InitOptions, Status};

/// A folder name that is not UTF-8 (byte 0xff), as a Unix file name may be: it must reach
/// the library, and come back, byte for byte.
fn cache_folder() -> std::path::PathBuf {
    #[cfg(unix)]
    let name = {
        use std::os::unix::ffi::OsStrExt;
        let bytes = format!("dccuda-rust-init-{}-", std::process::id()).into_bytes();
        std::ffi::OsString::from(std::ffi::OsStr::from_bytes(&[bytes.as_slice(), b"\xff"].concat()))
    };
    #[cfg(not(unix))]
    let name = std::ffi::OsString::from(format!("dccuda-rust-init-{}", std::process::id()));
    std::env::temp_dir().join(name)
}

#[test]
fn init_takes_options_once() {
    let cache = cache_folder();
    let mut options = InitOptions::new().cache_dir(&cache).cache_max_bytes(64 << 20);
    if let Ok(driver) = std::env::var("DCCUDA_DRIVER_LIBRARY") {
        options = options.driver_library(driver);
    }
    match dccuda::init(&options) {
        Ok(()) => {}
        Err(e) => assert_eq!(e.status(), Status::NO_DRIVER, "{e:#}"),
    }
    assert_eq!(dccuda::cache_directory_path().unwrap(), cache, "the folder, byte for byte");
    assert_eq!(dccuda::cache_directory().unwrap(), cache.to_string_lossy(), "the lossy String form");
    let e = dccuda::init(&InitOptions::new()).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
    assert!(e.message().contains("dc_init"), "{e}");
    let e = dccuda::init(&InitOptions::new().cache_dir("a\0b")).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    let _ = std::fs::remove_dir_all(&cache);
}
