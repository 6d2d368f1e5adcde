//! The integrity check: NVIDIA's runtime asks the driver for a 16-byte proof that it
//! is NVIDIA's, computed from the runtime's version, the time, the process, the
//! tables' addresses and the devices, and compares it with its own. The proof is an
//! HMAC (RFC 2104) over MD2 (RFC 1319) with a fixed key; the message layout and the
//! key were learnt by ZLUDA's authors. For two kinds of runtime version the answer
//! is a constant.

use super::{Slot, Table};
use crate::types::CUresult;

pub(super) const INTEGRITY_ID: [u8; 16] =
    [0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2];

pub(super) static INTEGRITY: Table<3> = Table::new::<7>(true).with(1, check as Slot);

/// MD2's substitution of the bytes 0-255, from the digits of pi (RFC 1319, 3.2).
const S: [u8; 256] = [
    41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199, 115, 140,
    152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229,
    18, 190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122, 169, 104, 121, 145, 21,
    178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191,
    247, 151, 3, 255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198, 79, 184, 56, 210,
    150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241, 69, 157, 112, 89, 100, 113, 135, 32, 134, 91,
    207, 101, 230, 45, 168, 2, 27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71,
    163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211,
    223, 205, 244, 65, 129, 77, 82, 106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
    120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14, 102, 88,
    208, 228, 166, 119, 114, 248, 235, 117, 75, 10, 49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51,
    159, 17, 131, 20,
];

/// MD2 (RFC 1319) over bytes fed in pieces.
#[derive(Clone)]
struct Md2 {
    /// The 48-byte state: the digest so far, the block, and their exclusive or.
    x: [u8; 48],
    checksum: [u8; 16],
    block: [u8; 16],
    filled: usize,
}

impl Md2 {
    fn new() -> Md2 {
        Md2 { x: [0; 48], checksum: [0; 16], block: [0; 16], filled: 0 }
    }

    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.block[self.filled] = b;
            self.filled += 1;
            if self.filled == 16 {
                self.compress();
                self.filled = 0;
            }
        }
    }

    /// Folds the full block into the checksum and the state (RFC 1319, 3.2 and 3.4).
    fn compress(&mut self) {
        let mut l = self.checksum[15];
        for j in 0..16 {
            self.checksum[j] ^= S[(self.block[j] ^ l) as usize];
            l = self.checksum[j];
        }
        for j in 0..16 {
            self.x[16 + j] = self.block[j];
            self.x[32 + j] = self.block[j] ^ self.x[j];
        }
        let mut t = 0u8;
        for round in 0..18u8 {
            for k in 0..48 {
                self.x[k] ^= S[t as usize];
                t = self.x[k];
            }
            t = t.wrapping_add(round);
        }
    }

    /// Pads (RFC 1319, 3.1), appends the checksum (3.2) and gives the digest.
    fn finish(mut self) -> [u8; 16] {
        let pad = (16 - self.filled) as u8;
        self.update(&vec![pad; pad as usize]);
        let checksum = self.checksum;
        self.update(&checksum);
        self.x[..16].try_into().unwrap_or([0; 16])
    }
}

/// HMAC-MD2 of `message` under a 16-byte `key` (MD2's block is 16 bytes).
fn hmac(key: &[u8; 16], message: &[&[u8]]) -> [u8; 16] {
    let mut inner = Md2::new();
    inner.update(&key.map(|k| k ^ 0x36));
    for part in message {
        inner.update(part);
    }
    let mut outer = Md2::new();
    outer.update(&key.map(|k| k ^ 0x5c));
    outer.update(&inner.finish());
    outer.finish()
}

/// The proof's key.
const KEY: [u8; 16] =
    [0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52, 0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f];

/// What the proof covers besides the devices.
#[derive(Clone, Copy)]
pub(super) struct Inputs {
    pub driver_version: u32,
    pub runtime_version: u32,
    pub process: u32,
    pub thread: u32,
    pub runtime_table: usize,
    pub integrity_table: usize,
    pub function: usize,
    pub unix_seconds: u64,
}

/// One device as the proof covers it: its UUID and PCI domain, bus and device.
pub(super) struct DeviceId {
    pub uuid: [u8; 16],
    pub pci: [i32; 3],
}

/// The 16-byte proof, as two words.
pub(super) fn proof(inputs: &Inputs, devices: &[DeviceId]) -> [u64; 2] {
    match inputs.runtime_version % 10 {
        0 => return [0x3341181c03cb675c, 0x8ed383aa1f4cd1e8],
        1 => return [0x1841181c03cb675c, 0x8ed383aa1f4cd1e8],
        _ => {}
    }
    let mut head = Vec::with_capacity(48);
    for w in [inputs.driver_version, inputs.runtime_version, inputs.process, inputs.thread] {
        head.extend_from_slice(&w.to_le_bytes());
    }
    for w in [inputs.runtime_table, inputs.integrity_table, inputs.function] {
        head.extend_from_slice(&(w as u64).to_le_bytes());
    }
    head.extend_from_slice(&inputs.unix_seconds.to_le_bytes());
    let devs: Vec<u8> = devices
        .iter()
        .flat_map(|d| d.uuid.into_iter().chain(d.pci.iter().flat_map(|p| p.to_le_bytes())))
        .collect();
    let digest = hmac(&KEY, &[&head, &devs]);
    let word = |k: usize| u64::from_le_bytes(digest[k..k + 8].try_into().unwrap_or([0; 8]));
    [word(0), word(8)]
}

/// Slot 1: the proof for runtime version `version` at time `unix_seconds`.
unsafe extern "C" fn check(version: u32, unix_seconds: u64, result: *mut [u64; 2]) -> CUresult {
    crate::entry("integrity check", String::new, || {
        let attribute = |a: i32| crate::device::attribute(a).unwrap_or(0);
        // CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, _PCI_BUS_ID and _PCI_DEVICE_ID.
        let device =
            DeviceId { uuid: crate::device::UUID, pci: [attribute(50), attribute(33), attribute(34)] };
        let inputs = Inputs {
            driver_version: crate::device::DRIVER_VERSION as u32,
            runtime_version: version,
            process: std::process::id(),
            // SAFETY: pthread_self has no preconditions.
            thread: unsafe { libc::pthread_self() } as u32,
            runtime_table: super::runtime::RUNTIME.0.as_ptr() as usize,
            integrity_table: INTEGRITY.0.as_ptr() as usize,
            function: check as *const () as usize,
            unix_seconds,
        };
        crate::out(result, proof(&inputs, &[device]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md2(text: &str) -> String {
        let mut h = Md2::new();
        h.update(text.as_bytes());
        h.finish().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// An exchange between NVIDIA's runtime and driver that ZLUDA's authors
    /// recorded (driver 12020, runtime version 11082, one device): the proof the
    /// driver gave, from the inputs both sides hash.
    #[test]
    fn the_proof_of_a_recorded_exchange() {
        let inputs = Inputs {
            driver_version: 12020,
            runtime_version: 0x2b4a,
            process: 0x4d08,
            thread: 0x2b78,
            runtime_table: 0x7ff8_c807_17f0,
            integrity_table: 0x7ff8_c825_e4b0,
            function: 0x7ff8_c7dd_0ad0,
            unix_seconds: 0x64a3_65ee,
        };
        let device = DeviceId {
            uuid: [
                0x67, 0x22, 0xcb, 0xcf, 0xc6, 0x61, 0xf2, 0x92, 0x74, 0xd6, 0xed, 0x23, 0x2a, 0x32, 0x13,
                0x1c,
            ],
            pci: [0, 4, 0],
        };
        let [lo, hi] = proof(&inputs, &[device]);
        let bytes: Vec<u8> = lo.to_le_bytes().into_iter().chain(hi.to_le_bytes()).collect();
        let want =
            [0x7a, 0x70, 0x14, 0xf2, 0x28, 0x46, 0xc3, 0xa7, 0x84, 0xcd, 0xbf, 0x42, 0x33, 0x31, 0xf1, 0xea];
        assert_eq!(bytes, want);
        // Versions ending in 0 or 1 get a constant.
        let constant = Inputs { runtime_version: 13050, ..inputs };
        assert_eq!(proof(&constant, &[]), [0x3341181c03cb675c, 0x8ed383aa1f4cd1e8]);
    }

    #[test]
    fn md2_gives_rfc_1319s_test_suite() {
        // RFC 1319, appendix A.5.
        assert_eq!(md2(""), "8350e5a3e24c153df2275c9f80692773");
        assert_eq!(md2("a"), "32ec01ec4a6dac72c0ab96fb34c0b5d1");
        assert_eq!(md2("abc"), "da853b0d3f88d99b30283a69e6ded6bb");
        assert_eq!(md2("message digest"), "ab4f496bfb2a530b219ff33031fe06b0");
        assert_eq!(md2("abcdefghijklmnopqrstuvwxyz"), "4e8ddff3650292ab5a4108c3aa47940b");
        assert_eq!(
            md2("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "d5976f79d83d3a0dc9806c3c66f3efd8"
        );
    }
}
