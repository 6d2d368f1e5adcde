//! `Device::bind`: a launch spec bound to its kernel through the library, as the
//! command line does (launch contract: scalars by value at their parameter's
//! offset, buffers by device address).

use ptxvm::api::{BindError, Device, Module};
use ptxvm::exec::limits::Limits;
use ptxvm::launch::parse_spec;

const SAXPY: &str = include_str!("../examples/saxpy.ptx");
const SPEC: &str = include_str!("../examples/saxpy.json");

fn spec_err(r: Result<ptxvm::api::Bound, BindError>) -> String {
    match r {
        Err(BindError::Spec(m)) => m,
        Err(BindError::Lower(e)) => panic!("lower error {}", e.message),
        Ok(_) => panic!("bound"),
    }
}

#[test]
fn a_spec_binds_to_packed_parameters_and_filled_buffers() {
    let module = Module::load(SAXPY).unwrap();
    let spec = parse_spec(SPEC).unwrap();
    let mut device = Device::default();
    let b = device.bind(&module, &spec).unwrap();
    assert_eq!(b.kernel.name, "saxpy");
    // saxpy(float a, float *x, float *y, int n): offsets 0, 8, 16, 24.
    assert_eq!(b.params.len(), 28);
    assert_eq!(&b.params[0..4], &2.0f32.to_le_bytes());
    assert_eq!(b.buffers.len(), 2);
    assert_eq!((b.buffers[0].arg, b.buffers[1].arg), (1, 2));
    assert_eq!(&b.params[8..16], &b.buffers[0].addr.to_le_bytes());
    assert_eq!(&b.params[16..24], &b.buffers[1].addr.to_le_bytes());
    assert_eq!(&b.params[24..28], &10i32.to_le_bytes());
    let x = device.read_to_vec(b.buffers[0].addr, b.buffers[0].bytes).unwrap();
    assert_eq!(&x[4..8], &2.0f32.to_le_bytes());
    device.launch_with(&b.kernel, spec.grid, spec.block, 0, &b.params, &Limits::new(1 << 20)).unwrap();
    let y = device.read_to_vec(b.buffers[1].addr, b.buffers[1].bytes).unwrap();
    for (i, c) in y.chunks_exact(4).enumerate() {
        let want = 2.0f32.mul_add((i + 1) as f32, 0.5);
        assert_eq!(f32::from_le_bytes(c.try_into().unwrap()), want, "y[{i}]");
    }
}

#[test]
fn specs_that_do_not_fit_the_kernel_are_errors() {
    let module = Module::load(SAXPY).unwrap();
    let mut device = Device::default();
    let mut spec = parse_spec(SPEC).unwrap();
    spec.kernel = Some("nope".into());
    assert_eq!(spec_err(device.bind(&module, &spec)), "no kernel named `nope` (kernels: saxpy)");
    let mut spec = parse_spec(SPEC).unwrap();
    spec.args.pop();
    assert!(spec_err(device.bind(&module, &spec)).contains("takes 4 parameters, the spec gives 3 args"));
    // An s64 value for the 4-byte n, and a buffer for the f32 a.
    let text = SPEC.replace(r#"{"type": "s32", "value": 10}"#, r#"{"type": "s64", "value": 10}"#);
    assert!(
        spec_err(device.bind(&module, &parse_spec(&text).unwrap()))
            .contains("args[3]: a s64 value for a 4-byte")
    );
    let text = SPEC.replace(r#"{"type": "f32", "value": 2.0}"#, r#"{"buffer": "f32", "len": 1}"#);
    assert!(spec_err(device.bind(&module, &parse_spec(&text).unwrap())).contains("needs a 64-bit parameter"));
}

/// A fault prints as the thread and the cause, and its span points at the faulting
/// instruction's text.
#[test]
fn a_fault_displays_its_thread_and_cause() {
    let module = Module::load(SAXPY).unwrap();
    let spec =
        parse_spec(&SPEC.replace(r#"{"type": "s32", "value": 10}"#, r#"{"type": "s32", "value": 100}"#))
            .unwrap();
    let mut device = Device::default();
    let b = device.bind(&module, &spec).unwrap();
    let f = device
        .launch_with(&b.kernel, spec.grid, spec.block, 0, &b.params, &Limits::new(1 << 20))
        .unwrap_err();
    // n = 100 over 10-element buffers: thread 10 of CTA 0 is the first past the end.
    let shown = f.to_string();
    assert!(shown.starts_with("ctaid=(0,0,0) tid=(10,0,0): "), "{shown}");
    assert!(shown.contains("out of bounds"), "{shown}");
    assert!(f.span.text(module.source()).starts_with("ld.global"), "{}", f.span.text(module.source()));
    let _: &dyn std::error::Error = &f;
}

const COLLATZ: &str = include_str!("../examples/collatz.ptx");
const COLLATZ_SPEC: &str = include_str!("../examples/collatz.json");

/// collatz.cu declares `collatz(const unsigned long long*, int*, int, int)`, which
/// nvcc mangles `_Z7collatzPKyPiii`, beside `classify` and `triangle_sum`.
#[test]
fn a_kernel_may_be_named_by_its_demangled_name_or_signature() {
    let module = Module::load(COLLATZ).unwrap();
    let mut device = Device::default();
    for name in ["_Z7collatzPKyPiii", "collatz", "collatz(unsigned long long const*, int*, int, int)"] {
        let text = COLLATZ_SPEC.replace("\"_Z7collatzPKyPiii\"", &format!("{name:?}"));
        let b = device.bind(&module, &parse_spec(&text).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(b.kernel.name, "_Z7collatzPKyPiii", "{name}");
    }
    let text = COLLATZ_SPEC.replace("\"_Z7collatzPKyPiii\"", "\"collatz(int)\"");
    let e = spec_err(device.bind(&module, &parse_spec(&text).unwrap()));
    assert!(e.starts_with("no kernel named `collatz(int)`"), "{e}");
    assert!(
        e.contains("_Z12triangle_sumPKfPfPKii (triangle_sum(float const*, float*, int const*, int))"),
        "{e}"
    );
    // No kernel named and three in the module: each listed with its signature.
    let text = COLLATZ_SPEC.replace("\"kernel\": \"_Z7collatzPKyPiii\",", "");
    let e = spec_err(device.bind(&module, &parse_spec(&text).unwrap()));
    assert!(
        e.contains("3 kernels")
            && e.contains("_Z8classifyPKiPiiii (classify(int const*, int*, int, int, int))"),
        "{e}"
    );
}

#[test]
fn argument_errors_list_the_declared_parameters() {
    let module = Module::load(COLLATZ).unwrap();
    let mut device = Device::default();
    let mut spec = parse_spec(COLLATZ_SPEC).unwrap();
    spec.args.pop();
    let e = spec_err(device.bind(&module, &spec));
    // examples/collatz.ptx, lines 125-128.
    let want = "kernel `_Z7collatzPKyPiii` takes 4 parameters, the spec gives 3 args
_Z7collatzPKyPiii (collatz(unsigned long long const*, int*, int, int)) takes:
  0: .param .u64 _Z7collatzPKyPiii_param_0
  1: .param .u64 _Z7collatzPKyPiii_param_1
  2: .param .u32 _Z7collatzPKyPiii_param_2
  3: .param .u32 _Z7collatzPKyPiii_param_3";
    assert_eq!(e, want);
    let text = COLLATZ_SPEC.replace(r#"{"type": "s32", "value": 12}"#, r#"{"buffer": "s32", "len": 1}"#);
    let e = spec_err(device.bind(&module, &parse_spec(&text).unwrap()));
    assert!(e.starts_with("args[2]: a buffer's address needs a 64-bit parameter, not .u32\n"), "{e}");
    assert!(e.ends_with("3: .param .u32 _Z7collatzPKyPiii_param_3"), "{e}");
}

#[test]
fn scalars_of_another_kind_than_declared_bind_with_a_warning() {
    let module = Module::load(SAXPY).unwrap();
    let mut device = Device::default();
    // saxpy(float a, ..., int n) declares .f32 and .u32: s32 for n is what nvcc's
    // `int` means (no warning); s32 for a, or f32 for n, is not.
    assert_eq!(device.bind(&module, &parse_spec(SPEC).unwrap()).unwrap().warnings, Vec::<String>::new());
    let text = SPEC
        .replace(r#"{"type": "f32", "value": 2.0}"#, r#"{"type": "s32", "value": 2}"#)
        .replace(r#"{"type": "s32", "value": 10}"#, r#"{"type": "f32", "value": 10}"#);
    let b = device.bind(&module, &parse_spec(&text).unwrap()).unwrap();
    assert_eq!(
        b.warnings,
        [
            "args[0]: type s32 given for parameter 0 of kernel `saxpy`, declared .f32; its bits are passed as they are",
            "args[3]: type f32 given for parameter 3 of kernel `saxpy`, declared .u32; its bits are passed as they are",
        ]
    );
    // Bit-size types stand for any type of their size.
    let text = SPEC.replace(r#"{"type": "f32", "value": 2.0}"#, r#"{"type": "b32", "value": "0x40000000"}"#);
    assert!(device.bind(&module, &parse_spec(&text).unwrap()).unwrap().warnings.is_empty());
}

/// The typed argument builder: values checked against the kernel's parameter sizes,
/// host slices in and out, device addresses as they are.
#[test]
fn typed_arguments_run_saxpy_and_refuse_what_does_not_fit() {
    use ptxvm::api::{Args, LaunchError};
    let module = Module::load(SAXPY).unwrap();
    let kernel = module.kernel("saxpy").unwrap();
    let mut device = Device::default();
    // A device buffer made by hand, passed by address, read back by hand.
    let x = [1.0f32, -2.0, 0.5, 8.0];
    let y_addr = device.alloc(16).unwrap();
    let ones: Vec<u8> = [1.0f32; 4].iter().flat_map(|v| v.to_le_bytes()).collect();
    device.copy_to_device(y_addr, &ones).unwrap();
    device.launch_args(&kernel, 1, [32, 1, 1], Args::new().f32(-3.0).buffer(&x).ptr(y_addr).s32(4)).unwrap();
    let mut out = [0u8; 16];
    device.copy_from_device(y_addr, &mut out).unwrap();
    let y: Vec<f32> = out.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    // -3x + 1: exact in f32.
    assert_eq!(y, [-2.0, 7.0, -0.5, -23.0]);

    let mut y = [0.0f32; 4];
    let e =
        device.launch_args(&kernel, 1, 32, Args::new().f32(1.0).buffer(&x).buffer_mut(&mut y)).unwrap_err();
    assert_eq!(e, LaunchError::Args("kernel `saxpy` takes 4 parameters, given 3".into()));
    let e = device
        .launch_args(&kernel, 1, 32, Args::new().f64(1.0).buffer(&x).buffer_mut(&mut y).u32(4))
        .unwrap_err();
    assert_eq!(e.to_string(), "argument 0 of kernel `saxpy`: a 8-byte f64 for a 4-byte parameter (.f32)");
    let e = device
        .launch_args(&kernel, 1, 32, Args::new().f32(1.0).u32(0).buffer_mut(&mut y).u32(4))
        .unwrap_err();
    assert!(
        e.to_string().contains("argument 1 of kernel `saxpy`: a 4-byte u32 for a 8-byte parameter (.u64)"),
        "{e}"
    );

    // n = 64 over 4-element buffers: thread 4 reads past the end of x.
    let e = device
        .launch_args(&kernel, 1, 64, Args::new().f32(2.0).buffer(&x).buffer_mut(&mut y).u32(64))
        .unwrap_err();
    assert!(matches!(&e, LaunchError::Fault(f) if f.cause.contains("out of bounds")), "{e}");
}

/// A `.npy` buffer's data goes from the file into device memory: c_2x3_i4.npy is
/// NumPy's `np.arange(6).reshape(2, 3)`, 0..6 in C order (tests/data/npy/).
#[test]
fn npy_buffers_are_read_into_device_memory_when_bound() {
    let module = Module::load(SAXPY).unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy");
    let text = SPEC.replace(
        r#"{"buffer": "f32", "data": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}"#,
        r#"{"type": "buffer", "npy": "c_2x3_i4.npy"}"#,
    );
    let spec = ptxvm::launch::parse_spec_in(&text, &dir).unwrap();
    let mut device = Device::default();
    let b = device.bind(&module, &spec).unwrap();
    assert_eq!((b.buffers[0].arg, b.buffers[0].bytes), (1, 24));
    let x = device.read_to_vec(b.buffers[0].addr, 24).unwrap();
    assert_eq!(x, (0..6i32).flat_map(i32::to_le_bytes).collect::<Vec<u8>>());
}
