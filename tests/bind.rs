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
