//! dc_init with explicit options, in its own process (init must come before any other call).

use dccuda::{InitOptions, Status};

#[test]
fn init_takes_options_once() {
    let cache = std::env::temp_dir().join(format!("dccuda-rust-init-{}", std::process::id()));
    let mut options = InitOptions::new().cache_dir(cache.to_string_lossy()).cache_max_bytes(64 << 20);
    if let Ok(driver) = std::env::var("DCCUDA_DRIVER_LIBRARY") {
        options = options.driver_library(driver);
    }
    match dccuda::init(&options) {
        Ok(()) => {}
        Err(e) => assert_eq!(e.status(), Status::NO_DRIVER, "{e:#}"),
    }
    assert_eq!(dccuda::cache_directory().unwrap(), cache.to_string_lossy());
    let e = dccuda::init(&InitOptions::new()).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_STATE, "{e}");
    assert!(e.message().contains("dc_init"), "{e}");
    let e = dccuda::init(&InitOptions::new().cache_dir("a\0b")).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    let _ = std::fs::remove_dir_all(&cache);
}
