//! Telling a wait that can never end from one that is slow (DESIGN.md, "Design notes":
//! CTAs may wait on CTAs).
//!
//! A warp's next state is a function of its state (registers, frames, groups, and its
//! clock if the kernel reads it) and of the memory it reads, local memory included.
//! So a warp that comes back to a state it was in, without any instruction in between
//! that could change memory ([`Op::has_effect`]: local stores, calls and returns
//! too), repeats that stretch for as long as the memory it reads does not change: it
//! waits for another thread. While a CTA of a kernel that may wait runs after having
//! stepped aside, each warp compares its state, at backward branches, with one saved
//! earlier in the same quantum (Brent's cycle finding: the saved state moves on at 1,
//! 2, 4, ... samples, so a loop of any length is found); only a warp with one ready
//! group is sampled. A CTA whose warps all loop like that or are blocked, and which
//! changed nothing in its turn, waits on other CTAs; when every CTA of the grid does,
//! and no CTA has changed memory since, nothing ever will: the grid is deadlocked
//! ([`super::grid`]). Watching costs a few per cent of a turn that computes, so the
//! grid watches one turn in four.
//!
//! [`Op::has_effect`]: crate::lower::program::Op::has_effect

/// Warp instructions between the first two samples at least. A sample copies or
/// compares the warp's state, so the gap doubles each time the saved state moves on
/// (up to [`MAX_STRIDE`]): a quantum of a warp that computes takes seven samples.
/// A waiting loop comes back to the same state at each iteration, so any two samples
/// find it.
const STRIDE: u64 = 256;
const MAX_STRIDE: u64 = 4096;

/// Where a warp loops: its group's lanes, the loop's first instruction (the target
/// of the backward branch) and the branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loop {
    pub warp: u32,
    pub lanes: u32,
    pub head: u32,
    pub back: u32,
}

/// One warp's cycle finder.
#[derive(Debug, Default)]
pub struct Spin {
    /// Whether the warp is watched this turn.
    pub on: bool,
    saved: Vec<u32>,
    /// [`super::warp::Warp::effects`] when the state was saved.
    saved_effects: u64,
    has_saved: bool,
    /// Samples since the state was saved, and how many until it is saved again.
    count: u32,
    power: u32,
    /// The warp's clock at the last sample.
    last: u64,
    /// The loop found, while the warp has changed nothing since.
    pub found: Option<Loop>,
    effects_at_found: u64,
    /// Scratch for reading a state out.
    now: Vec<u32>,
}

impl Spin {
    /// Forgets what was seen: the warp starts a quantum (other warps ran meanwhile,
    /// and may have changed the memory it reads).
    pub fn restart(&mut self) {
        self.has_saved = false;
        self.count = 0;
        self.power = 1;
        self.found = None;
    }

    /// The loop the warp is in now, if it has changed nothing since it was found.
    pub fn looping(&self, effects: u64) -> Option<Loop> {
        self.found.filter(|_| self.on && effects == self.effects_at_found)
    }

    /// No sample at `clock` after all (the warp has more than one ready group).
    pub fn skip(&mut self, clock: u64) {
        self.last = clock;
    }

    /// The warp clock at which the next sample is due (`u64::MAX` once a loop is
    /// found: the warp stays in it for as long as it changes nothing).
    pub fn next_due(&self) -> u64 {
        let stride = (STRIDE * u64::from(self.power)).min(MAX_STRIDE);
        if self.found.is_some() { u64::MAX } else { self.last.saturating_add(stride) }
    }

    /// A sample: `write` puts the warp's state into its argument. `at` is where the
    /// warp loops if this state is the one saved.
    pub fn sample(&mut self, clock: u64, effects: u64, at: Loop, write: impl FnOnce(&mut Vec<u32>)) {
        self.last = clock;
        let mut now = std::mem::take(&mut self.now);
        now.clear();
        write(&mut now);
        // A state saved before the warp last changed something says nothing.
        let comparable = self.has_saved && self.saved_effects == effects;
        if comparable && self.saved == now {
            self.found = Some(at);
            self.effects_at_found = effects;
        } else {
            self.count += 1;
            if !comparable || self.count >= self.power {
                std::mem::swap(&mut self.saved, &mut now);
                self.saved_effects = effects;
                self.has_saved = true;
                self.power = self.power.saturating_mul(2).max(1);
                self.count = 0;
            }
        }
        self.now = now;
    }
}

/// Appends `rows` (of registers) to a state.
pub fn put_rows32(out: &mut Vec<u32>, rows: &[[u32; 32]]) {
    out.push(rows.len() as u32);
    out.extend_from_slice(rows.as_flattened());
}

/// Appends 64-bit `rows` to a state, each value as two words.
pub fn put_rows64(out: &mut Vec<u32>, rows: &[[u64; 32]]) {
    out.push(rows.len() as u32);
    out.extend(rows.as_flattened().iter().flat_map(|v| [*v as u32, (v >> 32) as u32]));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(head: u32) -> Loop {
        Loop { warp: 0, lanes: 1, head, back: head + 2 }
    }

    /// Feeds the states of `seq` as samples; the sample at which a loop is found.
    fn found_at(seq: impl Iterator<Item = u32>, effects: impl Fn(usize) -> u64) -> Option<usize> {
        let mut s = Spin { on: true, ..Spin::default() };
        s.restart();
        for (i, v) in seq.enumerate().take(10_000) {
            s.sample(i as u64 * MAX_STRIDE, effects(i), at(0), |out| out.push(v));
            if s.looping(effects(i)).is_some() {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn a_repeated_state_is_found_whatever_the_cycle_length_and_its_start() {
        for lead in [0usize, 1, 7, 100] {
            for len in [1u32, 2, 3, 17, 250] {
                let seq = (0..lead as u32).map(|i| 1_000_000 + i).chain((0..).map(move |i| i % len));
                let i = found_at(seq, |_| 0).unwrap_or_else(|| panic!("lead {lead}, length {len}"));
                // Brent's bound: the saved state reaches the loop and the gap between
                // saves reaches its length by twice the next power of two of the
                // larger of the two; one more length finds it.
                let (lead, len) = (lead, len as usize);
                let bound = 2 * lead.max(len).next_power_of_two() + len;
                assert!(i <= bound, "lead {lead}, length {len}: {i} > {bound}");
            }
        }
    }

    #[test]
    fn states_that_never_repeat_are_no_loop() {
        assert_eq!(found_at(0.., |_| 0), None);
    }

    #[test]
    fn a_state_repeated_across_an_effect_is_no_loop() {
        // The same state each time, but the warp changed memory each time.
        assert_eq!(found_at(std::iter::repeat(5), |i| i as u64), None);
        // Once it stops changing anything, the loop is found.
        assert!(found_at(std::iter::repeat(5), |i| (i as u64).min(10)).is_some());
    }

    #[test]
    fn a_loop_found_no_longer_counts_once_the_warp_changes_something() {
        let mut s = Spin { on: true, ..Spin::default() };
        s.restart();
        for i in 0..4 {
            s.sample(i * MAX_STRIDE, 3, at(0), |out| out.push(9));
        }
        assert_eq!(s.looping(3), Some(at(0)));
        assert_eq!(s.looping(4), None);
        s.restart();
        assert_eq!(s.looping(3), None);
    }

    #[test]
    fn rows_are_put_whole() {
        let mut out = Vec::new();
        put_rows64(&mut out, &[[0x1_0000_0002; 32]]);
        assert_eq!(out.len(), 65);
        assert_eq!(&out[1..3], &[2, 1]);
    }
}
