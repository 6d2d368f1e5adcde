//! Typed kernel arguments for library users: scalars by value, host slices copied
//! to device buffers for the launch (and back, for the ones the kernel writes), and
//! device addresses. [`Device::launch_args`] checks them against the kernel's
//! parameters, packs the parameter buffer as [`Kernel::params`] lays it out, and
//! frees the buffers it made when the launch ends.

use super::{Device, Fault, Kernel};
use crate::exec::limits::Limits;
use crate::exec::memory::MemFault;
use crate::launch::Dim3;

/// A number a buffer can hold: its little-endian bytes go to device memory.
pub trait Element: Copy {
    /// Bytes per element.
    const BYTES: usize;
    /// Appends the element's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The element of `BYTES` little-endian bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! elements {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..Self::BYTES]);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}

elements!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Where a buffer the kernel wrote goes back to: a host slice, filled from bytes.
type Sink<'a> = Box<dyn FnMut(&[u8]) + 'a>;

enum Item<'a> {
    /// A value of this many bytes, as its bits.
    Scalar { bits: u64, bytes: u32, what: &'static str },
    /// A parameter given byte by byte (a struct passed by value).
    Bytes(Vec<u8>),
    /// A device address.
    Ptr(u64),
    /// Host data copied to a new device buffer, and back into `back` when given.
    Buffer { data: Vec<u8>, back: Option<Sink<'a>> },
}

/// A kernel's arguments, in parameter order.
///
/// ```
/// use ptxvm::api::{Args, Device, Module};
///
/// let module = Module::load(include_str!("../../examples/saxpy.ptx")).unwrap();
/// let kernel = module.kernel("saxpy").unwrap();
/// // saxpy(float a, const float *x, float *y, int n): y = a * x + y.
/// let x = [1.0f32, 2.0, 3.0];
/// let mut y = [0.5f32; 3];
/// let mut device = Device::default();
/// let args = Args::new().f32(2.0).buffer(&x).buffer_mut(&mut y).u32(3);
/// device.launch_args(&kernel, 1, 32, args).unwrap();
/// assert_eq!(y, [2.5, 4.5, 6.5]);
/// ```
#[derive(Default)]
pub struct Args<'a> {
    items: Vec<Item<'a>>,
}

impl<'a> Args<'a> {
    pub fn new() -> Self {
        Args::default()
    }

    fn scalar(mut self, bits: u64, bytes: u32, what: &'static str) -> Self {
        self.items.push(Item::Scalar { bits, bytes, what });
        self
    }

    pub fn u8(self, v: u8) -> Self {
        self.scalar(u64::from(v), 1, "u8")
    }
    pub fn s8(self, v: i8) -> Self {
        self.scalar(u64::from(v as u8), 1, "s8")
    }
    pub fn u16(self, v: u16) -> Self {
        self.scalar(u64::from(v), 2, "u16")
    }
    pub fn s16(self, v: i16) -> Self {
        self.scalar(u64::from(v as u16), 2, "s16")
    }
    pub fn u32(self, v: u32) -> Self {
        self.scalar(u64::from(v), 4, "u32")
    }
    pub fn s32(self, v: i32) -> Self {
        self.scalar(u64::from(v as u32), 4, "s32")
    }
    pub fn u64(self, v: u64) -> Self {
        self.scalar(v, 8, "u64")
    }
    pub fn s64(self, v: i64) -> Self {
        self.scalar(v as u64, 8, "s64")
    }
    pub fn f32(self, v: f32) -> Self {
        self.scalar(u64::from(v.to_bits()), 4, "f32")
    }
    pub fn f64(self, v: f64) -> Self {
        self.scalar(v.to_bits(), 8, "f64")
    }
    /// An `.f16` or `.bf16` parameter, as its 16 bits.
    pub fn half_bits(self, bits: u16) -> Self {
        self.scalar(u64::from(bits), 2, "16-bit half")
    }

    /// A parameter given as its bytes in memory order (a struct passed by value).
    pub fn bytes(mut self, bytes: &[u8]) -> Self {
        self.items.push(Item::Bytes(bytes.to_vec()));
        self
    }

    /// A device address, such as one from [`Device::alloc`].
    pub fn ptr(mut self, addr: u64) -> Self {
        self.items.push(Item::Ptr(addr));
        self
    }

    /// A buffer the kernel reads: `data` is copied to device memory for the launch
    /// and its address passed.
    pub fn buffer<T: Element>(mut self, data: &[T]) -> Self {
        let mut bytes = Vec::with_capacity(data.len() * T::BYTES);
        data.iter().for_each(|x| x.put(&mut bytes));
        self.items.push(Item::Buffer { data: bytes, back: None });
        self
    }

    /// A buffer the kernel may write: copied in as [`Args::buffer`], and back into
    /// `data` when the launch ends (after a fault too, with what was written).
    pub fn buffer_mut<T: Element>(mut self, data: &'a mut [T]) -> Self {
        let mut bytes = Vec::with_capacity(data.len() * T::BYTES);
        data.iter().for_each(|x| x.put(&mut bytes));
        let back = move |bytes: &[u8]| {
            for (x, b) in data.iter_mut().zip(bytes.chunks_exact(T::BYTES)) {
                *x = T::get(b);
            }
        };
        self.items.push(Item::Buffer { data: bytes, back: Some(Box::new(back)) });
        self
    }
}

/// Why [`Device::launch_args`] did not run the kernel to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// The arguments do not fit the kernel's parameters.
    #[error("{0}")]
    Args(String),
    /// A buffer could not be placed in device memory.
    #[error("device memory: {0}")]
    Memory(#[from] MemFault),
    /// The kernel faulted.
    #[error("{0}")]
    Fault(#[from] Fault),
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }
}

impl From<[u32; 3]> for Dim3 {
    fn from([x, y, z]: [u32; 3]) -> Dim3 {
        Dim3 { x, y, z }
    }
}

impl Device {
    /// Runs `kernel` over `grid` CTAs of `block` threads with `args`, without dynamic
    /// shared memory and within [`DEFAULT_MAX_STEPS`](super::DEFAULT_MAX_STEPS) warp
    /// instructions; copies the buffers of [`Args::buffer_mut`] back and frees the
    /// ones it made.
    ///
    /// # Errors
    /// [`LaunchError::Args`] when the arguments' count or sizes do not match the
    /// kernel's parameters (nothing runs), [`LaunchError::Memory`] when a buffer does
    /// not fit, [`LaunchError::Fault`] when the kernel faults.
    pub fn launch_args(
        &mut self,
        kernel: &Kernel,
        grid: impl Into<Dim3>,
        block: impl Into<Dim3>,
        args: Args<'_>,
    ) -> Result<(), LaunchError> {
        let Args { mut items } = args;
        if items.len() != kernel.params.len() {
            let msg = format!(
                "kernel `{}` takes {} parameters, given {}",
                kernel.name,
                kernel.params.len(),
                items.len()
            );
            return Err(LaunchError::Args(msg));
        }
        for (k, (item, &(ty, _, size))) in items.iter().zip(&kernel.params).enumerate() {
            let (given, what) = match item {
                Item::Scalar { bytes, what, .. } => (*bytes, *what),
                Item::Bytes(b) => (b.len() as u32, "byte string"),
                Item::Ptr(_) | Item::Buffer { .. } => (8, "address"),
            };
            if given != size {
                let msg = format!(
                    "argument {k} of kernel `{}`: a {given}-byte {what} for a {size}-byte parameter ({})",
                    kernel.name,
                    ty.word()
                );
                return Err(LaunchError::Args(msg));
            }
        }
        let mut values: Vec<Vec<u8>> = Vec::with_capacity(items.len());
        let mut made = Vec::new();
        let mut placed = Ok(());
        for (k, (item, &(_, _, size))) in items.iter().zip(&kernel.params).enumerate() {
            let bits = match item {
                Item::Scalar { bits, .. } => *bits,
                Item::Bytes(b) => {
                    values.push(b.clone());
                    continue;
                }
                Item::Ptr(addr) => *addr,
                Item::Buffer { data, .. } => match self.memory.alloc_from(data) {
                    Ok(addr) => {
                        self.memory.label(addr, format!("args[{k}]"));
                        made.push(addr);
                        addr
                    }
                    Err(e) => {
                        placed = Err(e);
                        break;
                    }
                },
            };
            values.push(bits.to_le_bytes()[..size as usize].to_vec());
        }
        let packed = placed.map_err(LaunchError::from).and_then(|()| {
            kernel.pack(values.iter().map(Vec::as_slice)).map_err(|e| LaunchError::Args(e.to_string()))
        });
        let result = match packed {
            Ok(params) => self
                .launch_with(
                    kernel,
                    grid.into(),
                    block.into(),
                    0,
                    &params,
                    &Limits::new(super::DEFAULT_MAX_STEPS),
                )
                .map_err(LaunchError::from),
            Err(e) => Err(e),
        };
        // The buffers made, in order, belong to the `Buffer` items in order.
        let buffers = items.iter_mut().filter_map(|i| match i {
            Item::Buffer { data, back } => Some((data, back)),
            _ => None,
        });
        for ((data, back), &addr) in buffers.zip(&made) {
            if let Some(back) = back
                && (result.is_ok() || matches!(result, Err(LaunchError::Fault(_))))
                && self.copy_from_device(addr, data).is_ok()
            {
                back(data);
            }
            let _ = self.memory.free(addr);
        }
        result
    }
}
