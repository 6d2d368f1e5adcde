//! Any text: parse, check, lower, and launch each kernel on one warp under a small
//! step budget. A panic, a hang or an allocation past libFuzzer's limit is a bug;
//! diagnostics, lowering errors and faults are answers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptxvm::api::{Device, Module};
use ptxvm::exec::limits::Limits;
use ptxvm::launch::Dim3;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let Ok(module) = Module::load(src) else { return };
    for name in module.kernel_names() {
        let Ok(kernel) = module.kernel(&name) else { continue };
        let mut device = Device::default();
        let Ok(buffer) = device.alloc(1 << 12) else { return };
        // 64-bit parameters point into a buffer, narrower ones are 1.
        let mut params = vec![0u8; kernel.param_bytes as usize];
        for &(_, offset, size) in &kernel.params {
            let v: u64 = if size == 8 { buffer } else { 1 };
            let (o, n) = (offset as usize, (size as usize).min(8));
            if let Some(p) = params.get_mut(o..o + n) {
                p.copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
        let one = Dim3 { x: 1, y: 1, z: 1 };
        let warp = Dim3 { x: 32, y: 1, z: 1 };
        let _ = device.launch_with(&kernel, one, warp, 0, &params, &Limits::new(2_000));
    }
});
