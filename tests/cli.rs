//! The command-line contract of `ptxvm check` (docs/launch-spec.md): exit codes,
//! silence on success, and the `FILE:LINE:COL: error: ` diagnostic with a caret.

use std::process::{Command, Output};

fn ptxvm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm")).args(args).output().expect("ptxvm runs")
}

fn write_tmp(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("ptxvm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

#[test]
fn valid_module_prints_nothing_and_exits_0() {
    let out = ptxvm(&["check", "examples/saxpy.ptx"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn invalid_module_exits_1_with_located_diagnostic_and_caret() {
    let src = format!(
        "{HEADER}.visible .entry k()\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\tsetp.lt.b32 %p1, %r1, %r2;\n\tret;\n}}\n"
    );
    let path = write_tmp("bad.ptx", src.as_bytes());
    let out = ptxvm(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let mut lines = err.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!("{path}:8:6: error: setp.lt.b32: ordering comparison on a bit-size type")
    );
    assert_eq!(lines.next().unwrap(), "8 | \tsetp.lt.b32 %p1, %r1, %r2;");
    assert_eq!(lines.next().unwrap(), "  | \t    ^^^");
    assert!(out.stdout.is_empty());
}

#[test]
fn every_error_in_the_file_is_reported() {
    let src = format!(
        "{HEADER}.visible .entry k()\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\tsetp.lt.b32 %p1, %r1, %r2;\n\tbra NOWHERE;\n\tadd.s32 %r1, %r9, 1;\n\tret;\n}}\n"
    );
    let path = write_tmp("many.ptx", src.as_bytes());
    let out = ptxvm(&["check", &path]);
    let err = String::from_utf8(out.stderr).unwrap();
    let heads: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(heads.len(), 3, "{err}");
    assert!(
        heads[0].contains(":8:6:") && heads[1].contains(":9:6:") && heads[2].contains(":10:15:"),
        "{err}"
    );
}

#[test]
fn missing_file_and_bad_flags_exit_1_with_usage() {
    let out = ptxvm(&["check", "/nonexistent/x.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/x.ptx"));
    let out = ptxvm(&["check", "--frobnicate", "examples/saxpy.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage"));
    let out = ptxvm(&[]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn help_teaches_the_commands_and_exit_codes() {
    let out = ptxvm(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("check") && text.contains("Exit codes"), "{text}");
    let out = ptxvm(&["check", "--help"]);
    assert!(String::from_utf8(out.stdout).unwrap().contains("FILE:LINE:COL"));
}

#[test]
fn binary_input_is_a_clean_error() {
    let path = write_tmp("garbage.ptx", &[0x7f, b'E', b'L', b'F', 0xff, 0xfe, 0, 1, 2]);
    let out = ptxvm(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("{path}:1:5: error: ")), "{err}");
}
