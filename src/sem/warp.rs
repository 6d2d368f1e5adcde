//! The lane arithmetic of warp-wide instructions, apart from the warp that runs them:
//! which lane `shfl.sync` reads (PTX ISA 9.7.9.6) and what `redux.sync` combines
//! (9.7.13.11). The executor gathers the lanes' values and applies these.

/// The modes of `shfl.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `shfl.sync.mode`: the lane that `lane` reads, and whether it is in range (`p`).
/// `b` is the lane or offset, `c` packs the clamp value (bits 0..4) and the segment
/// mask (bits 8..12). Out of range, a lane reads its own value.
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let (lane, bval, cval, segmask) = (lane as i32 & 31, b as i32 & 31, c as i32 & 31, (c >> 8) as i32 & 31);
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
        ShflMode::Bfly => (lane ^ bval, lane ^ bval <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bval & !segmask);
            (j, j <= max_lane)
        }
    };
    if pval { (j as u32, true) } else { (lane as u32, false) }
}

/// The operations of `redux.sync` on 32-bit integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// `redux.sync.op.{b32,u32,s32}`: the reduction of `values`; `add` wraps, `min`/`max`
/// compare as `signed` says.
pub fn redux(op: ReduxOp, signed: bool, values: impl Iterator<Item = u32>) -> u32 {
    let key = |v: u32| if signed { i64::from(v as i32) } else { i64::from(v) };
    let mut acc: Option<u32> = None;
    for v in values {
        acc = Some(match acc {
            None => v,
            Some(a) => match op {
                ReduxOp::Add => a.wrapping_add(v),
                ReduxOp::Min => {
                    if key(v) < key(a) {
                        v
                    } else {
                        a
                    }
                }
                ReduxOp::Max => {
                    if key(v) > key(a) {
                        v
                    } else {
                        a
                    }
                }
                ReduxOp::And => a & v,
                ReduxOp::Or => a | v,
                ReduxOp::Xor => a ^ v,
            },
        });
    }
    acc.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `c` operand nvcc writes for a logical warp of `width` lanes: the segment
    /// mask `32 - width` and, except for `up`, the clamp 31.
    fn c_for(mode: ShflMode, width: u32) -> u32 {
        ((32 - width) << 8) | if mode == ShflMode::Up { 0 } else { 0x1f }
    }

    /// The CUDA programming guide's description of `__shfl_*_sync(mask, v, x, width)`,
    /// independent of the ISA's bit formula: lanes form segments of `width`; `up`
    /// reads `lane - x` unless that leaves the segment, `down` reads `lane + x` unless
    /// that leaves it, `xor` reads `lane ^ x` unless that is in a later segment, and
    /// `idx` reads lane `x mod width` of the segment.
    fn guide(mode: ShflMode, lane: u32, x: u32, width: u32) -> (u32, bool) {
        let base = lane / width * width;
        let (j, ok) = match mode {
            ShflMode::Up => (lane.wrapping_sub(x), lane % width >= x),
            ShflMode::Down => (lane + x, lane % width + x < width),
            ShflMode::Bfly => (lane ^ x, (lane ^ x) < base + width),
            ShflMode::Idx => (base + x % width, true),
        };
        if ok { (j, true) } else { (lane, false) }
    }

    #[test]
    fn source_lanes_follow_the_programming_guide_for_every_width() {
        for mode in [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx] {
            for width in [1, 2, 4, 8, 16, 32] {
                for lane in 0..32 {
                    for x in 0..32 {
                        let got = shfl_source(mode, lane, x, c_for(mode, width));
                        assert_eq!(
                            got,
                            guide(mode, lane, x, width),
                            "{mode:?} width {width} lane {lane} x {x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn only_five_bits_of_b_and_c_count_and_clamps_bound_the_source() {
        // b = 33 is b = 1 (ISA: bval = b[4:0]), an in-range transfer.
        assert_eq!(shfl_source(ShflMode::Down, 3, 33, 0x1f), (4, true));
        // A clamp of 7 with no segments: down past lane 7 reads its own value.
        assert_eq!(shfl_source(ShflMode::Down, 6, 1, 7), (7, true));
        assert_eq!(shfl_source(ShflMode::Down, 7, 1, 7), (7, false));
        assert_eq!(shfl_source(ShflMode::Idx, 0, 9, 7), (0, false));
        // up with a clamp of 4: lanes below 4 + offset keep their own value.
        assert_eq!(shfl_source(ShflMode::Up, 5, 2, 4), (5, false));
        assert_eq!(shfl_source(ShflMode::Up, 6, 2, 4), (4, true));
    }

    #[test]
    fn redux_combines_as_integers() {
        let v = [5u32, 0xffff_fffe, 7, 0x8000_0000];
        // 5 + (2^32 - 2) + 7 + 2^31 mod 2^32 = 10 + 2^31.
        assert_eq!(redux(ReduxOp::Add, false, v.into_iter()), 0x8000_000a);
        assert_eq!(redux(ReduxOp::Min, true, v.into_iter()), 0x8000_0000);
        assert_eq!(redux(ReduxOp::Min, false, v.into_iter()), 5);
        assert_eq!(redux(ReduxOp::Max, true, v.into_iter()), 7);
        assert_eq!(redux(ReduxOp::Max, false, v.into_iter()), 0xffff_fffe);
        assert_eq!(redux(ReduxOp::And, false, v.into_iter()), 0);
        assert_eq!(redux(ReduxOp::Or, false, v.into_iter()), 0xffff_ffff);
        assert_eq!(redux(ReduxOp::Xor, false, v.into_iter()), 5 ^ 0xffff_fffe ^ 7 ^ 0x8000_0000);
    }
}
