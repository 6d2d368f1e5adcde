//! Every instruction against its row of the instruction table ([`crate::isa`]): the
//! opcode, each modifier's word, the modifier groups, the types, the operand count and
//! the `.version`/`sm_` gates. The result is the instruction's [`Form`], which `check`
//! hands to `lower`.

use super::types::Ty;
use super::{Checker, I};
use crate::isa::table::{Group, rows_of};
use crate::isa::{Form, Row, Rule, Word, WordSet};

/// A form found valid once, for every instruction spelled the same way: the form (its
/// index in `Checker::forms`), and the operand count to check each time (none for a
/// rule of its own).
pub(super) type Cached = (u32, Option<(u8, u8)>);

impl<'a> Checker<'a> {
    /// Finds the instruction's row and, unless a rule of its own validates it, checks
    /// the instruction against the row. Returns the form's index in `self.forms`;
    /// `None` when the opcode is unknown.
    pub(super) fn form(&mut self, i: &I<'a>, name: &str) -> Option<u32> {
        // The opcode and modifiers as written: instructions repeat, and a spelling
        // found valid once (in this module, with its `.version` and target) is valid
        // again; only the operand count differs.
        let end = i.mods.last().map_or(i.opcode.span.end, |m| m.span.end);
        let key = self.src.get(i.opcode.span.start as usize..end as usize).unwrap_or("");
        if let Some(&(k, operands)) = self.form_cache.get(key) {
            if let Some(n) = operands {
                self.operand_count(i, name, usize::from(n.0), usize::from(n.1));
            }
            return Some(k);
        }
        let before = self.diags.len();
        let (form, operands) = self.find_form(i, name)?;
        let k = self.forms.len() as u32;
        self.forms.push(form);
        if self.diags.len() == before {
            self.form_cache.insert(key, (k, operands));
        }
        if let Some(n) = operands {
            self.operand_count(i, name, usize::from(n.0), usize::from(n.1));
        }
        Some(k)
    }

    fn find_form(&mut self, i: &I<'a>, name: &str) -> Option<(Form, Option<(u8, u8)>)> {
        let text = self.t(i.opcode);
        let Some(opcode) = crate::isa::Opcode::parse(text) else {
            self.error(i.opcode.span, format!("{name}: unknown instruction `{text}`"));
            return None;
        };
        let mut words = WordSet::EMPTY;
        let mut types: [Ty; 4] = [Ty::Other; 4];
        let mut ntypes = 0;
        let mut unknown = Vec::new();
        for m in i.mods {
            let t = self.t(m);
            if let Some(ty) = Ty::from_word(t) {
                if ntypes < 4 {
                    types[ntypes] = ty;
                }
                ntypes += 1;
            } else if let Some(w) = Word::parse(t) {
                words = words.with(w);
            } else {
                unknown.push(*m);
            }
        }
        let tys = &types[..ntypes.min(4)];
        let rows = rows_of(opcode);
        let form = Form::new(opcode, words, tys);
        match rows[0].rule {
            Rule::Own => return Some((form, None)),
            Rule::Operands | Rule::Open | Rule::Table => {}
        }
        // An open row (forms not yet in the table in full) takes any instruction whose
        // required words it finds; its other words are not judged. When the opcode's
        // only rows are open, a missing required word is an error.
        if let Some(row) = rows.iter().find(|r| r.rule == Rule::Open && needs_met(r, &words)) {
            for g in row.groups {
                self.group(i, name, g, &words);
            }
            self.lead(i, name, row);
            self.require(i.opcode.span, name, row.version, row.sm);
            return Some((form, Some(row.operands)));
        }
        if rows.iter().all(|r| r.rule == Rule::Open) {
            let row = &rows[0];
            for g in row.groups {
                self.group(i, name, g, &words);
            }
            self.lead(i, name, row);
            self.require(i.opcode.span, name, row.version, row.sm);
            return Some((form, Some(row.operands)));
        }
        for m in &unknown {
            self.error(m.span, format!("{name}: unknown modifier `{}`", self.t(m)));
        }
        // The rows whose types fit, then the first of them whose groups fit too; the
        // words ptxas ignores (unless the opcode has them: testp) play no part in it.
        let own = rows.iter().fold(WordSet::EMPTY, |a, r| a.union(r.words));
        let words = words.intersect(&IGNORED_BY_PTXAS.intersect(&own.complement()).complement());
        let fits_types = |r: &&Row| {
            r.serves(opcode)
                && r.types.len() == ntypes
                && r.types.iter().zip(tys).all(|(set, t)| set.contains(t))
        };
        let typed = || rows.iter().filter(fits_types);
        let Some(row) = typed()
            .find(|r| needs_met(r, &words) && r.words.intersect(&words) == words)
            .or_else(|| typed().find(|r| needs_met(r, &words)))
            .or_else(|| typed().next())
        else {
            self.wrong_types(i, name, opcode, tys);
            return None;
        };
        // ptxas lets testp's class words stand on any instruction and ignores them.
        let allowed = row.words.union(IGNORED_BY_PTXAS);
        for m in i.mods {
            if let Some(w) = Word::parse(self.t(m))
                && !allowed.contains(w)
            {
                self.error(m.span, format!("{name}: unexpected modifier `{}`", self.t(m)));
            }
        }
        for g in row.groups {
            self.group(i, name, g, &words);
        }
        self.lead(i, name, row);
        for (when, version, sm) in row.gates {
            if let Some(w) = when.intersect(&words).iter().next() {
                self.require(i.opcode.span, &format!("{name} ({})", w.text()), *version, *sm);
            }
        }
        for (when, not) in row.excludes {
            if let Some(w) = when.intersect(&words).iter().next()
                && let Some(x) = not.intersect(&words).iter().next()
            {
                self.error(i.span, format!("{name}: `{}` cannot be combined with `{}`", w.text(), x.text()));
            }
        }
        for (when, then) in row.needs {
            if let Some(w) = when.intersect(&words).iter().next()
                && then.intersect(&words).is_empty()
            {
                let list: Vec<&str> = then.iter().map(Word::text).collect();
                self.error(i.span, format!("{name}: `{}` needs one of {}", w.text(), list.join(" ")));
            }
        }
        self.require(i.opcode.span, name, row.version, row.sm);
        let operands = (row.rule == Rule::Table).then_some(row.operands);
        Some((form, operands))
    }

    /// The first modifier is one of the row's leading words, where it has them.
    fn lead(&mut self, i: &I<'a>, name: &str, row: &Row) {
        if row.lead.is_empty() {
            return;
        }
        let first = i.mods.first();
        if !first.and_then(|m| Word::parse(self.t(m))).is_some_and(|w| row.lead.contains(w)) {
            let list: Vec<&str> = row.lead.iter().map(Word::text).collect();
            let span = first.map_or(i.opcode.span, |m| m.span);
            self.error(span, format!("{name}: the operation comes first: one of {}", list.join(" ")));
        }
    }

    /// At most one word of a group; exactly one when it is needed.
    fn group(&mut self, i: &I<'a>, name: &str, g: &Group, words: &WordSet) {
        let present = g.words.intersect(words);
        if present.len() > 1 {
            let list: Vec<&str> = present.iter().map(Word::text).collect();
            self.error(i.span, format!("{name}: conflicting modifiers {}", list.join(" ")));
        } else if g.need && present.is_empty() {
            let list: Vec<&str> = g.words.iter().map(Word::text).collect();
            self.error(i.opcode.span, format!("{name}: needs one of {}", list.join(" ")));
        }
    }

    /// No row takes these types: say which types the opcode takes.
    fn wrong_types(&mut self, i: &I<'a>, name: &str, opcode: crate::isa::Opcode, tys: &[Ty]) {
        let rows = rows_of(opcode).iter().filter(|r| r.serves(opcode));
        let counts: Vec<usize> = rows.clone().map(|r| r.types.len()).collect();
        if !counts.contains(&tys.len()) {
            let want = counts.iter().max().copied().unwrap_or(0);
            let msg = match want {
                0 => format!("{name}: takes no type"),
                1 => format!("{name}: needs one type"),
                n => format!("{name}: needs {n} types"),
            };
            self.error(i.opcode.span, msg);
            return;
        }
        let mut valid: Vec<&str> = Vec::new();
        for r in rows.filter(|r| r.types.len() == tys.len()) {
            for t in r.types.first().copied().unwrap_or_default() {
                if !valid.contains(&t.word()) {
                    valid.push(t.word());
                }
            }
        }
        let span =
            i.mods.iter().find(|m| Ty::from_word(self.t(*m)).is_some()).map_or(i.opcode.span, |m| m.span);
        let got: Vec<&str> = tys.iter().map(|t| t.word()).collect();
        self.error(
            span,
            format!("{name}: type {} is not valid here (valid: {})", got.join(""), valid.join(" ")),
        );
    }
}

/// Words ptxas 13 accepts on every instruction (the table matrix: `add.finite.s32`,
/// `brkpt.normal` ...), presumably parsed and dropped; `check` does the same.
const IGNORED_BY_PTXAS: WordSet = WordSet::of(&[
    Word::Finite,
    Word::Infinite,
    Word::Number,
    Word::Notanumber,
    Word::Normal,
    Word::Subnormal,
]);

/// Is `text` a word ptxas accepts on any instruction and ignores?
pub(super) fn ignored_by_ptxas(text: &str) -> bool {
    Word::parse(text).is_some_and(|w| IGNORED_BY_PTXAS.contains(w))
}

fn needs_met(r: &Row, words: &WordSet) -> bool {
    r.groups.iter().all(|g| !g.need || !g.words.intersect(words).is_empty())
}
