//! The mbarrier object (PTX ISA 9.7.13.15 "mbarrier"): its state and what each
//! operation does to it, as pure functions of the 64-bit word the object occupies in
//! shared memory, so the executor only loads, applies and stores.
//!
//! The ISA leaves the object's format opaque; ptxvm's encoding keeps the four parts of
//! its state: the current phase's parity, the pending arrival count, the expected
//! arrival count (what pending resets to when a phase completes) and the tx-count.
//! A phase completes when pending arrivals and tx-count are both zero; then the
//! parity flips, pending arrivals reload from the expected count and tx-count is 0.
//! Counts are limited to 2^20 - 1 and the tx-count to ±(2^20 - 1); the ISA calls
//! going outside them undefined, so these functions return why instead.
//!
//! Layout: bits 0-19 pending, 20-39 expected, 40-60 tx-count (21-bit two's
//! complement), 61 parity, 62-63 the tag `0b10` that marks an initialised object
//! (zeroed or invalidated memory has none). `arrive` returns the word as it was
//! before the arrive-on operation: that is the opaque state `test_wait`, `try_wait`
//! and `pending_count` read; a `.noComplete` arrival's state carries the tag `0b11`,
//! since `pending_count` may only read those (the ISA: "the pending count of the
//! mbarrier object prior to the arrive-on operation" of an `arrive.noComplete` or
//! `arrive_drop.noComplete`; any other state is undefined behaviour).

/// The largest arrival count and the largest magnitude of the tx-count.
pub const MAX_COUNT: u32 = (1 << 20) - 1;
const TAG: u64 = 0b10 << 62;
const TAG_MASK: u64 = 0b11 << 62;
/// The bit that turns the tag of a state into `0b11`: from a `.noComplete` arrival.
const NO_COMPLETE: u64 = 1 << 62;

/// The state of one mbarrier object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mbarrier {
    /// The parity of the current phase (`false`: even).
    pub parity: bool,
    pub pending: u32,
    pub expected: u32,
    pub tx: i32,
}

/// What an arrive-on operation does besides counting `count` arrivals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrive {
    /// `arrive_drop`: the expected count of later phases drops by `count` too.
    pub drop: bool,
    /// `.noComplete`: the arrival must not complete the phase.
    pub no_complete: bool,
    /// `.expect_tx`: bytes added to the tx-count before the arrival.
    pub expect_tx: Option<u64>,
}

impl Mbarrier {
    /// `mbarrier.init`: phase 0, `count` pending and expected, tx-count 0.
    ///
    /// # Errors
    /// A count outside 1..=2^20-1.
    pub fn init(count: u64) -> Result<Mbarrier, String> {
        let c = check_count(count, "mbarrier.init: the expected arrival count")?;
        Ok(Mbarrier { parity: false, pending: c, expected: c, tx: 0 })
    }

    /// The object a word holds, or `None` when it holds no initialised one.
    pub fn decode(word: u64) -> Option<Mbarrier> {
        if word & TAG_MASK != TAG {
            return None;
        }
        let field = |at: u32| (word >> at) as u32 & MAX_COUNT;
        // The tx-count's 21 bits, sign-extended.
        let tx = (((word >> 40) as u32 & 0x1f_ffff) << 11) as i32 >> 11;
        Some(Mbarrier { parity: word >> 61 & 1 == 1, pending: field(0), expected: field(20), tx })
    }

    pub fn encode(self) -> u64 {
        TAG | u64::from(self.parity) << 61
            | u64::from(self.tx as u32 & 0x1f_ffff) << 40
            | u64::from(self.expected & MAX_COUNT) << 20
            | u64::from(self.pending & MAX_COUNT)
    }

    /// An arrive-on operation of `count` arrivals (`mbarrier.arrive`,
    /// `arrive_drop`, `arrive.expect_tx`, `cp.async.mbarrier.arrive.noinc`). Returns
    /// the state before it.
    ///
    /// # Errors
    /// A count outside 1..=2^20-1 or above the pending arrivals, a drop below zero
    /// expected arrivals, a tx-count out of range, or a `.noComplete` arrival that
    /// completes the phase.
    pub fn arrive(&mut self, count: u64, how: Arrive) -> Result<u64, String> {
        let before = self.encode();
        let c = check_count(count, "mbarrier.arrive: the arrival count")?;
        if let Some(bytes) = how.expect_tx {
            self.expect_tx(bytes)?;
        }
        if c > self.pending {
            return Err(format!(
                "mbarrier.arrive: {c} arrivals when the current phase has {} pending (undefined behaviour)",
                self.pending
            ));
        }
        if how.drop {
            if c > self.expected {
                return Err(format!(
                    "mbarrier.arrive_drop: drops {c} arrivals from an expected count of {}",
                    self.expected
                ));
            }
            self.expected -= c;
        }
        self.pending -= c;
        if how.no_complete && self.pending == 0 && self.tx == 0 {
            return Err(
                "mbarrier.arrive.noComplete: the arrival completes the current phase (undefined behaviour)"
                    .into(),
            );
        }
        self.settle()?;
        Ok(if how.no_complete { before | NO_COMPLETE } else { before })
    }

    /// An expect-tx operation: the tx-count grows by `bytes`.
    ///
    /// # Errors
    /// `bytes` above 2^20-1, or a tx-count past 2^20-1.
    pub fn expect_tx(&mut self, bytes: u64) -> Result<(), String> {
        let b = u32::try_from(bytes)
            .ok()
            .filter(|&b| b <= MAX_COUNT)
            .ok_or_else(|| format!("mbarrier expect-tx: {bytes} bytes is outside 0..={MAX_COUNT}"))?;
        let tx = self.tx + b as i32;
        if tx > MAX_COUNT as i32 {
            return Err(format!("mbarrier expect-tx: the tx-count {tx} overflows {MAX_COUNT}"));
        }
        self.tx = tx;
        Ok(())
    }

    /// A complete-tx operation: `bytes` of asynchronous transfers done, the
    /// tx-count shrinks by them (and may go below zero while arrivals are pending:
    /// a transfer may complete before its expect-tx).
    ///
    /// # Errors
    /// `bytes` above 2^20-1, a tx-count below -(2^20-1), or one below zero once every
    /// arrival is in (more bytes completed than the phase expects).
    pub fn complete_tx(&mut self, bytes: u64) -> Result<(), String> {
        let b = u32::try_from(bytes)
            .ok()
            .filter(|&b| b <= MAX_COUNT)
            .ok_or_else(|| format!("mbarrier complete-tx: {bytes} bytes is outside 0..={MAX_COUNT}"))?;
        let tx = self.tx - b as i32;
        if tx < -(MAX_COUNT as i32) {
            return Err(format!("mbarrier complete-tx: the tx-count {tx} underflows -{MAX_COUNT}"));
        }
        self.tx = tx;
        self.settle()
    }

    /// Completes the current phase if nothing is pending.
    fn settle(&mut self) -> Result<(), String> {
        if self.pending != 0 {
            return Ok(());
        }
        if self.tx < 0 {
            return Err(format!(
                "mbarrier: every arrival is in but the tx-count is {}: more bytes completed than were expected",
                self.tx
            ));
        }
        if self.tx == 0 {
            self.parity = !self.parity;
            self.pending = self.expected;
            // A phase whose expected count dropped to zero has nothing to wait for;
            // the ISA leaves what follows undefined, and no arrival can come.
        }
        Ok(())
    }

    /// Whether the phase of parity `parity` has completed: it is not the current one
    /// (`test_wait.parity`/`try_wait.parity`, PTX ISA: the wait is for "the phase
    /// indicated by phaseParity", the current or the immediately preceding one).
    pub fn parity_done(self, parity: bool) -> bool {
        self.parity != parity
    }
}

/// The parity of the phase an opaque state (from `arrive`) names.
///
/// # Errors
/// A value that no `arrive` returned.
pub fn state_parity(state: u64) -> Result<bool, String> {
    Mbarrier::decode(state & !NO_COMPLETE)
        .map(|m| m.parity)
        .ok_or_else(|| format!("mbarrier: the state {state:#x} is not one an mbarrier.arrive returned"))
}

/// `mbarrier.pending_count`: the pending arrivals before the `.noComplete` arrival
/// the state came from.
///
/// # Errors
/// A value that no `.noComplete` arrival returned (undefined behaviour).
pub fn pending_count(state: u64) -> Result<u32, String> {
    if state & TAG_MASK != TAG | NO_COMPLETE {
        return Err(format!(
            "mbarrier.pending_count: the state {state:#x} is not one an mbarrier.arrive.noComplete or \
             arrive_drop.noComplete returned (undefined behaviour)"
        ));
    }
    Mbarrier::decode(state & !NO_COMPLETE).map(|m| m.pending).ok_or_else(|| {
        format!("mbarrier.pending_count: the state {state:#x} is not one an mbarrier.arrive returned")
    })
}

fn check_count(count: u64, what: &str) -> Result<u32, String> {
    match u32::try_from(count) {
        Ok(c) if (1..=MAX_COUNT).contains(&c) => Ok(c),
        _ => Err(format!("{what} {count} is outside 1..={MAX_COUNT} (undefined behaviour)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_every_field() {
        for parity in [false, true] {
            for pending in [0, 1, 7, MAX_COUNT] {
                for expected in [1, 300, MAX_COUNT] {
                    for tx in [-(MAX_COUNT as i32), -1, 0, 1, 4096, MAX_COUNT as i32] {
                        let m = Mbarrier { parity, pending, expected, tx };
                        assert_eq!(Mbarrier::decode(m.encode()), Some(m));
                    }
                }
            }
        }
        // Zeroed shared memory holds no barrier.
        assert_eq!(Mbarrier::decode(0), None);
    }

    #[test]
    fn phases_complete_on_the_last_arrival_and_reload() {
        let mut m = Mbarrier::init(3).unwrap();
        let s0 = m.arrive(1, Arrive { no_complete: true, ..Arrive::default() }).unwrap();
        assert_eq!(pending_count(s0), Ok(3));
        // Only a .noComplete arrival's state may be read by pending_count.
        assert!(pending_count(Mbarrier::init(3).unwrap().arrive(1, Arrive::default()).unwrap()).is_err());
        m.arrive(1, Arrive::default()).unwrap();
        assert!(!m.parity_done(false));
        let s2 = m.arrive(1, Arrive::default()).unwrap();
        // The last arrival's state names the phase it completed.
        assert_eq!(state_parity(s2), Ok(false));
        assert!(m.parity_done(false) && !m.parity_done(true));
        assert_eq!((m.pending, m.expected, m.tx), (3, 3, 0));
        m.arrive(3, Arrive::default()).unwrap();
        assert!(m.parity_done(true) && !m.parity_done(false));
    }

    #[test]
    fn tx_count_holds_the_phase_until_the_bytes_arrive() {
        let mut m = Mbarrier::init(1).unwrap();
        m.arrive(1, Arrive { expect_tx: Some(64), ..Arrive::default() }).unwrap();
        assert_eq!((m.pending, m.tx, m.parity), (0, 64, false));
        m.complete_tx(48).unwrap();
        assert!(!m.parity);
        m.complete_tx(16).unwrap();
        assert_eq!((m.pending, m.tx, m.parity), (1, 0, true));
        // A transfer may complete before its expect-tx.
        m.complete_tx(32).unwrap();
        assert_eq!(m.tx, -32);
        m.expect_tx(32).unwrap();
        m.arrive(1, Arrive::default()).unwrap();
        assert!(!m.parity);
    }

    #[test]
    fn drop_lowers_later_phases() {
        let mut m = Mbarrier::init(4).unwrap();
        m.arrive(1, Arrive { drop: true, ..Arrive::default() }).unwrap();
        assert_eq!((m.pending, m.expected), (3, 3));
        m.arrive(3, Arrive::default()).unwrap();
        assert_eq!((m.pending, m.expected, m.parity), (3, 3, true));
    }

    #[test]
    fn undefined_uses_are_errors() {
        assert!(Mbarrier::init(0).is_err());
        assert!(Mbarrier::init(1 << 20).is_err());
        let mut m = Mbarrier::init(2).unwrap();
        assert!(m.arrive(3, Arrive::default()).is_err());
        assert!(m.arrive(0, Arrive::default()).is_err());
        assert!(m.arrive(2, Arrive { no_complete: true, ..Arrive::default() }).is_err());
        let mut m = Mbarrier::init(2).unwrap();
        m.expect_tx(u64::from(MAX_COUNT)).unwrap();
        assert!(m.expect_tx(1).is_err());
        assert!(m.complete_tx(1 << 20).is_err());
        let mut m = Mbarrier::init(1).unwrap();
        m.arrive(1, Arrive { expect_tx: Some(8), ..Arrive::default() }).unwrap();
        assert!(m.complete_tx(16).is_err());
        assert!(state_parity(0).is_err() && pending_count(12).is_err());
    }
}
