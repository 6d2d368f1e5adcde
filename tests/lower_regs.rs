//! Every register that real compiler output uses resolves to a slot (`lower::regs`),
//! but `.b128` ones (sm_90's 128-bit atomics), which ptxvm's registers cannot hold
//! yet and `tests/data/run_rejected.txt` lists.

use ptxvm::check::types::Ty;
use ptxvm::lower::regs::RegScopes;
use ptxvm::syntax::ast::{Block, Item, Module, Operand, Space, Stmt};

/// The `%`-names an operand uses as registers (not special registers).
fn register_names<'s>(op: &Operand, src: &'s str, out: &mut Vec<&'s str>) {
    match op {
        Operand::Name(n) | Operand::Offset(n, ..) => out.push(n.text(src)),
        Operand::Not(inner, _) => register_names(inner, src, out),
        Operand::Pair(a, b) => {
            register_names(a, src, out);
            register_names(b, src, out);
        }
        Operand::Vector(items, _) | Operand::List(items, _) => {
            items.iter().for_each(|i| register_names(i, src, out));
        }
        Operand::Addr(a) => out.extend(a.base.map(|b| b.text(src))),
        _ => {}
    }
}

fn walk<'m>(
    m: &'m Module,
    src: &'m str,
    b: &Block,
    regs: &mut RegScopes<'m>,
    missing: &mut Vec<String>,
    wide: &mut Vec<&'m str>,
) {
    regs.enter();
    for s in m.pool.stmts(b) {
        match s {
            Stmt::Var(v) if v.space == Space::Reg => {
                let ty = Ty::from_word(v.ty.text(src)).expect("checked type");
                for d in &v.vars {
                    if ty == Ty::B128 {
                        wide.push(d.name.text(src));
                        continue;
                    }
                    assert!(regs.declare(d.name.text(src), ty, d.count).is_some());
                }
            }
            Stmt::Block(inner) => walk(m, src, inner, regs, missing, wide),
            Stmt::Instr(i) => {
                let mut used = Vec::new();
                for op in m.pool.view(i).operands {
                    register_names(op, src, &mut used);
                }
                for n in used {
                    let special = ptxvm::check::is_special_register(n);
                    if n.starts_with('%') && !special && regs.resolve(n).is_none() && !wide.contains(&n) {
                        missing.push(n.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    regs.exit();
}

#[test]
fn every_register_in_the_corpus_has_a_slot() {
    let mut functions = 0;
    for dir in ["corpus/cuda/ptx/sm_90", "corpus/llvm/ptx"] {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let src = std::fs::read_to_string(entry.path()).unwrap();
            let (module, errors) = ptxvm::syntax::parse(&src);
            assert!(errors.is_empty());
            for item in &module.items {
                let Item::Func(f) = item else { continue };
                let Some(body) = &f.body else { continue };
                functions += 1;
                let mut regs = RegScopes::default();
                regs.enter();
                for p in f.rets.iter().chain(&f.params).filter(|p| p.space == Space::Reg) {
                    let ty = Ty::from_word(p.ty.text(&src)).unwrap();
                    regs.declare(p.name.unwrap().text(&src), ty, None);
                }
                let mut missing = Vec::new();
                walk(&module, &src, body, &mut regs, &mut missing, &mut Vec::new());
                assert!(missing.is_empty(), "{}: {}: {missing:?}", entry.path().display(), f.name.text(&src));
            }
        }
    }
    assert!(functions > 100, "{functions}");
}
