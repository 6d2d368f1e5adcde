//! PTX fundamental types and the operand type-compatibility rules of PTX ISA 9.x,
//! section 5.2 ("Types") and 6.4 ("Operand Type Information").

/// A fundamental PTX type, as written in declarations and instruction suffixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    TF32,
    Pred,
    /// The opaque handles of textures, samplers and surfaces (PTX ISA 5.3): declared
    /// in `.global`, named by the texture and surface instructions, never compatible.
    TexRef,
    SamplerRef,
    SurfRef,
    /// The fp8 pairs of `cvt` (PTX ISA 5.2.5): two e4m3 or e5m2 values in 16 bits.
    E4m3x2,
    E5m2x2,
    /// Two 16-bit integers in 32 bits: an instruction type only, of packed `add`,
    /// `min` and `max` (PTX ISA 9.7.1.1, 9.7.1.10, 9.7.1.11; sm_90).
    U16x2,
    S16x2,
    /// Exotic types (`.e4m3`, ...): declarable, never compatible.
    Other,
}

/// What kind of values a type holds; compatibility is decided per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Bit,
    Unsigned,
    Signed,
    Float,
    Pred,
    Other,
}

impl Ty {
    /// Parses a dotted type word (`.u32`), or `None` when it is not a type.
    pub fn from_word(w: &str) -> Option<Ty> {
        use Ty::*;
        Some(match w {
            ".b8" => B8,
            ".b16" => B16,
            ".b32" => B32,
            ".b64" => B64,
            ".b128" => B128,
            ".u8" => U8,
            ".u16" => U16,
            ".u32" => U32,
            ".u64" => U64,
            ".s8" => S8,
            ".s16" => S16,
            ".s32" => S32,
            ".s64" => S64,
            ".f16" => F16,
            ".f16x2" => F16x2,
            ".bf16" => BF16,
            ".bf16x2" => BF16x2,
            ".f32" => F32,
            ".f64" => F64,
            ".tf32" => TF32,
            ".pred" => Pred,
            ".texref" => TexRef,
            ".samplerref" => SamplerRef,
            ".surfref" => SurfRef,
            ".e4m3x2" => E4m3x2,
            ".e5m2x2" => E5m2x2,
            ".u16x2" => U16x2,
            ".s16x2" => S16x2,
            ".e4m3" | ".e5m2" => Other,
            _ => return None,
        })
    }

    /// Size in bits (predicates count as 1, opaque types as 0).
    pub fn bits(self) -> u32 {
        use Ty::*;
        match self {
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | BF16 | E4m3x2 | E5m2x2 => 16,
            B32 | U32 | S32 | F32 | F16x2 | BF16x2 | TF32 | U16x2 | S16x2 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
            Pred => 1,
            TexRef | SamplerRef | SurfRef | Other => 0,
        }
    }

    pub fn class(self) -> Class {
        use Ty::*;
        match self {
            B8 | B16 | B32 | B64 | B128 => Class::Bit,
            U8 | U16 | U32 | U64 | U16x2 => Class::Unsigned,
            S8 | S16 | S32 | S64 | S16x2 => Class::Signed,
            F16 | F16x2 | BF16 | BF16x2 | F32 | F64 | TF32 => Class::Float,
            Pred => Class::Pred,
            TexRef | SamplerRef | SurfRef | E4m3x2 | E5m2x2 | Other => Class::Other,
        }
    }

    pub fn is_float(self) -> bool {
        self.class() == Class::Float
    }

    pub fn is_int(self) -> bool {
        matches!(self.class(), Class::Unsigned | Class::Signed)
    }

    /// The dotted spelling, for messages.
    pub fn word(self) -> &'static str {
        use Ty::*;
        match self {
            B8 => ".b8",
            B16 => ".b16",
            B32 => ".b32",
            B64 => ".b64",
            B128 => ".b128",
            U8 => ".u8",
            U16 => ".u16",
            U32 => ".u32",
            U64 => ".u64",
            S8 => ".s8",
            S16 => ".s16",
            S32 => ".s32",
            S64 => ".s64",
            F16 => ".f16",
            F16x2 => ".f16x2",
            BF16 => ".bf16",
            BF16x2 => ".bf16x2",
            F32 => ".f32",
            F64 => ".f64",
            TF32 => ".tf32",
            Pred => ".pred",
            TexRef => ".texref",
            SamplerRef => ".samplerref",
            SurfRef => ".surfref",
            E4m3x2 => ".e4m3x2",
            E5m2x2 => ".e5m2x2",
            U16x2 => ".u16x2",
            S16x2 => ".s16x2",
            Other => ".opaque",
        }
    }
}

/// May a register declared `reg` be an operand of an instruction of type `instr`?
///
/// PTX ISA 6.4.1: operand and instruction types must have the same size; a bit-size
/// type is compatible with every type of its size, signed and unsigned integers of a
/// size are compatible with each other, and a floating-point type only with itself
/// (and the bit-size type of its size).
impl Ty {
    /// The type twice as wide, of the `.wide` forms' destinations (16- and 32-bit
    /// integers).
    pub fn widened(self) -> Option<Ty> {
        Some(match self {
            Ty::U16 => Ty::U32,
            Ty::U32 => Ty::U64,
            Ty::S16 => Ty::S32,
            Ty::S32 => Ty::S64,
            _ => return None,
        })
    }
}

pub fn compatible(instr: Ty, reg: Ty) -> bool {
    if instr == reg {
        return true;
    }
    if instr.bits() != reg.bits() || instr.bits() == 0 {
        return false;
    }
    match (instr.class(), reg.class()) {
        (Class::Bit, Class::Pred) | (Class::Pred, _) | (_, Class::Pred) => false,
        // ptxas treats an .f16x2 register like a .b32 one for integer instructions.
        (Class::Unsigned | Class::Signed, _) if reg == Ty::F16x2 => true,
        (Class::Bit, _) | (_, Class::Bit) => true,
        (Class::Unsigned | Class::Signed, Class::Unsigned | Class::Signed) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_follows_size_and_class() {
        assert!(compatible(Ty::U32, Ty::S32));
        assert!(compatible(Ty::F32, Ty::B32));
        assert!(compatible(Ty::B32, Ty::F32));
        assert!(!compatible(Ty::F32, Ty::U32));
        assert!(!compatible(Ty::U32, Ty::U64));
        assert!(!compatible(Ty::B32, Ty::Pred));
        assert!(compatible(Ty::Pred, Ty::Pred));
    }
}
