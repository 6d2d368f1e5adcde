//! Operands (PTX ISA 4.x and 6.x): registers with components, pairs, negation,
//! immediates, constant expressions (C operators over 64-bit integers), vectors,
//! call lists and addresses.

use super::*;

impl Parser<'_> {
    pub(super) fn operand(&mut self) -> PResult<Operand> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            err(self.tok.span, format!("operand nested deeper than {MAX_DEPTH} levels"))
        } else {
            self.operand_inner()
        };
        self.depth -= 1;
        r
    }

    pub(super) fn operand_inner(&mut self) -> PResult<Operand> {
        let t = self.tok;
        match t.tok {
            Tok::Punct(b'!') => {
                self.bump();
                let inner = match self.tok.tok {
                    Tok::Ident | Tok::Int => self.operand_inner()?,
                    _ => return self.unexpected("a predicate or number after `!`"),
                };
                if matches!(inner, Operand::Pair(..)) {
                    return err(inner.span(), "`!` applies to one predicate, not a pair");
                }
                let span = t.span.to(inner.span());
                Ok(Operand::Not(Box::new(inner), span))
            }
            Tok::Punct(b'-') => {
                self.bump();
                match self.tok.tok {
                    Tok::Int | Tok::Punct(b'(' | b'~' | b'-') => {
                        let (v, u, span) = self.const_unary_full()?;
                        let (v, _, span) =
                            self.const_binary_rest((v.wrapping_neg(), u, t.span.to(span)), 0)?;
                        Ok(Operand::Int { bits: v, span })
                    }
                    Tok::Float => {
                        let n = self.bump();
                        let (bits, f32b) = self.float_value(n)?;
                        if self.text(n).as_bytes().get(1).is_some_and(|b| b.is_ascii_alphabetic()) {
                            // ptxas: a bit-pattern literal takes no sign.
                            return err(
                                t.span.to(n.span),
                                "a `0f`/`0d` bit-pattern literal cannot be negated",
                            );
                        }
                        let sign = if f32b { 1u64 << 31 } else { 1u64 << 63 };
                        Ok(Operand::Float { bits: bits ^ sign, is_f32_bits: f32b, span: t.span.to(n.span) })
                    }
                    // `-%r2.h0`: a negated source of vmad (PTX ISA 9.7.17.2).
                    Tok::Ident => {
                        let inner = self.operand_inner()?;
                        if !matches!(inner, Operand::Name(_) | Operand::Component(..)) {
                            return err(inner.span(), "`-` negates one register");
                        }
                        let span = t.span.to(inner.span());
                        Ok(Operand::Neg(Box::new(inner), span))
                    }
                    _ => self.unexpected("a number or register after `-`"),
                }
            }
            Tok::Int | Tok::Punct(b'~') => {
                let (bits, span) = self.const_expr()?;
                Ok(Operand::Int { bits, span })
            }
            Tok::Float => {
                self.bump();
                let (bits, is_f32_bits) = self.float_value(t)?;
                Ok(Operand::Float { bits, is_f32_bits, span: t.span })
            }
            Tok::Punct(b'{') => {
                self.bump();
                let (items, close) =
                    self.list_until(b'}', false, "`,` or `}` in the vector operand", Self::operand)?;
                let v = Operand::Vector(items, t.span.to(close));
                // `{d0, d1, d2, d3}|p`: a texture result and its predicate.
                if self.eat_punct(b'|') {
                    let p = self.expect_ident("a predicate after `|`")?;
                    return Ok(Operand::Pair(Box::new(v), Box::new(Operand::Name(p))));
                }
                Ok(v)
            }
            Tok::Punct(b'(') => {
                self.bump();
                if !self.in_call && matches!(self.tok.tok, Tok::Int | Tok::Punct(b'(' | b'-' | b'~')) {
                    // A parenthesised constant expression, not an argument list.
                    let inner = self.const_binary()?;
                    let close = self.expect_punct(b')', "`)` closing the expression")?;
                    let v = self.const_binary_rest((inner.0, inner.1, t.span.to(close)), 0)?;
                    return Ok(Operand::Int { bits: v.0, span: v.2 });
                }
                let (items, close) = self.list_until(b')', true, "`,` or `)` in the list", Self::operand)?;
                Ok(Operand::List(items, t.span.to(close)))
            }
            Tok::Punct(b'[') => self.address(),
            Tok::Ident => {
                self.bump();
                let n = self.name(t);
                let first = if n.text(self.src) == "_" {
                    Operand::Sink(n.span)
                } else if self.tok.tok == Tok::Dot && self.tok.span.start == n.span.end {
                    let c = self.bump();
                    Operand::Component(n, c.span)
                } else if (self.at_punct(b'+') || self.at_punct(b'-')) && n.text(self.src).starts_with('%') {
                    // `%r1+4`: ptxas takes a register plus a constant offset.
                    let minus = self.bump().tok == Tok::Punct(b'-');
                    let (v, span) = self.const_expr()?;
                    let offset = if minus { (v as i64).wrapping_neg() } else { v as i64 };
                    Operand::Offset(n, offset, n.span.to(span))
                } else {
                    Operand::Name(n)
                };
                if self.eat_punct(b'|') {
                    let second = self.expect_ident("a predicate or `_` after `|`")?;
                    let second = if second.text(self.src) == "_" {
                        Operand::Sink(second.span)
                    } else {
                        Operand::Name(second)
                    };
                    return Ok(Operand::Pair(Box::new(first), Box::new(second)));
                }
                Ok(first)
            }
            _ => self.unexpected("an operand"),
        }
    }

    /// A constant integer expression (PTX ISA 4.6): C operators `* / % + - << >> & ^ |`
    /// and unary `- ~ !` over 64-bit integers; unsigned when any literal has `U`.
    pub(super) fn const_expr(&mut self) -> PResult<(u64, Span)> {
        let (v, _, span) = self.const_binary()?;
        Ok((v, span))
    }

    pub(super) fn const_binary(&mut self) -> PResult<(u64, bool, Span)> {
        let first = self.const_unary_full()?;
        self.const_binary_rest(first, 0)
    }

    /// The binary operator at the cursor with its precedence and token count.
    pub(super) fn binary_op(&self) -> Option<(u8, u8)> {
        let Tok::Punct(c) = self.tok.tok else { return None };
        let prec = match c {
            b'*' | b'/' | b'%' => 5,
            b'+' | b'-' => 4,
            b'<' | b'>' => {
                // Only `<<` and `>>` (two adjacent tokens) are operators here.
                let src = self.src.as_bytes();
                let next = src.get(self.tok.span.end as usize).copied();
                if next != Some(c) {
                    return None;
                }
                3
            }
            b'&' => 2,
            b'^' => 1,
            b'|' => 0,
            _ => return None,
        };
        Some((c, prec))
    }

    pub(super) fn const_binary_rest(
        &mut self,
        lhs: (u64, bool, Span),
        min_prec: u8,
    ) -> PResult<(u64, bool, Span)> {
        let (mut v, mut unsigned, mut span) = lhs;
        while let Some((op, prec)) = self.binary_op() {
            if prec < min_prec {
                break;
            }
            let op_span = self.bump().span;
            if op == b'<' || op == b'>' {
                self.bump();
            }
            let mut rhs = self.const_unary_full()?;
            while let Some((_, p)) = self.binary_op() {
                if p <= prec {
                    break;
                }
                rhs = self.const_binary_rest(rhs, p)?;
            }
            unsigned |= rhs.1;
            let r = rhs.0;
            v = match op {
                b'*' => v.wrapping_mul(r),
                b'+' => v.wrapping_add(r),
                b'-' => v.wrapping_sub(r),
                b'&' => v & r,
                b'^' => v ^ r,
                b'|' => v | r,
                b'<' => v.wrapping_shl(r.min(64) as u32).min(if r >= 64 { 0 } else { u64::MAX }),
                b'>' if unsigned => {
                    if r >= 64 {
                        0
                    } else {
                        v >> r
                    }
                }
                b'>' => ((v as i64) >> r.min(63)) as u64,
                b'/' | b'%' => {
                    if r == 0 {
                        return err(op_span, "division by zero in a constant expression");
                    }
                    match (op, unsigned) {
                        (b'/', true) => v / r,
                        (b'/', false) => (v as i64).wrapping_div(r as i64) as u64,
                        (_, true) => v % r,
                        (_, false) => (v as i64).wrapping_rem(r as i64) as u64,
                    }
                }
                _ => v,
            };
            span = span.to(rhs.2);
        }
        Ok((v, unsigned, span))
    }

    pub(super) fn const_unary_full(&mut self) -> PResult<(u64, bool, Span)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return err(self.tok.span, format!("expression nested deeper than {MAX_DEPTH} levels"));
        }
        let r = self.const_atom();
        self.depth -= 1;
        r
    }

    pub(super) fn const_atom(&mut self) -> PResult<(u64, bool, Span)> {
        let t = self.tok;
        match t.tok {
            Tok::Int => {
                self.bump();
                let v = self.int_value(t)?;
                Ok((v, self.text(t).ends_with('U'), t.span))
            }
            Tok::Punct(c @ (b'-' | b'~' | b'!')) => {
                self.bump();
                let (v, u, s) = self.const_unary_full()?;
                let v = match c {
                    b'-' => v.wrapping_neg(),
                    b'~' => !v,
                    _ => u64::from(v == 0),
                };
                Ok((v, u, t.span.to(s)))
            }
            Tok::Punct(b'(') => {
                self.bump();
                let inner = self.const_binary()?;
                let close = self.expect_punct(b')', "`)` closing the expression")?;
                Ok((inner.0, inner.1, t.span.to(close)))
            }
            _ => self.unexpected("a number in the constant expression"),
        }
    }

    /// The rest of `[image, {coords}]` or `[image, sampler, {coords}]` after the
    /// image and its comma.
    fn image_address(&mut self, open: Span, image: Name) -> PResult<Operand> {
        let mut sampler = None;
        if self.tok.tok == Tok::Ident {
            let t = self.bump();
            let n = self.name(t);
            // `[t, %r1]`: the name was the one coordinate, not a sampler.
            if self.at_punct(b']') {
                let close = self.bump().span;
                let coords = Operand::Name(n);
                return Ok(Operand::Image(Box::new(ImageAddr {
                    image,
                    sampler,
                    coords,
                    span: open.to(close),
                })));
            }
            sampler = Some(n);
            self.expect_punct(b',', "`,` before the coordinates")?;
        }
        // `{x, y}`, or one coordinate as it is (ptxas takes `[t, %r1]` for 1d).
        let coords = self.operand()?;
        let close = self.expect_punct(b']', "`]` closing the address")?;
        Ok(Operand::Image(Box::new(ImageAddr { image, sampler, coords, span: open.to(close) })))
    }

    pub(super) fn address(&mut self) -> PResult<Operand> {
        let open = self.expect_punct(b'[', "`[`")?;
        let mut base = None;
        let mut offset = 0i64;
        match self.tok.tok {
            Tok::Ident => {
                let t = self.bump();
                base = Some(self.name(t));
                if self.eat_punct(b',') {
                    return self.image_address(open, self.name(t));
                }
                if self.at_punct(b'+') || self.at_punct(b'-') {
                    let minus = self.bump().tok == Tok::Punct(b'-');
                    let neg = self.eat_punct(b'-') ^ minus;
                    let (v, _) = self.expect_int("an offset")?;
                    offset = if neg { (v as i64).wrapping_neg() } else { v as i64 };
                }
            }
            Tok::Int | Tok::Punct(b'-') => {
                let neg = self.eat_punct(b'-');
                let (v, _) = self.expect_int("an address")?;
                offset = if neg { (v as i64).wrapping_neg() } else { v as i64 };
            }
            _ => return self.unexpected("a register, variable or number in the address"),
        }
        let close = self.expect_punct(b']', "`]` closing the address")?;
        Ok(Operand::Addr(Address { base, offset, span: open.to(close) }))
    }
}
