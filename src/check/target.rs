//! `.version` and `.target`: which PTX ISA versions and targets exist, and the minimum
//! version each target needs (PTX ISA 9.x, "Release notes" and the `.target` directive).

/// A parsed `sm_XY` target: its number (`sm_90a` is 90) and suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm {
    pub number: u32,
    /// `a` (architecture-specific) or `f` (family-specific) suffix, if any.
    pub suffix: Option<char>,
}

/// Parses `sm_XY`, `sm_XYa`, `sm_XYf` (and `compute_XY` alike).
pub fn parse_sm(name: &str) -> Option<Sm> {
    let rest = name.strip_prefix("sm_").or_else(|| name.strip_prefix("compute_"))?;
    // `a` (architecture) and `f` (family) suffixes have meaning; ptxas ignores any
    // other single trailing letter (`sm_90x` is sm_90).
    let (digits, suffix) = match rest.chars().last()? {
        c @ ('a' | 'f') => (&rest[..rest.len() - 1], Some(c)),
        c if c.is_ascii_lowercase() => (&rest[..rest.len() - 1], None),
        _ => (rest, None),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    min_version_for_sm(Sm { number, suffix }).map(|_| Sm { number, suffix })
}

/// The minimum `.version` (as major*10+minor) for a target, or `None` if unknown.
/// Figures from ptxas 13.5 (tests/data/ptxas_matrix/README.md).
pub fn min_version_for_sm(sm: Sm) -> Option<u32> {
    let base = match sm.number {
        10 | 11 => 10,
        12 | 13 => 12,
        20 | 21 => 20,
        30 => 30,
        32 => 40,
        35 => 31,
        37 => 41,
        50 => 40,
        52 => 41,
        53 => 42,
        60..=62 => 50,
        70 => 51,
        72 => 61,
        75 => 63,
        80 => 70,
        86 => 71,
        87 => 74,
        88 => 90,
        89 => 78,
        90 => 78,
        100 | 101 => 86,
        103 => 88,
        107 => 94,
        110 => 90,
        120 => 87,
        121 => 88,
        _ => return None,
    };
    match (sm.number, sm.suffix) {
        (_, None) => Some(base),
        (90, Some('a')) => Some(80),
        (n, Some(_)) if n < 100 => None,
        (_, Some('a')) => Some(base),
        (_, _) => Some(base.max(88)),
    }
}

/// Is `major.minor` a released PTX ISA version (one ptxas 13.5 knows)?
pub fn is_known_version(major: u32, minor: u32) -> bool {
    matches!(
        (major, minor),
        (1, 0..=5)
            | (2, 0..=3)
            | (3, 0..=2)
            | (4, 0..=3)
            | (5, 0..=1)
            | (6, 0..=5)
            | (7, 0..=8)
            | (8, 0..=8)
            | (9, 0..=5)
    )
}
