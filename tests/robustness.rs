//! Hostile input never panics, hangs or allocates without bound in parse + check:
//! truncated files, binary garbage, a 100 MB line, deep nesting, huge declarations,
//! and random mutations of real compiler output (proptest).

use proptest::prelude::*;

const ALL_FORMS: &str = include_str!("data/syntax/all_forms.ptx");
const CLASSIFY: &str = include_str!("../examples/classify.ptx");
/// Real compiler output with calls, function pointers, debug sections and inline PTX.
const CORPUS: &[&str] = &[
    include_str!("../corpus/cuda/ptx/sm_90/funcptr.ptx"),
    include_str!("../corpus/cuda/ptx/sm_90/lineinfo.ptx"),
    include_str!("../corpus/cuda/ptx/sm_90/inline_asm.ptx"),
    include_str!("../corpus/cuda/ptx/sm_90/half_ops.ptx"),
    include_str!("../corpus/llvm/ptx/fp_predicates.sm_80.ptx"),
];

#[test]
fn every_truncation_of_a_real_module_is_handled() {
    let body_start = ALL_FORMS.find(".visible .entry kernel").unwrap();
    let mut errors = 0;
    for cut in (0..ALL_FORMS.len()).step_by(7) {
        if !ALL_FORMS.is_char_boundary(cut) {
            continue;
        }
        let diags = ptxvm::check_source(&ALL_FORMS[..cut]);
        if cut > body_start {
            // Cut inside the kernel: its braces cannot be balanced.
            assert!(!diags.is_empty(), "truncation at {cut} accepted");
            errors += 1;
        }
    }
    assert!(errors > 100);
}

#[test]
fn deep_brace_nesting_is_an_error_not_a_stack_overflow() {
    let src = format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{}\n{}",
        "{".repeat(200_000),
        "}".repeat(200_000)
    );
    let diags = ptxvm::check_source(&src);
    assert!(diags.iter().any(|d| d.message.contains("nested deeper than 64")), "{:?}", diags.first());
    let init = format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n.global .u32 x[1] = {}1{};",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let diags = ptxvm::check_source(&init);
    assert!(diags.iter().any(|d| d.message.contains("nested deeper than 64")));
    for open in ["{", "("] {
        let ops = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() {{ mov.u32 {};\n}}",
            open.repeat(100_000)
        );
        let diags = ptxvm::check_source(&ops);
        assert!(diags.iter().any(|d| d.message.contains("nested deeper than 64")), "{open}");
    }
}

#[test]
fn a_100_mb_line_is_a_clean_error() {
    let mut src =
        String::from(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() { mov.u32 ");
    src.push_str(&"a".repeat(100 << 20));
    src.push_str(" }");
    let diags = ptxvm::check_source(&src);
    assert!(!diags.is_empty());
    // Rendering cuts the line around the caret instead of printing 100 MB.
    let shown = diags[0].render("big.ptx", &src);
    assert!(shown.len() < 2_000, "rendered {} bytes", shown.len());
}

#[test]
fn huge_counts_and_sizes_allocate_nothing() {
    let src = ".version 8.0\n.target sm_80\n.address_size 64\n\
               .global .b8 big[18446744073709551615];\n\
               .visible .entry k() { .reg .b32 %r<4294967295>; mov.u32 %r4294967294, 1; ret; }";
    assert!(ptxvm::check_source(src).is_empty());
}

#[test]
fn binary_garbage_is_rejected() {
    let mut x: u64 = 0x9E3779B97F4A7C15;
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 128) as u8
            })
            .collect();
        let text = String::from_utf8(bytes).unwrap();
        assert!(!ptxvm::check_source(&text).is_empty());
    }
}

/// Tokens that real PTX is made of, for insertion mutations.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "|",
    "!",
    "@",
    "_",
    "%p1",
    "%r1",
    "%rd1",
    "setp.lt.s32",
    "bra",
    "call",
    ".reg",
    ".param",
    ".b32",
    "0f3F800000",
    "-",
    "+",
    "<",
    ">",
    "=",
    ":",
    "$L__BB0_1",
    ".branchtargets",
    ".callprototype",
    "brx.idx",
    "\"",
    "/*",
    "//",
    "\n",
    "0x",
    "1e",
    ".entry",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..FRAGMENTS.len()).prop_map(|(a, f)| Mutation::Insert(a, f)),
        (any::<usize>(), 1usize..200).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
    ]
}

fn apply(src: &str, muts: &[Mutation]) -> String {
    let mut s = src.as_bytes().to_vec();
    for m in muts {
        let len = s.len().max(1);
        match *m {
            Mutation::Delete(a, n) => {
                let a = a % len;
                let b = (a + n).min(s.len());
                s.drain(a.min(s.len())..b);
            }
            Mutation::Insert(a, f) => {
                let a = a % len;
                let at = a.min(s.len());
                s.splice(at..at, FRAGMENTS[f].bytes());
            }
            Mutation::Duplicate(a, n) => {
                let a = (a % len).min(s.len());
                let b = (a + n).min(s.len());
                let piece = s[a..b].to_vec();
                s.splice(a..a, piece);
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_ptx_never_panics(muts in proptest::collection::vec(mutation(), 1..8), which in 0..7usize) {
        let base = match which {
            0 => ALL_FORMS,
            1 => CLASSIFY,
            k => CORPUS[k - 2],
        };
        let text = apply(base, &muts);
        let diags = ptxvm::check_source(&text);
        for d in &diags {
            let _ = d.render("m.ptx", &text);
        }
    }
}

/// An instruction with more operands than any form has (37 here) is an error of
/// counts and names, not a panic: check's operand rules index operands by position.
#[test]
fn an_instruction_with_dozens_of_operands_is_an_error() {
    let many = vec!["%r2"; 35].join(", ");
    let ptx = format!(
        ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k() {{\n.reg .b32 %r<4>; .reg .b64 %rd<2>;\n\
         atom.global.add.u32 %r1, [%rd1], {many}, %zz;\nadd.u32 %r1, {many}, %qq;\nret; }}\n"
    );
    let diags = ptxvm::check_source(&ptx);
    assert!(diags.iter().any(|d| d.message.contains("expects 3 or 4 operands, found 38")), "{diags:?}");
    assert!(diags.iter().any(|d| d.message.contains("undefined name `%zz`")), "{diags:?}");
    assert!(diags.iter().any(|d| d.message.contains("undefined name `%qq`")), "{diags:?}");
}
