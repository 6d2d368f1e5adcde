//! Device `printf` (CUDA C++ Programming Guide, "Formatted Output"): nvcc lowers
//! `printf(fmt, ...)` to `vprintf(fmt, args)`, where `args` points to the arguments
//! packed in a local buffer, each aligned to its own size: `int`-sized conversions
//! take 4 bytes, `l`/`ll`/`j`/`z`/`t` ones 8, floating-point conversions an 8-byte
//! `double` (a `float` is promoted), `%s` and `%p` an 8-byte pointer. The
//! conversions follow C's `printf`; the output matches glibc's (the tests compare with
//! it), which is what the CUDA runtime prints on Linux.

use std::fmt::Write as _;

/// Where the arguments come from: the packed buffer and the strings of `%s`.
pub trait Args {
    /// The next argument of `bytes` (4 or 8) bytes, aligned to its size.
    fn next(&mut self, bytes: u32) -> Result<u64, String>;
    /// The NUL-terminated string at generic address `addr`, or its first `max` bytes
    /// (`%.Ns` reads no further, and needs no NUL).
    fn string(&mut self, addr: u64, max: Option<usize>) -> Result<Vec<u8>, String>;
}

/// The largest width or precision taken (a larger one, written or from `*`, is
/// clamped): a guard on memory, far past any real format.
const MAX_FIELD: usize = 65_535;

/// The most one call prints, the size of CUDA's default printf buffer
/// (`cudaLimitPrintfFifoSize`); the rest of the text is cut.
pub const MAX_OUTPUT: usize = 1 << 20;

#[derive(Default, Clone, Copy)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    long: bool,
}

/// Formats `fmt` with the arguments `args` gives; the text and how many arguments it
/// read (what `vprintf` returns).
///
/// # Errors
/// What `args` reports for an argument it cannot read.
pub fn format(fmt: &[u8], args: &mut impl Args) -> Result<(Vec<u8>, u32), String> {
    let mut out = Vec::new();
    let mut count = 0u32;
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut s = Spec::default();
        while let Some(&c) = fmt.get(i) {
            match c {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            let w = args.next(4)? as u32 as i32;
            count += 1;
            s.left |= w < 0;
            s.width = (w.unsigned_abs() as usize).min(MAX_FIELD);
            i += 1;
        } else {
            (s.width, i) = digits(fmt, i);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                let p = args.next(4)? as u32 as i32;
                count += 1;
                s.precision = (p >= 0).then_some((p as usize).min(MAX_FIELD));
                i += 1;
            } else {
                let (p, next) = digits(fmt, i);
                s.precision = Some(p);
                i = next;
            }
        }
        let mut size = 0; // -2 hh, -1 h, 0 int, 1 long
        while let Some(&c) = fmt.get(i) {
            match c {
                b'h' => size -= 1,
                b'l' | b'j' | b'z' | b't' | b'q' => s.long = true,
                b'L' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        let int_bytes = if s.long { 8 } else { 4 };
        let narrow = |v: u64, signed: bool| -> u64 {
            match (s.long, size, signed) {
                (true, ..) => v,
                (false, -1, true) => v as i16 as i64 as u64,
                (false, -1, false) => u64::from(v as u16),
                (false, s, true) if s <= -2 => v as i8 as i64 as u64,
                (false, s, false) if s <= -2 => u64::from(v as u8),
                (false, _, true) => v as i32 as i64 as u64,
                (false, _, false) => u64::from(v as u32),
            }
        };
        let text: Vec<u8> = match conv {
            b'%' => {
                out.push(b'%');
                continue;
            }
            b'd' | b'i' => {
                count += 1;
                let v = narrow(args.next(int_bytes)?, true) as i64;
                let sign = sign_of(v < 0, &s);
                integer(&s, sign, "", &v.unsigned_abs().to_string())
            }
            b'u' | b'o' | b'x' | b'X' => {
                count += 1;
                let v = narrow(args.next(int_bytes)?, false);
                let (digits, prefix) = match conv {
                    b'u' => (v.to_string(), ""),
                    b'o' => (format!("{v:o}"), ""),
                    b'x' => (format!("{v:x}"), if s.alt && v != 0 { "0x" } else { "" }),
                    _ => (format!("{v:X}"), if s.alt && v != 0 { "0X" } else { "" }),
                };
                if conv == b'o' && s.alt && v == 0 {
                    // `#o` of zero prints its zero even with precision 0.
                    let p = s.precision.map(|p| p.max(1));
                    out.extend_from_slice(&integer(&Spec { alt: false, precision: p, ..s }, "", "", "0"));
                    continue;
                }
                let digits = if conv == b'o' && s.alt && !digits.starts_with('0') {
                    // `#o` makes the first digit a zero, after the precision's.
                    let p = s.precision.unwrap_or(0);
                    if p > digits.len() { digits } else { format!("0{digits}") }
                } else {
                    digits
                };
                integer(&Spec { alt: false, ..s }, "", prefix, &digits)
            }
            b'c' => {
                count += 1;
                let c = args.next(4)? as u8;
                pad(&Spec { zero: false, ..s }, "", &[c])
            }
            b's' => {
                count += 1;
                let addr = args.next(8)?;
                // glibc prints "(null)" for a null pointer when it fits the precision,
                // and nothing otherwise.
                let mut text = if addr == 0 {
                    if s.precision.is_some_and(|p| p < 6) { Vec::new() } else { b"(null)".to_vec() }
                } else {
                    args.string(addr, s.precision)?
                };
                if let Some(p) = s.precision {
                    text.truncate(p);
                }
                pad(&Spec { zero: false, ..s }, "", &text)
            }
            b'p' => {
                count += 1;
                let v = args.next(8)?;
                if v == 0 {
                    pad(&Spec { zero: false, ..s }, "", b"(nil)")
                } else {
                    integer(&Spec { alt: false, ..s }, sign_of(false, &s), "0x", &format!("{v:x}"))
                }
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                count += 1;
                let v = f64::from_bits(args.next(8)?);
                float(&s, conv, v)
            }
            _ => {
                // Not a conversion C knows: printed as written.
                fmt[start..i].to_vec()
            }
        };
        out.extend_from_slice(&text);
        if out.len() > MAX_OUTPUT {
            out.truncate(MAX_OUTPUT);
            break;
        }
    }
    Ok((out, count))
}

fn digits(fmt: &[u8], mut i: usize) -> (usize, usize) {
    let mut v = 0usize;
    while let Some(c @ b'0'..=b'9') = fmt.get(i) {
        v = v.saturating_mul(10).saturating_add(usize::from(c - b'0')).min(MAX_FIELD);
        i += 1;
    }
    (v, i)
}

fn sign_of(negative: bool, s: &Spec) -> &'static str {
    if negative {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// An integer conversion: the precision is the least number of digits (and turns the
/// `0` flag off); a zero with precision 0 prints no digits.
fn integer(s: &Spec, sign: &str, prefix: &str, digits: &str) -> Vec<u8> {
    let mut body = String::new();
    match s.precision {
        Some(0) if digits == "0" => {}
        Some(p) => {
            body.extend(std::iter::repeat_n('0', p.saturating_sub(digits.len())));
            body.push_str(digits);
        }
        None => body.push_str(digits),
    }
    let zero = s.zero && s.precision.is_none();
    pad(&Spec { zero, ..*s }, &format!("{sign}{prefix}"), body.as_bytes())
}

/// `lead` (sign and prefix) and `body` padded to the width: spaces before, zeros
/// between (`0`), or spaces after (`-`).
fn pad(s: &Spec, lead: &str, body: &[u8]) -> Vec<u8> {
    let len = lead.len() + body.len();
    let fill = s.width.saturating_sub(len);
    let mut out = Vec::with_capacity(len + fill);
    if s.left {
        out.extend_from_slice(lead.as_bytes());
        out.extend_from_slice(body);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if s.zero {
        out.extend_from_slice(lead.as_bytes());
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(body);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(lead.as_bytes());
        out.extend_from_slice(body);
    }
    out
}

fn float(s: &Spec, conv: u8, v: f64) -> Vec<u8> {
    let upper = conv.is_ascii_uppercase();
    let sign = sign_of(v.is_sign_negative(), s);
    if !v.is_finite() {
        let word = if v.is_nan() { "nan" } else { "inf" };
        let word = if upper { word.to_uppercase() } else { word.to_string() };
        return pad(&Spec { zero: false, ..*s }, sign, word.as_bytes());
    }
    let a = v.abs();
    let (prefix, body) = match conv.to_ascii_lowercase() {
        b'f' => ("", fixed(a, s.precision.unwrap_or(6), s.alt)),
        b'e' => ("", exponent(a, s.precision.unwrap_or(6), s.alt)),
        b'g' => ("", general(a, s.precision.unwrap_or(6), s.alt)),
        _ => (if upper { "0X" } else { "0x" }, hex(a, s.precision, s.alt)),
    };
    let body = if upper { body.to_uppercase() } else { body };
    pad(s, &format!("{sign}{prefix}"), body.as_bytes())
}

fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut t = format!("{a:.p$}");
    if alt && p == 0 {
        t.push('.');
    }
    t
}

/// `d.ddde±XX`: Rust's exponent form with C's signed, two-digit exponent.
fn exponent(a: f64, p: usize, alt: bool) -> String {
    let t = format!("{a:.p$e}");
    let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alt && p == 0 { "." } else { "" };
    format!("{mantissa}{dot}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the exponent, with trailing zeros removed unless `#`.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let e = format!("{a:.*e}", p - 1);
    let x: i32 = e.split_once('e').map_or(0, |(_, x)| x.parse().unwrap_or(0));
    let t = if (x as i64) < p as i64 && x >= -4 {
        fixed(a, (p as i64 - 1 - x as i64) as usize, alt)
    } else {
        exponent(a, p - 1, alt)
    };
    if alt {
        return t;
    }
    let (m, tail) = match t.find('e') {
        Some(k) => (&t[..k], &t[k..]),
        None => (t.as_str(), ""),
    };
    let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
    format!("{m}{tail}")
}

/// `%a`: `1.hhhp±d` (subnormals as `0.hhh` with exponent -1022), as glibc prints
/// doubles; a precision rounds the hex digits to nearest, ties to even.
fn hex(a: f64, precision: Option<usize>, alt: bool) -> String {
    let bits = a.to_bits();
    let (mut lead, mut frac, exp) = match (bits >> 52) as i32 {
        0 if bits == 0 => (0u64, 0u64, 0),
        0 => (0, bits, -1022),
        e => (1, bits & ((1 << 52) - 1), e - 1023),
    };
    let mut digits = 13;
    if let Some(p) = precision.filter(|&p| p < 13) {
        let drop = 4 * (13 - p) as u32;
        let half = 1u64 << (drop - 1);
        let rest = frac & ((1 << drop) - 1);
        frac >>= drop;
        // Ties to even: of the last hex digit kept, or of the leading digit when none is.
        let odd = if p == 0 { lead & 1 == 1 } else { frac & 1 == 1 };
        if rest > half || (rest == half && odd) {
            frac += 1;
            if frac >> (4 * p) != 0 {
                frac &= (1 << (4 * p)) - 1;
                lead += 1;
            }
        }
        digits = p;
    }
    let mut h = if digits == 0 { String::new() } else { format!("{frac:0digits$x}") };
    if precision.is_none() {
        h = h.trim_end_matches('0').to_string();
    } else if let Some(p) = precision.filter(|&p| p > 13) {
        h.extend(std::iter::repeat_n('0', p - 13));
    }
    let mut t = lead.to_string();
    if !h.is_empty() || alt {
        t.push('.');
    }
    t.push_str(&h);
    let _ = write!(t, "p{}{}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    t
}

#[cfg(test)]
// 3.14159 is an input the C reference printed, not an approximation of pi.
#[allow(clippy::approx_constant)]
mod tests {
    use super::*;

    /// Arguments from a list of (size, value), checking each size.
    struct List(Vec<(u32, u64)>, Vec<Vec<u8>>);

    impl Args for List {
        fn next(&mut self, bytes: u32) -> Result<u64, String> {
            let (size, v) = self.0.remove(0);
            assert_eq!(size, bytes);
            Ok(v)
        }
        fn string(&mut self, addr: u64, max: Option<usize>) -> Result<Vec<u8>, String> {
            let s = &self.1[addr as usize - 1];
            Ok(s[..s.len().min(max.unwrap_or(usize::MAX))].to_vec())
        }
    }

    fn f(fmt: &str, args: &[(u32, u64)]) -> String {
        let (out, n) = format(fmt.as_bytes(), &mut List(args.to_vec(), vec![b"hello".to_vec()])).unwrap();
        assert_eq!(n as usize, args.len());
        String::from_utf8(out).unwrap()
    }

    fn d(v: f64) -> (u32, u64) {
        (8, v.to_bits())
    }

    // Expected strings are glibc 2.36's printf for the same arguments.
    #[test]
    fn integers_as_c_prints_them() {
        assert_eq!(
            f(
                "%d|%5d|%-5d|%05d|%+d|% d",
                &[(4, -42i32 as u32 as u64), (4, 42), (4, 42), (4, 42), (4, 42), (4, 42)]
            ),
            "-42|   42|42   |00042|+42| 42"
        );
        assert_eq!(f("%.3d|%8.3d|%08.3d|%.0d", &[(4, 7), (4, 7), (4, 7), (4, 0)]), "007|     007|     007|");
        assert_eq!(
            f(
                "%u|%x|%X|%#x|%#o|%o",
                &[(4, u64::from(u32::MAX)), (4, 255), (4, 255), (4, 255), (4, 8), (4, 0)]
            ),
            "4294967295|ff|FF|0xff|010|0"
        );
        assert_eq!(
            f("%ld|%llu|%lx|%hd|%hhu", &[(8, u64::MAX), (8, u64::MAX), (8, 1 << 40), (4, 70000), (4, 300)]),
            "-1|18446744073709551615|10000000000|4464|44"
        );
        assert_eq!(
            f("%c%c|%s|%.2s|%8s|%-8s|%%", &[(4, 65), (4, 66), (8, 1), (8, 1), (8, 1), (8, 1)]),
            "AB|hello|he|   hello|hello   |%"
        );
        assert_eq!(f("%*d|%-*d|%.*d", &[(4, 4), (4, 1), (4, 4), (4, 2), (4, 3), (4, 5)]), "   1|2   |005");
    }

    #[test]
    fn the_corners_glibc_has() {
        // glibc 2.36: printf("%.3s|%.0a|%#.0o|%#.0x|%.0a|%.0a", NULL, 1.5, 0, 0, 2.5, 0.5).
        assert_eq!(
            f("%.3s|%.0a|%#.0o|%#.0x|%.0a|%.0a", &[(8, 0), d(1.5), (4, 0), (4, 0), d(2.5), d(0.5)]),
            "|0x2p+0|0||0x1p+1|0x1p-1"
        );
        // %.Ns reads at most N bytes of the string.
        assert_eq!(f("%.2s", &[(8, 1)]), "he");
    }

    #[test]
    fn huge_widths_and_precisions_are_clamped() {
        let (out, _) = format(b"%.70000f", &mut List(vec![d(1.0)], vec![])).unwrap();
        assert_eq!(out.len(), 2 + MAX_FIELD);
        let (out, _) = format(b"%*d", &mut List(vec![(4, 2_000_000_000), (4, 1)], vec![])).unwrap();
        assert_eq!(out.len(), MAX_FIELD);
        let many = "%65535d".repeat(40);
        let (out, n) = format(many.as_bytes(), &mut List(vec![(4, 7); 40], vec![])).unwrap();
        assert_eq!((out.len(), n), (MAX_OUTPUT, 17));
    }

    #[test]
    fn floating_point_as_c_prints_it() {
        assert_eq!(
            f(
                "%f|%.2f|%10.3f|%-10.1f|%+.0f|%#.0f",
                &[d(3.14159), d(2.675), d(-1.5), d(0.25), d(2.5), d(3.0)]
            ),
            "3.141590|2.67|    -1.500|0.2       |+2|3."
        );
        assert_eq!(
            f("%e|%.2E|%e|%e", &[d(12345.678), d(0.000123), d(0.0), d(1e-300)]),
            "1.234568e+04|1.23E-04|0.000000e+00|1.000000e-300"
        );
        assert_eq!(
            f(
                "%g|%g|%g|%g|%G|%#g|%.3g",
                &[d(100000.0), d(1000000.0), d(0.0001), d(0.00001), d(1e-10), d(1.5), d(3.14159)]
            ),
            "100000|1e+06|0.0001|1e-05|1E-10|1.50000|3.14"
        );
        assert_eq!(
            f(
                "%f|%F|%e|%5.1f|%g",
                &[d(f64::INFINITY), d(f64::NEG_INFINITY), d(f64::NAN), d(f64::NAN), d(-0.0)]
            ),
            "inf|-INF|nan|  nan|-0"
        );
        assert_eq!(
            f("%a|%a|%A|%.1a|%a|%a", &[d(1.0), d(-0.5), d(255.5), d(1.96875), d(0.0), d(f64::from_bits(1))]),
            "0x1p+0|-0x1p-1|0X1.FFP+7|0x2.0p+0|0x0p+0|0x0.0000000000001p-1022"
        );
        assert_eq!(
            f("%08.3f|%-+8.2e|%010g", &[d(-3.14159), d(1234.5), d(0.5)]),
            "-003.142|+1.23e+03|00000000.5"
        );
    }
}
