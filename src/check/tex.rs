//! Texture and surface instructions (`tex`, `tld4`, `suld`, `sust`, `sured`, `txq`,
//! `suq`; PTX ISA 9.7.10): modifiers, types, vector shapes and coordinates as ptxas
//! 13.5 judges them (tests/data/ptxas_matrix/SYNTAX.md, groups `tex` and `surf`).
//! ptxvm checks these instructions but does not run them.

use super::Checker;
use super::I;
use super::mem::element_fits;
use super::scope::{Def, Sym};
use super::types::{Class, Ty};
use crate::syntax::ast::{ImageAddr, Operand};

/// Coordinates each geometry needs (array index first).
fn geometry_coords(g: &str) -> Option<usize> {
    Some(match g {
        ".1d" => 1,
        ".2d" | ".a1d" => 2,
        ".3d" | ".a2d" | ".cube" | ".2dms" => 3,
        ".acube" | ".a2dms" => 4,
        _ => return None,
    })
}

impl<'a> Checker<'a> {
    /// `tex` and `tld4`.
    pub(super) fn texture(&mut self, i: &I<'a>, name: &str) {
        let tld4 = self.t(i.opcode) == "tld4";
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let geoms: Vec<&str> = mods.iter().copied().filter(|m| geometry_coords(m).is_some()).collect();
        let [geom] = geoms[..] else {
            let msg = if geoms.is_empty() {
                "a geometry such as .2d is required"
            } else {
                "more than one geometry"
            };
            self.error(i.span, format!("{name}: {msg}"));
            return;
        };
        let types: Vec<Ty> = mods.iter().filter_map(|m| Ty::from_word(m)).collect();
        let [dtype, ctype] = types[..] else {
            self.error(
                i.span,
                format!("{name}: a destination and a coordinate type are required, as in .f32.f32"),
            );
            return;
        };
        let vector = mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok()));
        let lanes = if dtype == Ty::F16x2 { 2 } else { 4 };
        let dtypes: &[Ty] = if tld4 {
            &[Ty::F32, Ty::S32, Ty::U32]
        } else {
            &[Ty::F32, Ty::S32, Ty::U32, Ty::F16, Ty::F16x2]
        };
        if !dtypes.contains(&dtype)
            || !matches!(ctype, Ty::F32 | Ty::S32 | Ty::U32)
            || (tld4 && ctype != Ty::F32)
        {
            self.error(i.span, format!("{name}: unexpected types {}.{}", dtype.word(), ctype.word()));
            return;
        }
        if ctype == Ty::U32 {
            self.error(i.span, format!("{name}: integer coordinates are .s32"));
        }
        if vector != Some(lanes) {
            self.error(i.span, format!("{name}: {} needs .v{lanes}", dtype.word()));
        }
        if matches!(geom, ".cube" | ".acube") && ctype != Ty::F32 {
            self.error(i.span, format!("{name}: {geom} needs floating-point coordinates"));
        }
        if matches!(geom, ".2dms" | ".a2dms") && ctype != Ty::S32 {
            self.error(i.span, format!("{name}: {geom} needs .s32 coordinates"));
        }
        if tld4 {
            let comps = mods.iter().filter(|m| matches!(**m, ".r" | ".g" | ".b" | ".a")).count();
            if comps != 1 {
                self.error(i.span, format!("{name}: exactly one component (.r, .g, .b or .a)"));
            }
            if !matches!(geom, ".2d" | ".a2d" | ".cube" | ".acube") {
                self.error(i.span, format!("{name}: tld4 takes .2d, .a2d, .cube or .acube, not {geom}"));
            }
            if geom != ".2d" {
                self.require(i.span, &format!("tld4 {geom}"), 43, 30);
            }
        }
        if matches!(geom, ".cube" | ".acube") {
            self.require(i.span, "cubemap textures", 30, 0);
        }
        if matches!(geom, ".2dms" | ".a2dms") {
            self.require(i.span, "multi-sample textures", 32, 30);
        }
        if matches!(dtype, Ty::F16 | Ty::F16x2) {
            self.require(i.span, "f16 texture results", 0, 53);
        }
        if mods.iter().any(|m| matches!(*m, ".level" | ".grad" | ".base")) {
            self.require(i.span, "tex.level, tex.grad and tex.base", 31, 0);
        }
        // d or d|p, then the image address.
        let Some(d) = i.operands.first() else {
            self.error(i.span, format!("{name}: needs a destination and an address"));
            return;
        };
        let d = match d {
            Operand::Pair(v, p) => {
                self.require(p.span(), "texture instruction with a predicate result", 71, 60);
                self.texture_pred(p, name);
                &**v
            }
            other => other,
        };
        self.vector_operand(d, dtype, lanes, name, "destination");
        match i.operands.get(1) {
            Some(Operand::Image(a)) => self.image(a, geom, ctype, true, name),
            Some(other) => {
                self.error(other.span(), format!("{name}: the address is `[texture, {{coordinates}}]`"))
            }
            None => self.error(i.span, format!("{name}: needs a destination and an address")),
        }
        // The modifiers tex and tld4 know; two of .level/.grad/.base are an error.
        for m in &mods {
            let known = geometry_coords(m).is_some()
                || Ty::from_word(m).is_some()
                || matches!(*m, ".v2" | ".v4")
                || (!tld4 && matches!(*m, ".level" | ".grad" | ".base"))
                || (tld4 && matches!(*m, ".r" | ".g" | ".b" | ".a"))
                || super::form::ignored_by_ptxas(m);
            if !known {
                self.error(i.span, format!("{name}: unexpected modifier `{m}`"));
            }
        }
        let sampling: Vec<&str> =
            mods.iter().copied().filter(|m| matches!(*m, ".level" | ".grad" | ".base")).collect();
        if sampling.len() > 1 {
            self.error(i.span, format!("{name}: {} and {} exclude each other", sampling[0], sampling[1]));
        }
        let ms = matches!(geom, ".2dms" | ".a2dms");
        let extras = i.operands.get(2..).unwrap_or(&[]);
        for extra in extras {
            self.resolve_operand(extra, name);
        }
        if !extras.is_empty() && sampling.is_empty() {
            self.require(i.span, "texture offset and depth compare operands", 43, 30);
        }
        let span = i.span;
        let mismatch = |c: &mut Self, what: &str| c.error(span, format!("{name}: {what}"));
        match sampling.first().copied() {
            // `tex.level`: a level of detail (a scalar or a one-element vector of .f32),
            // and an offset vector before or after it (ptxas takes either order).
            Some(".level") => {
                if ms || ctype == Ty::S32 {
                    mismatch(self, "tex.level needs float coordinates and no multi-sample geometry");
                }
                let lods =
                    extras.iter().filter(|e| !matches!(e, Operand::Vector(v, _) if v.len() > 1)).count();
                let offsets = extras.len() - lods;
                if extras.is_empty() || extras.len() > 2 || offsets > 1 {
                    mismatch(self, "tex.level takes a level of detail and, optionally, an offset vector");
                }
                for e in extras {
                    let ok = match e {
                        Operand::Vector(items, _) if items.len() > 1 => self.offset_ok(e, geom, false),
                        Operand::Vector(items, _) => items.iter().all(|x| self.f32_scalar(x)),
                        one => self.f32_scalar(one),
                    };
                    if !ok {
                        mismatch(self, "a level of detail is an .f32 value, an offset a vector of .s32");
                    }
                }
            }
            // `tex.grad`: two gradient vectors of .f32, then an optional offset vector
            // and an optional depth-compare value.
            Some(".grad") => {
                if ms {
                    mismatch(self, "tex.grad has no multi-sample form");
                } else if extras.len() < 2
                    || !extras[..2].iter().all(|g| matches!(g, Operand::Vector(..)) && self.f32_vector(g))
                {
                    mismatch(self, "tex.grad takes two gradient vectors of .f32");
                } else {
                    // Gradients have exactly the geometry's dimensions (cubes: 1, 2 or 4).
                    let dims = match geom {
                        ".1d" | ".a1d" => 1,
                        ".2d" | ".a2d" => 2,
                        _ => 4,
                    };
                    for g in &extras[..2] {
                        let n = match g {
                            Operand::Vector(items, _) => items.len(),
                            _ => 0,
                        };
                        let ok = if matches!(geom, ".cube" | ".acube") {
                            matches!(n, 1 | 2 | 4)
                        } else {
                            n == dims
                        };
                        if !ok {
                            self.error(g.span(), format!("{name}: a {geom} gradient is a vector of {dims}"));
                        }
                    }
                    if !self.offset_and_compare(&extras[2..], geom, true) {
                        mismatch(
                            self,
                            "after the gradients come an .s32 offset vector and an .f32 depth-compare value",
                        );
                    }
                }
            }
            // Plain `tex` and `tld4`: an optional offset vector, then an optional
            // depth-compare value; a lone scalar is any 32-bit value.
            _ => {
                if !extras.is_empty() && matches!(geom, ".cube" | ".acube") {
                    self.error(extras[0].span(), format!("{name}: {geom} takes no offset"));
                } else if !self.offset_and_compare(extras, geom, tld4) {
                    mismatch(
                        self,
                        "the optional operands are an .s32 offset vector and an .f32 depth-compare value",
                    );
                }
            }
        }
    }

    /// An optional offset vector and then an optional depth-compare value.
    /// `strict`: a lone scalar is a depth-compare value (tex.grad, tld4); else any
    /// 32-bit value (plain tex).
    fn offset_and_compare(&mut self, extras: &[Operand], geom: &str, strict: bool) -> bool {
        match extras {
            [] => true,
            [v @ Operand::Vector(..)] => self.offset_ok(v, geom, true),
            [v @ Operand::Vector(..), dc] => self.offset_ok(v, geom, true) && self.f32_scalar(dc),
            [one] if strict => self.f32_scalar(one),
            [one] => match one {
                Operand::Int { .. } | Operand::Float { .. } => true,
                Operand::Name(n) => {
                    matches!(
                        self.lookup(self.t(n)),
                        Some(Def { sym: Sym::Reg { ty, .. }, .. }) if ty.bits() == 32
                    ) || self.lookup(self.t(n)).is_none()
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// An offset vector: 32-bit integer registers or integer literals, at least as
    /// many as the geometry has dimensions (ptxas: "Operand vector size doesn't match
    /// geometry"); `int_only`: .f32 registers are refused.
    fn offset_ok(&mut self, v: &Operand, geom: &str, int_only: bool) -> bool {
        let Operand::Vector(items, _) = v else { return false };
        let dims = match geom {
            ".1d" | ".a1d" => 1,
            ".2d" | ".a2d" => 2,
            _ => 3,
        };
        if items.len() < dims {
            self.error(v.span(), format!("vector of {} is too short for a {geom} offset", items.len()));
            return true;
        }
        items.iter().all(|x| match x {
            Operand::Int { .. } => true,
            Operand::Name(n) => match self.lookup(self.t(n)) {
                Some(Def { sym: Sym::Reg { ty, .. }, .. }) => {
                    ty.bits() == 32 && ty != Ty::Pred && !(int_only && ty.class() == Class::Float)
                }
                _ => true,
            },
            _ => false,
        })
    }

    /// An .f32 scalar: an .f32 or .b32 register, or a floating-point literal.
    fn f32_scalar(&mut self, op: &Operand) -> bool {
        match op {
            Operand::Float { .. } => true,
            Operand::Name(n) => match self.lookup(self.t(n)) {
                Some(Def { sym: Sym::Reg { ty, .. }, .. }) => matches!(ty, Ty::F32 | Ty::B32),
                _ => true,
            },
            _ => false,
        }
    }

    /// A vector of .f32 scalars.
    fn f32_vector(&mut self, op: &Operand) -> bool {
        match op {
            Operand::Vector(items, _) => items.iter().all(|x| self.f32_scalar(x)),
            _ => false,
        }
    }

    /// `suld`, `sust`, `sured`.
    pub(super) fn surface(&mut self, i: &I<'a>, name: &str) {
        let op = self.t(i.opcode);
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let format = mods.first().copied();
        if !matches!(format, Some(".b" | ".p")) || (op == "suld" && format == Some(".p")) {
            self.error(
                i.span,
                format!("{name}: {op} needs .b{} right after it", if op == "suld" { "" } else { " or .p" }),
            );
            return;
        }
        let geoms: Vec<&str> =
            mods.iter().copied().filter(|m| matches!(*m, ".1d" | ".2d" | ".3d" | ".a1d" | ".a2d")).collect();
        let [geom] = geoms[..] else {
            self.error(i.span, format!("{name}: exactly one geometry (.1d, .2d, .3d, .a1d, .a2d)"));
            return;
        };
        if op == "sured" && !matches!(geom, ".1d" | ".2d" | ".3d") {
            self.error(i.span, format!("{name}: sured takes .1d, .2d or .3d"));
        }
        if matches!(geom, ".a1d" | ".a2d") {
            self.require(i.span, "surface arrays", 30, 0);
        }
        let clamps = mods.iter().filter(|m| matches!(**m, ".trap" | ".clamp" | ".zero")).count();
        if clamps != 1 {
            self.error(i.span, format!("{name}: exactly one clamp mode (.trap, .clamp or .zero)"));
        }
        let Some(ty) = mods.iter().find_map(|m| Ty::from_word(m)) else {
            self.error(i.span, format!("{name}: a data type is required"));
            return;
        };
        let n =
            mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok())).unwrap_or(1);
        let data_ok = match (op, format) {
            ("sured", Some(".b")) => {
                let red = mods.iter().find(|m| matches!(**m, ".add" | ".min" | ".max" | ".and" | ".or"));
                match red.copied() {
                    Some(".add") => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64),
                    Some(".min" | ".max") => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64),
                    Some(".and" | ".or") => ty == Ty::B32,
                    _ => false,
                }
            }
            ("sured", _) => {
                let red = mods.iter().find(|m| matches!(**m, ".add" | ".min" | ".max" | ".and" | ".or"));
                match ty {
                    Ty::B32 => red.is_some(),
                    Ty::B64 => matches!(red.copied(), Some(".min" | ".max")),
                    _ => false,
                }
            }
            (_, Some(".p")) => ty == Ty::B32,
            _ => {
                matches!(ty, Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64)
                    && matches!(n, 1 | 2 | 4)
                    && ty.bits() * n as u32 <= 128
            }
        };
        if !data_ok {
            self.error(i.span, format!("{name}: unexpected data type {}", ty.word()));
            return;
        }
        // The cache operators of loads and of stores (ISA 9.7.10.4-5); sured has none.
        let cache: &[&str] = match op {
            "suld" => &[".ca", ".cg", ".cs", ".cv"],
            "sust" => &[".wb", ".cg", ".cs", ".wt"],
            _ => &[],
        };
        let reds: &[&str] = if op == "sured" { &[".add", ".min", ".max", ".and", ".or"] } else { &[] };
        for m in &mods {
            let known = matches!(*m, ".b" | ".p" | ".trap" | ".clamp" | ".zero")
                || matches!(*m, ".1d" | ".2d" | ".3d" | ".a1d" | ".a2d")
                || (op != "sured" && matches!(*m, ".v2" | ".v4"))
                || Ty::from_word(m).is_some()
                || cache.contains(m)
                || reds.contains(m)
                || super::form::ignored_by_ptxas(m);
            if !known {
                self.error(i.span, format!("{name}: unexpected modifier `{m}`"));
            }
        }
        if op == "sured" {
            if mods.iter().filter(|m| reds.contains(m)).count() > 1 {
                self.error(i.span, format!("{name}: one reduction operation"));
            }
            if matches!(ty, Ty::U64 | Ty::S64) && mods.iter().any(|m| matches!(*m, ".min" | ".max")) {
                self.require(i.span, "64-bit min/max of sured.b", 81, 0);
            }
        }
        if i.operands.len() != 2 {
            self.error(i.span, format!("{name}: expects 2 operands, found {}", i.operands.len()));
        }
        let (addr, data) = if op == "suld" {
            (i.operands.get(1), i.operands.first())
        } else {
            (i.operands.first(), i.operands.get(1))
        };
        match addr {
            Some(Operand::Image(a)) => self.image(a, geom, Ty::S32, false, name),
            Some(other) => {
                self.error(other.span(), format!("{name}: the address is `[surface, {{coordinates}}]`"))
            }
            None => self.error(i.span, format!("{name}: needs an address and data")),
        }
        if let Some(d) = data {
            // Data registers must hold at least the data size; their kind is free.
            let items: Vec<&Operand> = match d {
                Operand::Vector(_, span) if op == "sured" => {
                    self.error(*span, format!("{name}: sured takes one value, not a vector"));
                    vec![]
                }
                // ptxas also takes a vector for scalar data.
                Operand::Vector(items, span) => {
                    if n > 1 && items.len() != n {
                        self.error(
                            *span,
                            format!("{name}: .v{n} data needs {n} elements, found {}", items.len()),
                        );
                    }
                    items.iter().collect()
                }
                one if n > 1 && op == "suld" => {
                    self.error(one.span(), format!("{name}: .v{n} data is a vector `{{...}}`"));
                    vec![]
                }
                one => vec![one],
            };
            for item in items {
                match item {
                    Operand::Sink(_) if op != "suld" => {
                        self.error(item.span(), format!("{name}: `_` cannot be a source"));
                    }
                    // A vector result may drop elements; a scalar one may not.
                    Operand::Sink(_) if op == "suld" && matches!(d, Operand::Vector(..)) => {}
                    Operand::Sink(_) | Operand::Int { .. } | Operand::Float { .. } if op == "suld" => {
                        self.error(item.span(), format!("{name}: the result is a register"));
                    }
                    _ => {}
                }
                // sured's value is an integer at least as wide as its type.
                if op == "sured"
                    && let Operand::Name(r) = item
                    && let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.lookup(self.t(r))
                    && (reg.class() == Class::Float || reg.bits() < ty.bits().max(32))
                {
                    self.error(r.span, format!("{name}: `{}` does not hold {} data", self.t(r), ty.word()));
                }
                if let Operand::Name(r) = item
                    && let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.resolve_value_name(*r, name)
                    && (reg.bits() < ty.bits().max(16) || reg == Ty::Pred)
                {
                    self.error(
                        r.span,
                        format!("{name}: `{}` is too narrow for {} data", self.t(r), ty.word()),
                    );
                }
            }
        }
        for extra in i.operands.iter().skip(2) {
            self.resolve_operand(extra, name);
        }
    }

    /// `txq` and `suq`: a query of a `.b32` value about a texture or surface.
    pub(super) fn image_query(&mut self, i: &I<'a>, name: &str) {
        let txq = self.t(i.opcode) == "txq";
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let queries: &[&str] = if txq {
            &[
                ".width",
                ".height",
                ".depth",
                ".channel_data_type",
                ".channel_order",
                ".normalized_coords",
                ".array_size",
                ".num_mipmap_levels",
                ".num_samples",
                ".filter_mode",
                ".addr_mode_0",
                ".addr_mode_1",
                ".addr_mode_2",
                ".force_unnormalized_coords",
                ".memory_layout",
            ]
        } else {
            &[
                ".width",
                ".height",
                ".depth",
                ".channel_data_type",
                ".channel_order",
                ".array_size",
                ".memory_layout",
            ]
        };
        let asked: Vec<&str> = mods.iter().copied().filter(|m| queries.contains(m)).collect();
        if asked.len() != 1 {
            self.error(i.span, format!("{name}: exactly one query such as .width"));
        }
        for m in &mods {
            if !queries.contains(m) && *m != ".b32" && !(txq && *m == ".level") {
                self.error(i.span, format!("{name}: unexpected modifier `{m}`"));
            }
        }
        if !mods.contains(&".b32") {
            self.error(i.span, format!("{name}: the result type is .b32"));
        }
        if mods.contains(&".level") {
            self.require(i.span, "txq.level", 43, 30);
            if !matches!(asked[..], [".width" | ".height" | ".depth"]) {
                self.error(i.span, format!("{name}: .level is for .width, .height and .depth"));
            }
        }
        for q in &asked {
            match *q {
                ".num_samples" => self.require(i.span, "the num_samples attribute", 41, 30),
                ".num_mipmap_levels" | ".array_size" => {
                    self.require(i.span, &format!("the {q} attribute"), 41, 0)
                }
                ".memory_layout" => self.require(i.span, "the memory_layout attribute", 42, 0),
                _ => {}
            }
        }
        let want = if mods.contains(&".level") { 3 } else { 2 };
        if !self.operand_count(i, name, want, want) {
            return;
        }
        if !matches!(i.operands[0], Operand::Name(_)) {
            self.error(i.operands[0].span(), format!("{name}: the result is a register"));
        }
        // txq.level: the level is a 32-bit integer.
        if let Some(lod) = i.operands.get(2) {
            let ok = match lod {
                Operand::Int { .. } => true,
                Operand::Name(n) => match self.lookup(self.t(n)) {
                    Some(Def { sym: Sym::Reg { ty, .. }, .. }) => {
                        ty.bits() == 32 && ty.is_int() || ty == Ty::B32
                    }
                    _ => true,
                },
                _ => false,
            };
            if !ok {
                self.error(lod.span(), format!("{name}: the level is a 32-bit integer"));
            }
        }
        if let Operand::Name(d) = &i.operands[0]
            && let Some(Def { sym: Sym::Reg { ty, .. }, .. }) = self.resolve_value_name(*d, name)
            && ty.bits() != 32
        {
            self.error(d.span, format!("{name}: the result is a 32-bit register"));
        }
        match &i.operands[1] {
            Operand::Addr(a) if a.base.is_some() && a.offset == 0 => {
                // Sampler attributes are asked of the sampler in independent mode.
                let sampler = self.texmode_independent
                    && asked.iter().any(|q| {
                        matches!(
                            *q,
                            ".filter_mode"
                                | ".addr_mode_0"
                                | ".addr_mode_1"
                                | ".addr_mode_2"
                                | ".force_unnormalized_coords"
                        )
                    });
                let want = if !txq {
                    Ty::SurfRef
                } else if sampler {
                    Ty::SamplerRef
                } else {
                    Ty::TexRef
                };
                if let Some(b) = a.base {
                    self.handle(b, name, want);
                }
            }
            other => self.error(other.span(), format!("{name}: the operand is `[texture]` or `[surface]`")),
        }
        for extra in i.operands.iter().skip(2) {
            self.resolve_operand(extra, name);
        }
    }

    /// `[image, {coordinates}]`: the handle and the coordinates a geometry needs, of
    /// the coordinate type (`.s32` for surfaces), array index first.
    fn image(&mut self, a: &ImageAddr, geom: &str, ctype: Ty, texture: bool, name: &str) {
        self.handle(a.image, name, if texture { Ty::TexRef } else { Ty::SurfRef });
        match a.sampler {
            // Unified mode takes a second texture (or register) where a sampler would be.
            Some(s) if texture => {
                self.handle(s, name, if self.texmode_independent { Ty::SamplerRef } else { Ty::TexRef })
            }
            Some(s) => {
                self.resolve_value_name(s, name);
                self.error(s.span, format!("{name}: a surface takes no sampler"));
            }
            None if texture && self.texmode_independent => self.error(
                a.image.span,
                format!("{name}: with texmode_independent the address is `[texture, sampler, {{...}}]`"),
            ),
            None => {}
        }
        let need = geometry_coords(geom).unwrap_or(1);
        let items: Vec<&Operand> = match &a.coords {
            Operand::Vector(items, span) => {
                if !matches!(items.len(), 1 | 2 | 4) {
                    self.error(*span, format!("{name}: illegal vector size {}", items.len()));
                } else if items.len() < need {
                    self.error(
                        *span,
                        format!("{name}: {geom} needs {need} coordinates, found {}", items.len()),
                    );
                }
                items.iter().collect()
            }
            one => {
                if texture && !matches!(geom, ".1d" | ".2d" | ".3d" | ".cube") {
                    self.error(one.span(), format!("{name}: {geom} needs a coordinate vector"));
                }
                vec![one]
            }
        };
        let array = geom.starts_with(".a");
        // ptxas infers a coordinate vector's type from its first element (an array
        // index aside): later elements must agree with it ("Vector with elements of
        // different types"), and it with the coordinate type. A .b32 register agrees
        // with everything.
        if texture {
            let kind = |c: &Self, x: &Operand| match x {
                Operand::Int { .. } => Some(Class::Signed),
                Operand::Float { .. } => Some(Class::Float),
                Operand::Name(n) => match c.lookup(c.t(n)) {
                    Some(Def { sym: Sym::Reg { ty, .. }, .. }) if ty.class() == Class::Unsigned => {
                        Some(Class::Signed)
                    }
                    Some(Def { sym: Sym::Reg { ty, .. }, .. }) => Some(ty.class()),
                    _ => None,
                },
                _ => None,
            };
            let rest = &items[usize::from(array).min(items.len())..];
            if let Some(first) = rest.first().and_then(|x| kind(self, x)) {
                let agree =
                    |k: Option<Class>| k.is_none_or(|k| k == Class::Bit || first == Class::Bit || k == first);
                // Integer registers pass for .f32 coordinates (same size), but not .f32
                // registers for .s32 ones, nor integer literals alone for .f32.
                let float_regs = matches!(&rest[0], Operand::Name(_)) && first == Class::Float;
                let int_literals = rest.iter().all(|x| matches!(x, Operand::Int { .. }));
                if !rest.iter().all(|x| agree(kind(self, x))) {
                    self.error(a.coords.span(), format!("{name}: the coordinates are of different types"));
                } else if (float_regs && ctype == Ty::S32) || (int_literals && ctype == Ty::F32) {
                    self.error(a.coords.span(), format!("{name}: the coordinates are not {}", ctype.word()));
                }
            }
        }
        for (k, item) in items.into_iter().enumerate() {
            let want = if array && k == 0 { Ty::S32 } else { ctype };
            let Operand::Name(r) = item else { continue };
            let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.resolve_value_name(*r, name) else {
                continue;
            };
            let fits = if texture && !(array && k == 0) {
                // The vector's type was judged above.
                reg.bits() == 32 && reg != Ty::Pred
            } else if texture {
                element_fits(want, reg)
            } else {
                reg.bits() == 32 && reg.class() != Class::Float
            };
            if !fits {
                let what = if array && k == 0 { "the array index " } else { "a coordinate " };
                self.element_mismatch(*r, reg, want, name, what);
            }
        }
    }

    /// A texture, sampler or surface (`want` is `.texref`, `.samplerref` or
    /// `.surfref`): a scalar variable of that kind or a 64-bit register (ptxas:
    /// "Argument 1 of instruction 'tex': .texref or .u64 register expected").
    fn handle(&mut self, n: crate::syntax::ast::Name, name: &str, want: Ty) {
        let ok = match self.resolve_value_name(n, name) {
            Some(Def { sym: Sym::Reg { ty, .. }, .. }) => {
                // Texture and surface objects in registers ("indirect access").
                let what =
                    if want == Ty::SurfRef { "indirect surface access" } else { "indirect texture access" };
                self.require(n.span, what, 31, 0);
                if want == Ty::TexRef && self.texmode_independent {
                    self.require(n.span, "indirect texture access with texmode_independent", 43, 0);
                }
                ty.bits() == 64 && ty.class() != Class::Float
            }
            Some(Def { sym: Sym::Var { ty, array, .. }, .. }) => ty == want && !array,
            Some(Def { sym: Sym::Func(_), .. }) => false,
            None => true,
        };
        if !ok {
            let msg =
                format!("{name}: `{}` is not a {} variable or a 64-bit register", self.t(n), want.word());
            self.error(n.span, msg);
        }
    }

    /// A vector operand of exactly `lanes` registers fitting `ty`.
    fn vector_operand(&mut self, op: &Operand, ty: Ty, lanes: usize, name: &str, role: &str) {
        match op {
            // ptxas: "Unable to infer type of vector elements".
            Operand::Vector(items, span) if items.iter().all(|x| matches!(x, Operand::Sink(_))) => {
                self.error(*span, format!("{name}: the {role} needs at least one register"));
            }
            Operand::Vector(items, span) => {
                if items.len() != lanes {
                    self.error(
                        *span,
                        format!("{name}: the {role} needs {lanes} elements, found {}", items.len()),
                    );
                }
                for item in items {
                    match item {
                        Operand::Name(r) => {
                            if let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) =
                                self.resolve_value_name(*r, name)
                                && !element_fits(ty, reg)
                            {
                                self.element_mismatch(*r, reg, ty, name, "");
                            }
                        }
                        Operand::Sink(_) => {}
                        other => {
                            self.error(other.span(), format!("{name}: the {role} elements are registers"))
                        }
                    }
                }
            }
            other => self.error(other.span(), format!("{name}: the {role} is a vector `{{...}}`")),
        }
    }

    /// The `|p` of a texture instruction: a predicate register.
    fn texture_pred(&mut self, p: &Operand, name: &str) {
        match p {
            Operand::Name(n) => match self.resolve_value_name(*n, name) {
                Some(Def { sym: Sym::Reg { ty: Ty::Pred, .. }, .. }) | None => {}
                Some(_) => self.error(n.span, format!("{name}: `{}` is not a predicate", self.t(n))),
            },
            other => self.error(other.span(), format!("{name}: `|p` takes a predicate register")),
        }
    }
}
