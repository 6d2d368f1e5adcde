//! Linking PTX modules into one (`cuLink*`): each input is checked alone, then the
//! inputs are joined item by item under one header, and the `.extern` declarations
//! of functions and variables that another input defines are left out (ptxas
//! rejects a definition that conflicts with an `.extern` declaration of the same
//! name). The result is PTX text, checked again as a whole.

use super::Module;

/// Directives that end at the end of their line, with no `;`.
const LINE_DIRECTIVES: [&str; 4] = [".version", ".target", ".address_size", ".file"];

/// One module's text cut into its top-level items: each ends at a `;` or at the `}`
/// closing a block, outside comments and strings, or (a header directive) at the
/// end of its line.
fn items(src: &str) -> Vec<&str> {
    let bytes = src.as_bytes();
    let (mut out, mut start, mut depth, mut k) = (Vec::new(), 0, 0i32, 0);
    while k < bytes.len() {
        // Between items: comments and blank space belong to no item.
        let between = depth == 0 && src[start..k].trim().is_empty();
        let skip_to = if src[k..].starts_with("//") {
            Some(src[k..].find('\n').map_or(bytes.len(), |n| k + n))
        } else if src[k..].starts_with("/*") {
            Some(src[k + 2..].find("*/").map_or(bytes.len(), |n| k + 2 + n + 2))
        } else {
            None
        };
        if let Some(next) = skip_to {
            if between {
                start = next;
            }
            k = next;
            continue;
        }
        if between && bytes[k] == b'.' && LINE_DIRECTIVES.iter().any(|d| src[k..].starts_with(d)) {
            let end = src[k..].find('\n').map_or(bytes.len(), |n| k + n);
            out.push(src[k..end].trim());
            (start, k) = (end, end);
            continue;
        }
        match bytes[k] {
            b'"' => {
                k = src[k + 1..].find('"').map_or(bytes.len(), |n| k + 1 + n + 1);
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    out.push(src[start..=k].trim());
                    start = k + 1;
                }
            }
            b';' if depth == 0 => {
                out.push(src[start..=k].trim());
                start = k + 1;
            }
            _ => {}
        }
        k += 1;
    }
    let rest = src[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The item's words up to its first `(`, `[`, `=`, `;` or `{`.
fn head(item: &str) -> Vec<&str> {
    let end = item.find(['(', '[', '=', ';', '{']).unwrap_or(item.len());
    item[..end].split_whitespace().collect()
}

/// What a top-level item declares or defines: a function or a variable, by name.
#[derive(Debug, PartialEq, Eq)]
enum Named {
    Func(String),
    Var(String),
}

/// The function or variable an item names: the identifier after a `.func`'s return
/// list (or an `.entry`), or the last word before a variable's array size, `=` or `;`.
fn named(item: &str) -> Option<Named> {
    let mut text = item;
    for linkage in [".extern", ".visible", ".weak", ".common"] {
        text = text.trim_start().strip_prefix(linkage).unwrap_or(text);
    }
    let text = text.trim_start();
    let func = text.strip_prefix(".func").or_else(|| text.strip_prefix(".entry"));
    if let Some(rest) = func {
        let mut rest = rest.trim_start();
        if rest.starts_with('(') {
            rest = rest[rest.find(')')? + 1..].trim_start();
        }
        let end =
            rest.find(|c: char| c == '(' || c == ';' || c == '{' || c.is_whitespace()).unwrap_or(rest.len());
        return Some(Named::Func(rest[..end].to_string())).filter(|n| *n != Named::Func(String::new()));
    }
    let words = head(item);
    let space = words.iter().any(|w| [".global", ".const", ".shared"].contains(w));
    space.then(|| words.last().map(|w| Named::Var(w.to_string()))).flatten()
}

/// What a module defines for other modules: functions with bodies and variables,
/// each with its linkage word (`.visible`, `.weak`, `.common`), and its item text.
fn definitions<'s>(module: &Module, items: &[&'s str]) -> Vec<(String, &'static str, &'s str)> {
    use crate::syntax::ast::{Item, Linkage};
    let src = module.source();
    let word = |l: Option<Linkage>| match l {
        Some(Linkage::Visible) => Some(".visible"),
        Some(Linkage::Weak) => Some(".weak"),
        Some(Linkage::Common) => Some(".common"),
        Some(Linkage::Extern) | None => None,
    };
    let mut names = Vec::new();
    for item in &module.ast.items {
        let (name, linkage) = match item {
            Item::Func(f) if f.body.is_some() => (f.name.text(src).to_string(), word(f.linkage)),
            Item::Var(v) if v.vars.len() == 1 => (v.vars[0].name.text(src).to_string(), word(v.linkage)),
            _ => continue,
        };
        let Some(linkage) = linkage else { continue };
        let text = items.iter().find(|i| {
            !i.trim_start().starts_with(".extern")
                && matches!(named(i), Some(Named::Func(ref n) | Named::Var(ref n)) if *n == name)
        });
        if let Some(text) = text {
            names.push((name, linkage, *text));
        }
    }
    names
}

/// Links `inputs` (a name for messages, and PTX text each) into one module's text.
///
/// An `.extern` declaration of a function another input defines becomes a
/// declaration with the definition's linkage (PTX wants a function declared before
/// a call); the definition of a variable another input declares `.extern` moves to
/// the first declaration. Other items keep their order.
///
/// # Errors
/// The rendered diagnostics of an input that is not valid PTX, or of the joined
/// module (a name two inputs both define, say).
pub fn link(inputs: &[(String, String)]) -> Result<String, String> {
    if inputs.is_empty() {
        return Err("nothing to link: add PTX first".into());
    }
    let mut modules = Vec::new();
    for (name, text) in inputs {
        let m = Module::load(text)
            .map_err(|diags| diags.iter().map(|d| d.render(name, text)).collect::<String>())?;
        modules.push(m);
    }
    let all_items: Vec<Vec<&str>> = inputs.iter().map(|(_, t)| items(t)).collect();
    let defined: Vec<_> = modules.iter().zip(&all_items).map(|(m, i)| definitions(m, i)).collect();
    let mut placed: Vec<String> = Vec::new();
    let (mut version, mut target, mut body) = ((0u32, 0u32), None, String::new());
    for (k, items) in all_items.iter().enumerate() {
        let elsewhere = |n: &str| {
            defined.iter().enumerate().filter(|(j, _)| *j != k).find_map(|(_, d)| d.iter().find(|x| x.0 == n))
        };
        for &item in items {
            let words = head(item);
            let mut text = item.to_string();
            match words.first().copied() {
                Some(".version") => {
                    let v = words.get(1).and_then(|v| v.split_once('.'));
                    if let Some((a, b)) = v.and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))) {
                        version = version.max((a, b));
                    }
                    continue;
                }
                Some(".target") => {
                    target.get_or_insert_with(|| item.to_string());
                    continue;
                }
                Some(".address_size") => continue,
                Some(".extern") if !item.contains('{') => match named(item) {
                    Some(Named::Func(n)) => match elsewhere(&n) {
                        Some(_) if placed.contains(&n) => continue,
                        Some((_, linkage, _)) => text = item.replacen(".extern", linkage, 1),
                        None => {}
                    },
                    Some(Named::Var(n)) => match elsewhere(&n) {
                        Some(_) if placed.contains(&n) => continue,
                        Some((_, _, definition)) => {
                            text = definition.to_string();
                            placed.push(n);
                        }
                        None => {}
                    },
                    None => {}
                },
                _ => match named(item) {
                    Some(Named::Var(n)) if placed.contains(&n) => continue,
                    Some(Named::Func(n) | Named::Var(n)) if item.contains('{') || !item.contains('(') => {
                        placed.push(n)
                    }
                    _ => {}
                },
            }
            body.push_str(&text);
            body.push('\n');
        }
    }
    let target = target.unwrap_or_else(|| ".target sm_90".into());
    let out = format!(".version {}.{}\n{target}\n.address_size 64\n\n{body}", version.0, version.1);
    Module::load(&out).map_err(|diags| diags.iter().map(|d| d.render("linked", &out)).collect::<String>())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_end_at_semicolons_and_closing_braces_outside_comments_and_strings() {
        let src = ".version 8.0 // a; b\n.target sm_90\n.file 1 \"x;y\"\n// c;\n/* { */ .func f() { { ret; } }\n.global .b32 g;";
        let want = [
            ".version 8.0 // a; b",
            ".target sm_90",
            ".file 1 \"x;y\"",
            ".func f() { { ret; } }",
            ".global .b32 g;",
        ];
        assert_eq!(items(src), want);
    }

    #[test]
    fn named_functions_and_variables() {
        let f = |n: &str| Some(Named::Func(n.into()));
        assert_eq!(named(".extern .func (.param .b32 r) twice(.param .b32 x);"), f("twice"));
        assert_eq!(named(".extern .func f;"), f("f"));
        assert_eq!(named(".visible .entry k(.param .u64 p) { ret; }"), f("k"));
        assert_eq!(named(".extern .global .align 4 .b8 table[16];"), Some(Named::Var("table".into())));
        assert_eq!(named(".global .u32 n = 5;"), Some(Named::Var("n".into())));
        assert_eq!(named(".pragma \"nounroll\";"), None);
    }

    #[test]
    fn two_modules_link_across_an_extern_function_and_an_extern_variable() {
        let a = ".version 8.0\n.target sm_90\n.address_size 64\n\
                 .extern .global .u32 bias;\n\
                 .extern .func (.param .b32 r) twice(.param .b32 x);\n\
                 .visible .entry k(.param .u64 out) {\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
                 ld.param.u64 %rd1, [out];\nld.global.u32 %r1, [bias];\n\
                 { .param .b32 x; .param .b32 r; st.param.b32 [x], %r1; call (r), twice, (x); ld.param.b32 %r2, [r]; }\n\
                 st.global.u32 [%rd1], %r2;\nret;\n}\n";
        let b = ".version 8.3\n.target sm_90\n.address_size 64\n\
                 .visible .global .u32 bias = 20;\n\
                 .visible .func (.param .b32 r) twice(.param .b32 x) {\n.reg .b32 %r<3>;\n\
                 ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n";
        let inputs = [("a.ptx".to_string(), a.to_string()), ("b.ptx".to_string(), b.to_string())];
        let out = link(&inputs).unwrap();
        assert!(out.starts_with(".version 8.3\n.target sm_90\n"), "{out}");
        let module = Module::load(&out).unwrap();
        let kernel = module.kernel("k").unwrap();
        let mut result = [0u32];
        crate::api::Device::default()
            .launch_args(&kernel, 1, 1, crate::api::Args::new().buffer_mut(&mut result))
            .unwrap();
        assert_eq!(result, [40]);
        // A name both define does not link.
        let twice = [("b.ptx".to_string(), b.to_string()), ("b2.ptx".to_string(), b.to_string())];
        assert!(link(&twice).is_err());
    }
}
