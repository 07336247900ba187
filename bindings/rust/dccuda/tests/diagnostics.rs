//! The log through a `Log` implementation, the live-handle report and telemetry (without
//! NVML in CI: every field unavailable with the reason).

mod common;

use std::sync::{Arc, Mutex};

use dccuda::{Level, Log, Record};

struct Collect(Arc<Mutex<Vec<String>>>);

impl Log for Collect {
    fn log(&self, record: &Record<'_>) {
        self.0.lock().unwrap().push(format!("{:?} {}: {}", record.level, record.category, record.message));
    }
}

#[test]
fn log_reaches_the_logger() {
    let lines = Arc::new(Mutex::new(Vec::new()));
    dccuda::set_logger(Box::new(Collect(lines.clone())), Level::Info).unwrap();
    let Some(device) = common::device() else { return };
    drop(dccuda::DeviceBuffer::<u8>::zeroed(&device, 4096).unwrap());
    device.trim_memory(0).unwrap();
    dccuda::clear_logger().unwrap();
    let lines = lines.lock().unwrap();
    assert!(
        lines.iter().any(|l| l.starts_with("Info pool: device 0: pool trimmed")),
        "no pool line in {lines:?}"
    );
}

#[test]
fn handle_report_names_a_live_buffer() {
    let Some(device) = common::device() else { return };
    let buffer = dccuda::DeviceBuffer::<u8>::zeroed(&device, 12345).unwrap();
    let report = dccuda::handle_report().unwrap();
    assert!(report.contains("12345 bytes of device memory"), "{report}");
    drop(buffer);
}

#[test]
fn telemetry_marks_what_is_missing() {
    let Some(device) = common::device() else { return };
    let t = device.telemetry().unwrap();
    match dccuda::telemetry_library() {
        Ok(_) => assert!(t.available(dccuda::sys::DC_TELEMETRY_FIELD_MEMORY)),
        Err(e) => {
            assert_eq!(e.status(), dccuda::Status::NOT_SUPPORTED);
            for f in 0..=dccuda::sys::DC_TELEMETRY_FIELD_NVLINK_TRAFFIC {
                assert_eq!(t.reason(f), dccuda::sys::DC_TELEMETRY_NO_NVML, "field {f}");
            }
        }
    }
}
