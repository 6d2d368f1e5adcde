//! Reconvergence points of real and hand-written control flow (`lower::flow`).

use ptxvm::lower::flow::{EXIT, Flow};
use ptxvm::syntax::ast::Item;

fn flows(src: &str, mut f: impl FnMut(&str, &Flow)) {
    let (module, errors) = ptxvm::syntax::parse(src);
    assert!(errors.is_empty() && ptxvm::check::check(&module, src).is_empty());
    for item in &module.items {
        if let Item::Func(func) = item
            && let Some(body) = &func.body
        {
            let flow = Flow::build(&module, src, body);
            f(func.name.text(src), &flow);
        }
    }
}

/// if (a) { if (b) x else y } else z; join — pcs counted by hand from the text.
const NESTED: &str = "\
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .pred %p<3>;
	.reg .b32 %r<3>;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra ELSE;
	setp.eq.s32 %p2, %r2, 0;
	@%p2 bra INNER_ELSE;
	mov.b32 %r1, 1;
	bra INNER_JOIN;
INNER_ELSE:
	mov.b32 %r1, 2;
INNER_JOIN:
	bra JOIN;
ELSE:
	mov.b32 %r1, 3;
JOIN:
	ret;
}
";

#[test]
fn nested_if_else_reconverges_at_each_join() {
    flows(NESTED, |_, flow| {
        // pcs: 0 setp, 1 @p1 bra, 2 setp, 3 @p2 bra, 4 mov, 5 bra, 6 mov (INNER_ELSE),
        // 7 bra (INNER_JOIN), 8 mov (ELSE), 9 ret (JOIN)
        assert_eq!(flow.insts.len(), 10);
        let at = |pc: u32| flow.reconverge[flow.block_of[pc as usize] as usize];
        assert_eq!(at(1), 9, "outer branch joins at JOIN");
        assert_eq!(at(3), 7, "inner branch joins at INNER_JOIN");
        assert_eq!(at(9), EXIT);
        assert_eq!(flow.targets[1], vec![8]);
        assert_eq!(flow.targets[3], vec![6]);
    });
}

#[test]
fn every_corpus_function_has_consistent_flow() {
    let mut functions = 0;
    for dir in ["corpus/cuda/ptx/sm_90", "corpus/llvm/ptx", "tests/data/syntax"] {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let src = std::fs::read_to_string(entry.path()).unwrap();
            flows(&src, |name, flow| {
                functions += 1;
                for (b, r) in flow.blocks.iter().enumerate() {
                    let rc = flow.reconverge[b];
                    // A reconvergence point is the start of a block after which the
                    // diverged lanes meet, never the block itself.
                    assert!(rc == EXIT || (flow.block_of[rc as usize] as usize != b), "{name}: block {b}");
                    assert!(r.start < r.end);
                }
                for (pc, t) in flow.targets.iter().enumerate() {
                    assert!(t.iter().all(|&t| (t as usize) < flow.insts.len()), "{name}: pc {pc}");
                }
            });
        }
    }
    assert!(functions > 100);
}
