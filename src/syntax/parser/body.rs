//! Function bodies: blocks on a scratch stack, statements, labels with their target
//! lists, and instructions whose modifiers and operands go to the module's pools.

use super::*;

impl Parser<'_> {
    pub(super) fn block(&mut self) -> PResult<Block> {
        let open = self.expect_punct(b'{', "`{`")?;
        if self.depth >= MAX_DEPTH {
            return err(open, format!("blocks nested deeper than {MAX_DEPTH} levels"));
        }
        self.depth += 1;
        // Statements collect on the scratch stack (nested blocks above ours) and move
        // to the pool together once the block is complete.
        let base = self.scratch.len();
        let result = self.block_body(open);
        self.depth -= 1;
        let start = self.pool.stmts.len();
        self.pool.stmts.extend(self.scratch.drain(base..));
        let stmts = PoolRange { start: start as u32, len: (self.pool.stmts.len() - start) as u32 };
        result.map(|close| Block { stmts, span: open.to(close) })
    }

    /// The statements of a block up to and including its `}`.
    pub(super) fn block_body(&mut self, open: Span) -> PResult<Span> {
        loop {
            match self.tok.tok {
                Tok::Punct(b'}') => return Ok(self.bump().span),
                Tok::Eof => {
                    return err(self.tok.span, "unexpected end of file: missing `}` closing this block");
                }
                _ => {}
            }
            match self.stmt() {
                Ok(Some(s)) => self.scratch.push(s),
                Ok(None) => {}
                Err(e) => {
                    // Nesting overflow is fatal for the block: do not dig deeper.
                    let fatal = e.message.contains("nested deeper");
                    self.errors.push(e);
                    if fatal {
                        return err(open, "function body abandoned after the nesting error");
                    }
                    self.recover();
                }
            }
        }
    }

    pub(super) fn stmt(&mut self) -> PResult<Option<Stmt>> {
        let t = self.tok;
        match t.tok {
            Tok::Punct(b'{') => Ok(Some(Stmt::Block(self.block()?))),
            Tok::Punct(b'@') => Ok(Some(Stmt::Instr(self.instr()?))),
            Tok::Ident => {
                let name = self.name(t);
                self.bump();
                if self.eat_punct(b':') {
                    return self.after_label(name).map(Some);
                }
                Ok(Some(Stmt::Instr(self.instr_after_opcode(None, name)?)))
            }
            Tok::Dot => {
                let word = self.text(t);
                if Space::from_directive(word).is_some() {
                    let v = self.var_decl(None)?;
                    self.expect_punct(b';', "`;` after the declaration")?;
                    return Ok(Some(Stmt::Var(Box::new(v))));
                }
                self.bump();
                match word {
                    ".loc" | ".file" => {
                        self.skip_line();
                        Ok(Some(Stmt::Skipped(self.name(t))))
                    }
                    ".pragma" => {
                        self.pragma()?;
                        Ok(Some(Stmt::Skipped(self.name(t))))
                    }
                    _ => {
                        self.recover();
                        Ok(Some(Stmt::Unknown(self.name(t))))
                    }
                }
            }
            Tok::Punct(b';') => {
                self.bump();
                Ok(None)
            }
            _ => self.unexpected("an instruction, label, declaration or `}`"),
        }
    }

    pub(super) fn after_label(&mut self, label: Name) -> PResult<Stmt> {
        if self.tok.tok != Tok::Dot {
            return Ok(Stmt::Label(label));
        }
        let kw = self.text(self.tok);
        match kw {
            ".branchtargets" | ".calltargets" => {
                self.bump();
                let mut targets = vec![self.expect_ident("a target name")?];
                while self.eat_punct(b',') {
                    targets.push(self.expect_ident("a target name")?);
                }
                self.expect_punct(b';', "`;`")?;
                Ok(if kw == ".branchtargets" {
                    Stmt::BranchTargets { label, targets }
                } else {
                    Stmt::CallTargets { label, targets }
                })
            }
            ".callprototype" => {
                self.bump();
                let mut rets = Vec::new();
                if self.at_punct(b'(') {
                    rets = self.param_list()?;
                }
                let placeholder = self.expect_ident("`_` in the prototype")?;
                if placeholder.text(self.src) != "_" {
                    return err(placeholder.span, "`.callprototype` names its function `_`");
                }
                let mut params = Vec::new();
                if self.at_punct(b'(') {
                    params = self.param_list()?;
                }
                let mut noreturn = false;
                while self.tok.tok == Tok::Dot {
                    let d = self.bump();
                    if self.text(d) == ".noreturn" {
                        noreturn = true;
                    } else {
                        return err(d.span, format!("unexpected `{}` in `.callprototype`", self.text(d)));
                    }
                }
                self.expect_punct(b';', "`;`")?;
                Ok(Stmt::CallPrototype { label, proto: Box::new(Prototype { rets, params, noreturn }) })
            }
            _ => Ok(Stmt::Label(label)),
        }
    }

    pub(super) fn instr(&mut self) -> PResult<Instr> {
        let at = self.expect_punct(b'@', "`@`")?;
        let negated = self.eat_punct(b'!');
        let pred = self.expect_ident("a predicate register after `@`")?;
        let opcode = self.expect_ident("an instruction after the guard")?;
        let mut i = self.instr_after_opcode(Some(Guard { negated, pred }), opcode)?;
        i.span = at.to(i.span);
        Ok(i)
    }

    pub(super) fn instr_after_opcode(&mut self, guard: Option<Guard>, opcode: Name) -> PResult<Instr> {
        let mods_start = self.pool.mods.len();
        while self.tok.tok == Tok::Dot {
            let t = self.bump();
            let n = self.name(t);
            self.pool.mods.push(n);
        }
        let ops_start = self.pool.operands.len();
        self.in_call = opcode.text(self.src) == "call";
        let result = self.operand_list();
        self.in_call = false;
        let mods = PoolRange { start: mods_start as u32, len: (self.pool.mods.len() - mods_start) as u32 };
        let operands =
            PoolRange { start: ops_start as u32, len: (self.pool.operands.len() - ops_start) as u32 };
        if let Err(e) = result {
            self.pool.mods.truncate(mods_start);
            self.pool.operands.truncate(ops_start);
            return Err(e);
        }
        let semi = self.tok.span;
        self.bump();
        Ok(Instr { guard, opcode, mods, operands, span: opcode.span.to(semi) })
    }

    /// Operands up to and including the `;`, pushed onto the pool.
    pub(super) fn operand_list(&mut self) -> PResult<()> {
        if !self.at_punct(b';') {
            loop {
                let op = self.operand()?;
                self.pool.operands.push(op);
                if !self.eat_punct(b',') {
                    break;
                }
            }
        }
        if !self.at_punct(b';') {
            return self.unexpected("`,` or `;` after the operand");
        }
        Ok(())
    }
}
