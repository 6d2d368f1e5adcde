//! ptxvm as a library: load examples/saxpy.ptx, run `saxpy` (y = a * x + y) on
//! host slices with the typed argument builder, and check the result against the
//! same computation on the host.
//!
//!     cargo run --release --example saxpy_lib

use ptxvm::api::{Args, Device, Module};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let module =
        Module::load(include_str!("saxpy.ptx")).map_err(|diags| format!("{} errors", diags.len()))?;
    let kernel = module.kernel("saxpy").map_err(|e| e.message)?;

    let n = 1u32 << 16;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let mut y: Vec<f32> = (0..n).map(|i| (i % 100) as f32).collect();
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.0f32.mul_add(*x, *y)).collect();

    let mut device = Device::default();
    // saxpy(float a, const float *x, float *y, int n): one thread per element.
    let args = Args::new().f32(2.0).buffer(&x).buffer_mut(&mut y).u32(n);
    device.launch_args(&kernel, n.div_ceil(256), 256, args)?;

    assert_eq!(y, want, "y = 2x + y, computed on the host with the same fused multiply-add");
    println!("saxpy over {n} elements: y[1] = {}, y[{}] = {}", y[1], n - 1, y[n as usize - 1]);
    Ok(())
}
