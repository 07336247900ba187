//! Errors carry the library's status, message and raw codes; Status names come from the
//! library.

mod common;

use dccuda::{Device, Status};

#[test]
fn a_bad_ordinal_is_no_device_with_the_value_in_the_message() {
    if common::device().is_none() {
        return;
    }
    let n = Device::count().unwrap();
    let e = Device::open(n + 5).unwrap_err();
    assert_eq!(e.status(), Status::NO_DEVICE, "{e:#}");
    assert!(e.message().starts_with("dc_device_open"), "{e}");
    assert!(e.message().contains(&(n + 5).to_string()), "names the ordinal: {e}");
    assert_eq!(e.nvrtc_error(), 0);
    assert_eq!(e.detail(), "");
    assert_eq!(format!("{e}"), format!("DC_ERROR_NO_DEVICE: {}", e.message()));
    let debug = format!("{e:?}");
    assert!(debug.contains("NO_DEVICE") && debug.contains("message"), "{debug}");
}

#[test]
fn status_names_and_values() {
    assert_eq!(Status::OUT_OF_RANGE.name(), "DC_ERROR_OUT_OF_RANGE");
    assert_eq!(Status::SUCCESS.name(), "DC_SUCCESS");
    assert_eq!(Status(-9999).name(), "DC_STATUS_UNKNOWN");
    assert_eq!(format!("{:?}", Status::INVALID_HANDLE), "DC_ERROR_INVALID_HANDLE(-2)");
    assert_eq!(Status::IO.0, dccuda::sys::DC_ERROR_IO);
}

#[test]
fn cuda_error_names_come_from_the_library() {
    assert_eq!(dccuda::cuda_error_name(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
    assert_eq!(dccuda::cuda_error_name(0), "CUDA_SUCCESS");
    assert_eq!(dccuda::cuda_error_name(123_456), "CUDA_RESULT_UNKNOWN");
}

#[test]
fn the_header_and_library_versions_agree() {
    assert_eq!(dccuda::version() / 1_000_000, dccuda::header_version() / 1_000_000, "same major version");
    assert!(dccuda::version() >= dccuda::header_version(), "the library is at least as new as the header");
}

#[test]
fn a_driver_error_is_reported_by_device_queries() {
    let Some(device) = common::device() else { return };
    // An attribute number no driver knows.
    let e = device.attribute(1_000_000).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT, "{e:#}");
    assert!(e.message().contains("dc_device_attribute"), "{e}");
}
