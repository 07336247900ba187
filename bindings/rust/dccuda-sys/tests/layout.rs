//! Every public struct as Rust lays it out, against what the C compiler says for the header
//! (build.rs compiles abi/layout_c.c with layout/layout_fields.inc and records its output).

use std::collections::BTreeMap;

const C_LAYOUT: &str = include_str!(concat!(env!("OUT_DIR"), "/c_layout.txt"));

/// "struct NAME size S align A" and "field NAME.F offset O size S", keyed by the
/// struct (fields in declaration order).
type Layout = BTreeMap<String, (String, Vec<String>)>;

fn parse(text: &str) -> Layout {
    let mut out = Layout::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "struct" => {
                out.insert(words[1].to_string(), (line.to_string(), Vec::new()));
            }
            "field" => {
                let owner = words[1].split('.').next().unwrap();
                out.get_mut(owner)
                    .unwrap_or_else(|| panic!("field line before its struct: {line}"))
                    .1
                    .push(line.to_string());
            }
            _ => panic!("unexpected layout line: {line}"),
        }
    }
    out
}

/// Every difference between the two layouts, one line each.
fn differences(c: &Layout, rust: &Layout) -> Vec<String> {
    let mut diffs = Vec::new();
    for (name, (c_line, c_fields)) in c {
        match rust.get(name) {
            None => diffs.push(format!("{name}: in the header, not in dccuda-sys")),
            Some((r_line, r_fields)) => {
                if c_line != r_line {
                    diffs.push(format!("C `{c_line}` / Rust `{r_line}`"));
                }
                if c_fields != r_fields {
                    diffs.push(format!("{name} fields: C {c_fields:?} / Rust {r_fields:?}"));
                }
            }
        }
    }
    for name in rust.keys().filter(|n| !c.contains_key(*n)) {
        diffs.push(format!("{name}: in dccuda-sys, not in the header"));
    }
    diffs
}

#[test]
fn every_struct_matches_the_c_layout() {
    let errors: Vec<&str> = C_LAYOUT.lines().filter(|l| l.starts_with("# error")).collect();
    assert!(errors.is_empty(), "no C layout to compare with:\n{}", errors.join("\n"));
    let c = parse(C_LAYOUT);
    assert!(c.len() >= 7, "the C program printed {} structs:\n{C_LAYOUT}", c.len());
    let rust = parse(&dccuda_sys::layout::report());
    let diffs = differences(&c, &rust);
    assert!(diffs.is_empty(), "Rust and C layouts differ:\n{}", diffs.join("\n"));
    for (name, (_, fields)) in &c {
        assert!(!fields.is_empty(), "{name} has no fields in the C report");
    }
}

#[test]
fn the_comparison_sees_a_wrong_offset_a_missing_field_and_a_missing_struct() {
    let rust = dccuda_sys::layout::report();
    let moved = rust.replacen("field dc_arg.offset offset 24", "field dc_arg.offset offset 20", 1);
    assert_ne!(moved, rust, "the report has dc_arg.offset at 24");
    assert!(!differences(&parse(&rust), &parse(&moved)).is_empty());
    let dropped: String =
        rust.lines().filter(|l| !l.starts_with("field dc_launch_config.priority")).map(|l| format!("{l}\n")).collect();
    assert!(!differences(&parse(&rust), &parse(&dropped)).is_empty());
    let no_struct: String =
        rust.lines().filter(|l| !l.contains("dc_module_options")).map(|l| format!("{l}\n")).collect();
    assert!(!differences(&parse(&rust), &parse(&no_struct)).is_empty());
}

#[test]
fn init_defaults_match_the_header_macros() {
    use dccuda_sys::*;
    use std::mem::size_of;
    let c = dc_launch_config::default();
    assert_eq!(c.struct_size as usize, size_of::<dc_launch_config>());
    assert_eq!((c.grid, c.block, c.cluster), ([1, 1, 1], [1, 1, 1], [0, 0, 0]));
    let m = dc_module_options::default();
    assert_eq!((m.struct_size as usize, m.optimization_level), (size_of::<dc_module_options>(), -1));
    let o = dc_compile_options::default();
    assert_eq!((o.struct_size as usize, o.output), (size_of::<dc_compile_options>(), DC_OUTPUT_CUBIN));
    assert!(o.options.is_null() && o.std.is_null());
    assert_eq!(dc_device_info::default().struct_size as usize, size_of::<dc_device_info>());
    assert_eq!(dc_function_info::default().struct_size as usize, size_of::<dc_function_info>());
    assert_eq!(dc_init_options::default().struct_size as usize, size_of::<dc_init_options>());
}
