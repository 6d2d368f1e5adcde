//! Which kernel a name given by a user means. nvcc names a C++ kernel by its
//! mangled symbol (Itanium C++ ABI: `_Z7collatzPKyPiii`); a user thinks of it as
//! `collatz`, or `collatz(unsigned long long const*, int*, int, int)`. A name is
//! taken as it is when a kernel has it, else as the demangled name (without its
//! parameter list) or the whole demangled signature of exactly one kernel.

use cpp_demangle::{DemangleOptions, Symbol};

/// The demangled name of `symbol` without and with its parameter list; `None` for a
/// name that is not a mangled C++ name (an `extern "C"` kernel).
pub fn demangle(symbol: &str) -> Option<(String, String)> {
    if !symbol.starts_with("_Z") {
        return None;
    }
    let sym = Symbol::new(symbol.as_bytes()).ok()?;
    let full = sym.demangle().ok()?;
    let short = sym.demangle_with_options(&DemangleOptions::new().no_params().no_return_type()).ok()?;
    Some((short, full))
}

/// `symbol` as a user reads it: `_Z7collatzPKyPiii (collatz(...))`.
pub fn shown(symbol: &str) -> String {
    match demangle(symbol) {
        Some((_, full)) => format!("{symbol} ({full})"),
        None => symbol.to_string(),
    }
}

/// The kernel of `kernels` that `wanted` names: itself, or the one kernel whose
/// demangled name or signature it is (spaces aside).
///
/// # Errors
/// A message listing the kernels when none matches, or the candidates when more
/// than one does.
pub fn resolve<'a>(kernels: &'a [String], wanted: &str) -> Result<&'a str, String> {
    if let Some(k) = kernels.iter().find(|k| *k == wanted) {
        return Ok(k);
    }
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let want = squeeze(wanted);
    let hits: Vec<&String> = kernels
        .iter()
        .filter(|k| {
            demangle(k).is_some_and(|(short, full)| squeeze(&short) == want || squeeze(&full) == want)
        })
        .collect();
    let list = |ks: &mut dyn Iterator<Item = &String>| ks.map(|k| shown(k)).collect::<Vec<_>>().join(", ");
    match hits.as_slice() {
        [one] => Ok(one.as_str()),
        [] => Err(format!("no kernel named `{wanted}` (kernels: {})", list(&mut kernels.iter()))),
        _ => Err(format!(
            "`{wanted}` names {} kernels: {}; give the mangled name or the whole signature",
            hits.len(),
            list(&mut hits.iter().copied())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Itanium C++ ABI manglings (collatz's is nvcc's, in examples/collatz.ptx; the
    // two `scale` overloads are written by hand from the ABI: P pointer, f float,
    // d double, i int); the demangled forms are as `c++filt` prints them.
    fn kernels() -> Vec<String> {
        ["_Z7collatzPKyPiii", "_Z5scalePfi", "_Z5scalePdi", "saxpy"].map(String::from).to_vec()
    }

    #[test]
    fn demangled_names_and_signatures_pick_one_kernel() {
        let ks = kernels();
        assert_eq!(resolve(&ks, "collatz"), Ok("_Z7collatzPKyPiii"));
        assert_eq!(
            resolve(&ks, "collatz(unsigned long long const*, int*, int, int)"),
            Ok("_Z7collatzPKyPiii")
        );
        assert_eq!(resolve(&ks, "_Z5scalePdi"), Ok("_Z5scalePdi"));
        assert_eq!(resolve(&ks, "scale(double*, int)"), Ok("_Z5scalePdi"));
        assert_eq!(resolve(&ks, "scale(float*,int)"), Ok("_Z5scalePfi"));
        assert_eq!(resolve(&ks, "saxpy"), Ok("saxpy"));
    }

    #[test]
    fn ambiguous_and_unknown_names_list_the_kernels() {
        let ks = kernels();
        let e = resolve(&ks, "scale").unwrap_err();
        assert!(e.contains("names 2 kernels"), "{e}");
        assert!(
            e.contains("_Z5scalePfi (scale(float*, int))") && e.contains("_Z5scalePdi (scale(double*, int))"),
            "{e}"
        );
        let e = resolve(&ks, "collatz2").unwrap_err();
        assert!(e.starts_with("no kernel named `collatz2`") && e.contains("saxpy"), "{e}");
        // Not a C++ name, or a damaged one: no demangled form, no panic.
        assert_eq!(demangle("saxpy"), None);
        assert_eq!(demangle("_Z"), None);
        assert_eq!(demangle("_Z7collat"), None);
        assert_eq!(demangle("_Z7collatzPK"), None);
    }
}
