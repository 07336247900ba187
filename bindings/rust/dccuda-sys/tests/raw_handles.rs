//! The raw level: what the safe crate cannot express (a handle used after release, NULL
//! out-pointers) is answered cleanly by the library.

use dccuda_sys::*;
use std::ffi::CStr;
use std::ptr;

fn last_message() -> String {
    unsafe { CStr::from_ptr(dc_last_error_message()) }.to_string_lossy().into_owned()
}

fn device_count() -> i32 {
    let mut n = 0;
    if unsafe { dc_device_count(&mut n) } != DC_SUCCESS {
        return 0;
    }
    n
}

#[test]
fn version_matches_the_header() {
    assert_eq!(unsafe { dc_version() } / 1_000_000, DCCUDA_VERSION_MAJOR);
    assert_eq!(unsafe { dc_version() }, DCCUDA_VERSION);
}

#[test]
fn status_names_come_from_the_library() {
    let name = unsafe { CStr::from_ptr(dc_status_name(DC_ERROR_INVALID_HANDLE)) };
    assert_eq!(name.to_str().unwrap(), "DC_ERROR_INVALID_HANDLE");
    let unknown = unsafe { CStr::from_ptr(dc_status_name(-12345)) };
    assert_eq!(unknown.to_str().unwrap(), "DC_STATUS_UNKNOWN");
}

#[test]
fn a_released_device_handle_is_invalid_not_a_crash() {
    if device_count() < 1 {
        eprintln!("SKIPPED: needs a CUDA device (real or fake)");
        return;
    }
    let mut device: dc_device = ptr::null_mut();
    assert_eq!(unsafe { dc_device_open(0, &mut device) }, DC_SUCCESS, "{}", last_message());
    let mut buffer: dc_buffer = ptr::null_mut();
    assert_eq!(unsafe { dc_buffer_alloc(device, 256, 0, &mut buffer) }, DC_SUCCESS, "{}", last_message());
    unsafe { dc_buffer_release(buffer) };
    unsafe { dc_device_release(device) };

    let mut size = 99u64;
    let status = unsafe { dc_buffer_size(buffer, &mut size) };
    assert_eq!(status, DC_ERROR_INVALID_HANDLE);
    assert_eq!(size, 0, "out-pointers are zeroed on failure");
    assert!(last_message().contains("dc_buffer_size"), "{}", last_message());
    assert_eq!(unsafe { dc_last_error_status() }, DC_ERROR_INVALID_HANDLE);

    let mut info = dc_device_info::default();
    assert_eq!(unsafe { dc_device_get_info(device, &mut info) }, DC_ERROR_INVALID_HANDLE);
    assert!(last_message().contains("dc_device_get_info"), "{}", last_message());

    // Releasing twice does nothing, and never touches the last error.
    unsafe { dc_buffer_release(buffer) };
    unsafe { dc_device_release(device) };
    assert_eq!(unsafe { dc_last_error_status() }, DC_ERROR_INVALID_HANDLE);

    // A handle of one type used as another: the value is a device handle, the call wants a stream.
    let mut d2: dc_device = ptr::null_mut();
    assert_eq!(unsafe { dc_device_open(0, &mut d2) }, DC_SUCCESS);
    let status = unsafe { dc_stream_synchronize(d2 as dc_stream) };
    assert_eq!(status, DC_ERROR_INVALID_HANDLE, "{}", last_message());
    unsafe { dc_device_release(d2) };
}

#[test]
fn null_out_pointers_are_invalid_arguments() {
    assert_eq!(unsafe { dc_device_count(ptr::null_mut()) }, DC_ERROR_INVALID_ARGUMENT);
    assert!(last_message().contains("dc_device_count"), "{}", last_message());
    let mut count = 7u64;
    assert_eq!(unsafe { dc_handle_count(999, &mut count) }, DC_ERROR_INVALID_ARGUMENT);
    assert_eq!(count, 0);
}
