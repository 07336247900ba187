//! The generated files (src/generated.rs, layout/layout_fields.inc and the rest of abi/gen.py's
//! outputs) must be what abi/gen.py makes from the header today: a header change without
//! regenerating fails here (and in CTest's gen.check).

use std::path::Path;
use std::process::Command;

#[test]
fn generated_declarations_are_current() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../abi/gen.py");
    if !script.is_file() {
        eprintln!("SKIPPED: {} does not exist (a copy of the crate outside dccuda's repository)", script.display());
        return;
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let out = match Command::new(&python).arg(&script).arg("--check").output() {
        Ok(out) => out,
        Err(e) => {
            // Without Python the check cannot run; CI has Python (the ABI check needs it).
            eprintln!("SKIPPED: {python} could not run ({e}); cannot check src/generated.rs");
            return;
        }
    };
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
