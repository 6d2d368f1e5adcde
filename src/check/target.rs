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
    let rest = name
        .strip_prefix("sm_")
        .or_else(|| name.strip_prefix("compute_"))?;
    let (digits, suffix) = match rest.chars().last()? {
        c @ ('a' | 'f') => (&rest[..rest.len() - 1], Some(c)),
        _ => (rest, None),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    min_version_for_sm(Sm { number, suffix }).map(|_| Sm { number, suffix })
}

/// The minimum `.version` (as major*10+minor) for a target, or `None` if unknown.
pub fn min_version_for_sm(sm: Sm) -> Option<u32> {
    let base = match sm.number {
        10..=13 => 10,
        20 | 21 => 20,
        30 => 30,
        32 => 40,
        35 => 31,
        37 => 41,
        50 => 40,
        52 => 41,
        53 => 42,
        60..=62 => 50,
        70 => 60,
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
        110 => 90,
        120 => 87,
        121 => 88,
        _ => return None,
    };
    Some(match (sm.number, sm.suffix) {
        (90, Some('a')) => 80,
        (100 | 101 | 120, Some('a')) => base,
        (_, Some('f')) => base.max(88),
        (_, Some('a')) if sm.number < 90 => return None,
        _ => base,
    })
}

/// Is `major.minor` a released PTX ISA version?
pub fn is_known_version(major: u32, minor: u32) -> bool {
    matches!(
        (major, minor),
        (1, 0..=5)
            | (2, 0..=3)
            | (3, 0..=2)
            | (4, 0..=3)
            | (5, 0)
            | (6, 0..=5)
            | (7, 0..=8)
            | (8, 0..=8)
            | (9, 0..=5)
    )
}
