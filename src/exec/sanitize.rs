//! The shared-memory checks of `ptxvm run --sanitize`, in the manner of NVIDIA's
//! compute-sanitizer: `racecheck` reports two threads of a CTA that touch the same
//! byte of shared memory between two barriers, at least one of them writing
//! (read-after-write, write-after-read, write-after-write); `initcheck` reports a read
//! of a shared byte no thread of the CTA has written.
//!
//! A shadow byte keeps, for each byte of the CTA's shared memory, its last write and
//! its last reads (two readers, so a write can name a reader other than itself), each
//! with the thread, the instruction and the barrier phase it happened in. A completed
//! barrier starts a new phase, so accesses of earlier phases never conflict; between
//! two lanes of one warp, a `bar.warp.sync` both took part in orders them too (each
//! warp numbers its syncs and keeps, for every pair of lanes, the last one both were
//! in). Atomics do not conflict with each other. A named barrier that
//! only some warps wait at also starts a new phase for all of them: racecheck may
//! miss a race around one, never report a race that is not there.
//!
//! Only a launch with the switch builds the shadow: every other run reads no more than
//! an `Option` that is `None`. A host thread keeps one shadow for the CTAs it runs:
//! each cell carries the CTA it was written in, so a new CTA finds it empty without
//! clearing it.

/// What a hazard is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    /// A read of a byte another thread wrote in the same phase.
    ReadAfterWrite,
    /// A write of a byte another thread read in the same phase.
    WriteAfterRead,
    /// A write of a byte another thread wrote in the same phase.
    WriteAfterWrite,
    /// A read of a byte no thread of the CTA has written.
    Uninitialized,
}

impl HazardKind {
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadAfterWrite => "read-after-write hazard",
            HazardKind::WriteAfterRead => "write-after-read hazard",
            HazardKind::WriteAfterWrite => "write-after-write hazard",
            HazardKind::Uninitialized => "read of uninitialized shared memory",
        }
    }
}

/// One thread's access: the thread (warp and lane) and the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub warp: u32,
    pub lane: u32,
    pub pc: u32,
    pub write: bool,
}

/// A hazard of one CTA: the access that found it, the earlier access it conflicts with
/// (none for an uninitialized read), the shared byte, and how many more times the same
/// pair of instructions met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    pub kind: HazardKind,
    /// The CTA, in launch order.
    pub cta: u64,
    /// Byte offset in the CTA's shared memory.
    pub offset: u32,
    pub earlier: Option<Access>,
    pub access: Access,
    pub count: u64,
    /// How many CTAs met it (`cta` is the first in launch order).
    pub ctas: u64,
}

/// Most distinct hazards a launch keeps.
const MAX_LAUNCH_HAZARDS: usize = 1024;

/// Adds one CTA's `found` hazards to the launch's `all`: the same kind and pair of
/// instructions is one hazard, counted, with the first CTA's details.
pub fn merge(all: &mut Vec<Hazard>, found: Vec<Hazard>) {
    for h in found {
        let same = |a: &&mut Hazard| {
            a.kind == h.kind
                && a.access.pc == h.access.pc
                && a.earlier.map(|e| e.pc) == h.earlier.map(|e| e.pc)
        };
        if let Some(a) = all.iter_mut().find(same) {
            let (count, ctas) = (a.count + h.count, a.ctas + h.ctas);
            if h.cta < a.cta {
                *a = h;
            }
            a.count = count;
            a.ctas = ctas;
        } else if all.len() < MAX_LAUNCH_HAZARDS {
            all.push(h);
        }
    }
}

/// Which checks a shadow makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShadowChecks {
    pub race: bool,
    pub init: bool,
}

/// An access as the shadow keeps it.
#[derive(Clone, Copy, Default)]
struct Mark {
    /// 0: none; else the barrier phase (from 1).
    phase: u32,
    warp: u32,
    lane: u32,
    pc: u32,
    /// The number of the warp's last `bar.warp.sync` before the access.
    wsync: u32,
    atomic: bool,
}

#[derive(Clone, Copy, Default)]
struct Cell {
    /// The CTA (from 1, per shadow) the marks belong to; another's are stale.
    cta: u32,
    write: Mark,
    reads: [Mark; 2],
    written: bool,
}

/// Most distinct hazards one CTA records.
const MAX_HAZARDS: usize = 64;

/// The shadow of a CTA's shared memory.
pub struct Shadow {
    checks: ShadowChecks,
    cells: Vec<Cell>,
    phase: u32,
    /// The CTA (launch order), and its number among this shadow's CTAs.
    cta: u64,
    generation: u32,
    hazards: Vec<Hazard>,
}

/// Who is accessing: the thread, the instruction, the number of the warp's last
/// `bar.warp.sync`, and for each lane of the warp the last one this lane and that one
/// both took part in.
#[derive(Clone, Copy)]
pub struct Who {
    pub warp: u32,
    pub lane: u32,
    pub pc: u32,
    pub wsync: u32,
    pub synced: [u32; 32],
}

impl Shadow {
    pub fn new(checks: ShadowChecks) -> Shadow {
        Shadow { checks, cells: Vec::new(), phase: 1, cta: 0, generation: 0, hazards: Vec::new() }
    }

    /// Starts CTA `cta` with `bytes` of shared memory: every cell reads as untouched.
    pub fn start(&mut self, cta: u64, bytes: usize) {
        if self.cells.len() < bytes {
            self.cells.resize(bytes, Cell::default());
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 CTAs: clear once rather than mistake an old cell for new.
            self.cells.fill(Cell::default());
            self.generation = 1;
        }
        self.cta = cta;
        self.phase = 1;
    }

    /// A barrier completed: a new phase begins.
    pub fn barrier(&mut self) {
        self.phase += 1;
    }

    /// What the shadow found, the CTA's hazards.
    pub fn take_hazards(&mut self) -> Vec<Hazard> {
        std::mem::take(&mut self.hazards)
    }

    /// `who` reads (`write` false) or writes `size` bytes at `offset`.
    pub fn access(&mut self, who: Who, offset: usize, size: usize, write: bool, atomic: bool) {
        let now =
            Mark { phase: self.phase, warp: who.warp, lane: who.lane, pc: who.pc, wsync: who.wsync, atomic };
        let access = Access { warp: who.warp, lane: who.lane, pc: who.pc, write };
        let mut reported = false;
        for k in offset..offset + size {
            let Some(&stored) = self.cells.get(k) else { return };
            let cell = if stored.cta == self.generation {
                stored
            } else {
                Cell { cta: self.generation, ..Cell::default() }
            };
            let mut found = None;
            if reported {
                // One report an access, at its first byte that has one.
            } else if self.checks.init && !write && !cell.written {
                found = Some((HazardKind::Uninitialized, None));
            }
            if self.checks.race && !reported && found.is_none() {
                let conflicts = |m: &Mark| {
                    m.phase == now.phase
                        && (m.warp, m.lane) != (now.warp, now.lane)
                        && !(m.warp == now.warp && who.synced[m.lane as usize] > m.wsync)
                        && !(m.atomic && now.atomic)
                };
                let earlier = |m: &Mark, w| Access { warp: m.warp, lane: m.lane, pc: m.pc, write: w };
                if conflicts(&cell.write) {
                    let kind = if write { HazardKind::WriteAfterWrite } else { HazardKind::ReadAfterWrite };
                    found = Some((kind, Some(earlier(&cell.write, true))));
                } else if write && let Some(r) = cell.reads.iter().find(|r| conflicts(r)) {
                    found = Some((HazardKind::WriteAfterRead, Some(earlier(r, false))));
                }
            }
            if let Some((kind, earlier)) = found {
                self.record(kind, k as u32, earlier, access);
                reported = true;
            }
            let cell = &mut self.cells[k];
            if stored.cta != self.generation {
                *cell = Cell { cta: self.generation, ..Cell::default() };
            }
            if write {
                cell.write = now;
                cell.written = true;
            } else if (cell.reads[0].phase, cell.reads[0].warp, cell.reads[0].lane)
                != (now.phase, now.warp, now.lane)
            {
                // The newest reader first; the one before it, if another thread, second.
                cell.reads[1] = cell.reads[0];
                cell.reads[0] = now;
            }
        }
    }

    fn record(&mut self, kind: HazardKind, offset: u32, earlier: Option<Access>, access: Access) {
        let same = |h: &Hazard| {
            h.kind == kind && h.access.pc == access.pc && h.earlier.map(|e| e.pc) == earlier.map(|e| e.pc)
        };
        if let Some(h) = self.hazards.iter_mut().find(|h| same(h)) {
            h.count += 1;
        } else if self.hazards.len() < MAX_HAZARDS {
            self.hazards.push(Hazard { kind, cta: self.cta, offset, earlier, access, count: 1, ctas: 1 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(warp: u32, lane: u32, pc: u32) -> Who {
        Who { warp, lane, pc, wsync: 0, synced: [0; 32] }
    }

    fn shadow(checks: ShadowChecks, cta: u64, bytes: usize) -> Shadow {
        let mut s = Shadow::new(checks);
        s.start(cta, bytes);
        s
    }

    const BOTH: ShadowChecks = ShadowChecks { race: true, init: true };

    #[test]
    fn another_threads_access_in_the_same_phase_is_a_hazard() {
        let mut s = shadow(BOTH, 0, 16);
        s.access(who(0, 1, 10), 4, 4, true, false);
        // The same thread reading back its own write: no hazard.
        s.access(who(0, 1, 11), 4, 4, false, false);
        // Another lane reads it: read after write, once per instruction pair.
        s.access(who(0, 2, 12), 4, 4, false, false);
        let h = s.take_hazards();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].kind, HazardKind::ReadAfterWrite);
        assert_eq!((h[0].offset, h[0].count), (4, 1));
        assert_eq!(h[0].earlier, Some(Access { warp: 0, lane: 1, pc: 10, write: true }));
        // A third thread's write: after lane 1's write (write after write) ...
        s.access(who(1, 0, 13), 4, 1, true, false);
        let h = s.take_hazards();
        assert_eq!(h[0].kind, HazardKind::WriteAfterWrite);
        // ... and a write after lane 2's read once the writes are of an earlier phase.
        s.barrier();
        s.access(who(0, 2, 14), 5, 1, false, false);
        s.access(who(1, 0, 15), 5, 1, true, false);
        let h = s.take_hazards();
        assert_eq!((h[0].kind, h[0].earlier.map(|e| e.pc)), (HazardKind::WriteAfterRead, Some(14)));
    }

    #[test]
    fn barriers_and_warp_syncs_order_accesses_and_atomics_do_not_race() {
        let mut s = shadow(BOTH, 0, 8);
        s.access(who(0, 0, 1), 0, 4, true, false);
        s.barrier();
        s.access(who(1, 5, 2), 0, 4, false, false);
        // Lane 6 writes after a __syncwarp that lane 5 took part in too: ordered.
        let mut synced = who(1, 6, 3);
        synced.wsync = 1;
        synced.synced[5] = 1;
        s.access(synced, 0, 4, true, false);
        assert_eq!(s.take_hazards().len(), 0);
        // Lane 7 went through a later sync without lane 6: not ordered after its write.
        let mut apart = who(1, 7, 9);
        apart.wsync = 2;
        apart.synced[5] = 1;
        s.access(apart, 0, 4, false, false);
        assert_eq!(s.take_hazards().len(), 1);
        s.access(who(0, 0, 4), 4, 4, true, true);
        s.access(who(0, 1, 5), 4, 4, true, true);
        assert!(s.take_hazards().is_empty());
        // A write after another thread's read, the reader named (the write of byte 0
        // belongs to an earlier phase).
        let mut s = shadow(BOTH, 0, 8);
        s.access(who(0, 0, 5), 0, 1, true, false);
        s.barrier();
        s.access(who(2, 0, 6), 0, 1, false, false);
        s.access(who(2, 1, 7), 0, 1, false, false);
        s.access(who(2, 0, 8), 0, 1, true, false);
        let h = s.take_hazards();
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!(h[0].kind, HazardKind::WriteAfterRead);
        assert_eq!(h[0].earlier.map(|e| (e.lane, e.pc)), Some((1, 7)));
    }

    #[test]
    fn a_new_cta_finds_every_cell_untouched() {
        let mut s = shadow(BOTH, 0, 8);
        s.access(who(0, 0, 1), 0, 4, true, false);
        s.start(1, 8);
        // Written in the last CTA only: uninitialized here, and no race with it.
        s.access(who(0, 1, 2), 0, 4, false, false);
        let h = s.take_hazards();
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].kind, h[0].cta), (HazardKind::Uninitialized, 1));
    }

    #[test]
    fn a_read_of_a_byte_never_written_is_uninitialized() {
        let mut s = shadow(ShadowChecks { race: false, init: true }, 3, 8);
        s.access(who(0, 0, 1), 0, 2, true, false);
        s.access(who(0, 0, 2), 0, 4, false, false);
        let h = s.take_hazards();
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].kind, h[0].offset, h[0].cta, h[0].earlier), (HazardKind::Uninitialized, 2, 3, None));
    }
}
