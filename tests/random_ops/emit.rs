//! Writing a generated program out as a PTX module: the kernel's prologue and
//! epilogue, and each instruction with its operands (and the code around the forms
//! that need some).

use super::*;

/// The code of a control-flow form (`{brx}`, `{fadd}`, `{fmix}`, `{fptr}`), the `n`th
/// instruction, with `ops` its destination and sources.
pub(crate) fn control(o: &Op, i: &Inst, n: usize, ops: &[String]) -> Option<String> {
    if let Some(kind) = ["{wmma0}", "{wmma1}", "{wmma2}"].iter().position(|t| o.ptx.contains(t)) {
        return Some(wmma_text(kind as u64));
    }
    if o.ptx.contains("{isspace}") {
        // 0-2: the generic address of the output buffer as global, shared, local; 3-5:
        // a generic shared address as shared, global, const.
        let p = &ops[0];
        let space = ["global", "shared", "local", "shared", "global", "const"][i.imm as usize];
        let at = if i.imm < 3 { "ld.param.u64 %a3, [out];" } else { "cvta.shared.u64 %a3, %sa;" };
        return Some(format!("\t{at}\n\tisspacep.{space} {p}, %a3;\n"));
    }
    if o.ptx.contains("{alloca}") {
        // 16 bytes of the thread's local memory, written and read back.
        let (d, a) = (&ops[0], &ops[1]);
        return Some(format!(
            "\talloca.u64 %a3, 16, 8;\n\tst.local.u64 [%a3+8], {a};\n\tld.local.u64 {d}, [%a3+8];\n"
        ));
    }
    if o.ptx.contains("{mapa}") {
        // The thread's shared word through the cluster window of rank 0 (its own CTA).
        let (d, at) = (&ops[0], ops[1].trim_start_matches("[%sa"));
        return Some(format!(
            "\tmapa.shared::cluster.u64 %a3, %sa, 0;\n\tld.shared::cluster.u64 {d}, [%a3{at};\n"
        ));
    }
    if o.ptx.contains("{getctarank}") {
        let d = &ops[0];
        return Some(format!("\tcvta.shared.u64 %a3, %sa;\n\tgetctarank.u64 {d}, %a3;\n"));
    }
    if o.ptx.contains("{malloc}") {
        // 8 bytes of the device heap, written, read back and freed.
        let (d, a) = (&ops[0], &ops[1]);
        return Some(format!(
            "\t{{\n\t.param .b64 mr;\n\t.param .b64 ms;\n\tst.param.b64 [ms], 8;\n\tcall.uni (mr), malloc, (ms);\n\
             \tld.param.b64 %a3, [mr];\n\t}}\n\tst.u64 [%a3], {a};\n\tld.u64 {d}, [%a3];\n\
             \t{{\n\t.param .b64 mf;\n\tst.param.b64 [mf], %a3;\n\tcall.uni free, (mf);\n\t}}\n"
        ));
    }
    if o.ptx.contains("{atomv}") {
        // `{d, d+1}, [word], {b, c}`.
        return Some(format!(
            "\tatom.global.add.v2.f32 {}, {}, {{{}, {}}};\n",
            ops[0], ops[1], ops[2], ops[3]
        ));
    }
    if o.ptx.contains("{clusterbar}") {
        return Some("\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;\n".to_string());
    }
    if o.ptx.contains("{cvta") {
        // The source is `[%sa+8k]`: the same word through a converted address.
        let (d, at) = (&ops[0], ops[1].trim_start_matches("[%sa"));
        let mut s = String::from("\tcvta.shared.u64 %a3, %sa;\n");
        if o.ptx.contains("{cvtato}") {
            s += &format!("\tcvta.to.shared.u64 %a3, %a3;\n\tld.shared.u64 {d}, [%a3{at};\n");
        } else {
            s += &format!("\tld.u64 {d}, [%a3{at};\n");
        }
        return Some(s);
    }
    if o.ptx.contains("{bulkst}") {
        let (dst, src) = (&ops[0], &ops[1]);
        return Some(format!(
            "\tcp.async.bulk.global.shared::cta.bulk_group {dst}, {src}, 16;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;\n"
        ));
    }
    if o.ptx.contains("{bulkld}") {
        // The mbarrier: the thread's shared word outside the destination pair.
        let (dst, src, bar) = (&ops[0], &ops[1], W::S.name(2 - 2 * i.srcs[0]));
        return Some(format!(
            "\tmbarrier.init.shared.b64 {bar}, 1;\n\tmbarrier.arrive.expect_tx.shared.b64 %fp0, {bar}, 16;\n\
             \tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes {dst}, {src}, 16, {bar};\n\
             \tmbarrier.try_wait.parity.shared.b64 %pt, {bar}, 0;\n\tmbarrier.inval.shared.b64 {bar};\n"
        ));
    }
    if o.ptx.contains("{cpmbar}") {
        let (p, at) = (&ops[0], &ops[1]);
        let noinc = if i.imm == 1 { ".noinc" } else { "" };
        return Some(format!(
            "\tmbarrier.init.shared.b64 {at}, 1;\n\tcp.async.mbarrier.arrive{noinc}.shared.b64 {at};\n\
             \tmbarrier.test_wait.parity.shared.b64 {p}, {at}, 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        ));
    }
    if o.ptx.contains("{mbar2}") {
        let (p, at) = (&ops[0], &ops[1]);
        let partner = at.replace("[%sa", "[%a3");
        return Some(format!(
            "\tmbarrier.init.shared.b64 {at}, 1;\n\tbar.sync 0;\n\tadd.s64 %a3, %sa, 1024;\n\tsetp.lt.u32 %pt, %t0, 32;\n\
             \t@%pt mbarrier.try_wait.parity.shared.b64 {p}, {partner}, 0;\n\
             \t@!%pt mbarrier.arrive.shared.b64 %fp0, {at};\n\t@!%pt mbarrier.try_wait.parity.shared.b64 {p}, {at}, 0;\n\
             \tbar.sync 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        ));
    }
    if o.ptx.contains("{mbar}") {
        let (c, n, wait) = mbar_parts(i.imm);
        let (p, at) = (&ops[0], &ops[1]);
        let mut s = format!("\tmbarrier.init.shared.b64 {at}, {c};\n");
        if n > 0 {
            s += &format!("\tmbarrier.arrive.shared.b64 %fp0, {at}, {n};\n");
        }
        let test = if wait { "try_wait" } else { "test_wait" };
        s += &format!(
            "\tmbarrier.{test}.parity.shared.b64 {p}, {at}, 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        );
        return Some(s);
    }
    if !["{brx}", "{fadd}", "{fmix}", "{fptr}"].iter().any(|t| o.ptx.contains(t)) {
        return None;
    }
    let (d, a) = (&ops[0], &ops[1]);
    if o.ptx.contains("{brx}") {
        let mut s = format!(
            "\tand.b32 %t1, {a}, 3;\nT{n}: .branchtargets L{n}_0, L{n}_1, L{n}_2, L{n}_3;\n\tbrx.idx %t1, T{n};\n"
        );
        for j in 0..4 {
            s += &format!("L{n}_{j}:\n\tmov.b32 {d}, {};\n\tbra J{n};\n", brx_value(i.imm, j));
        }
        return Some(s + &format!("J{n}:\n"));
    }
    let b = &ops[2];
    if o.ptx.contains("{fadd}") {
        return Some(format!("\tcall ({d}), fadd, ({a}, {b});\n"));
    }
    let callee = if o.ptx.contains("{fmix}") {
        "fmix".to_string()
    } else if o.ptx.contains("{fptr}") {
        "%fp2, proto".to_string()
    } else {
        return None;
    };
    let mut s = String::new();
    if o.ptx.contains("{fptr}") {
        s += &format!(
            "\tmov.u64 %fp0, fmix;\n\tmov.u64 %fp1, fsub;\n\tand.b32 %t1, {a}, 1;\n\tsetp.ne.u32 %pt, %t1, 0;\n\tselp.b64 %fp2, %fp0, %fp1, %pt;\n"
        );
    }
    let proto = if o.ptx.contains("{fptr}") {
        "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
    } else {
        ""
    };
    let (callee, args) = match callee.split_once(", ") {
        Some((f, p)) => (f.to_string(), format!("(ca, cb), {p}")),
        None => (callee, "(ca, cb)".to_string()),
    };
    s += &format!(
        "\t{{\n\t.param .b32 ca;\n\t.param .b32 cb;\n\t.param .b32 cr;\n{proto}\tst.param.b32 [ca], {a};\n\tst.param.b32 [cb], {b};\n\tcall (cr), {callee}, {args};\n\tld.param.b32 {d}, [cr];\n\t}}\n"
    );
    Some(s)
}

pub(crate) fn emit(prog: &[Inst]) -> String {
    let mut s = String::from(".version 8.3\n.target sm_90\n.address_size 64\n\n");
    for (name, ty, elems) in CONSTS {
        let elems: Vec<String> = elems
            .iter()
            .map(|&e| if ty == "f32" { format!("0f{e:08X}") } else { format!("{e:#x}") })
            .collect();
        s += &format!(".const .align 16 .{ty} {name}[{}] = {{{}}};\n", elems.len(), elems.join(", "));
    }
    s += "\n.extern .func (.param .b64 r) malloc(.param .b64 n);\n.extern .func free(.param .b64 p);\n\n";
    s += FUNCS;
    s += ".visible .entry k(.param .u64 in, .param .u64 out";
    for (_, decl, _) in PARAMS {
        s += &format!(", .param {decl}");
    }
    s += ")\n{\n\
         \t.reg .pred %p<2>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %t<3>;\n\t.reg .b64 %a<4>;\n\t.reg .b64 %sa;\n\t.reg .f64 %fm<4>;\n\t.reg .b32 %fa<10>;\n\t.reg .f32 %fs<2>;\n\t.reg .b64 %fp<3>;\n\t.reg .pred %pt;\n\t.reg .b32 %wf<24>;\n\
         \t.shared .align 16 .b8 sh[2048];\n\t.local .align 16 .b8 lo[32];\n\
         \tld.param.u64 %a0, [in];\n\tld.param.u64 %a1, [out];\n\tcvta.to.global.u64 %a0, %a0;\n\tcvta.to.global.u64 %a1, %a1;\n\
         \tmov.u32 %t0, %tid.x;\n\tmul.wide.u32 %a2, %t0, 136;\n\tadd.s64 %a0, %a0, %a2;\n\tmul.wide.u32 %a2, %t0, 208;\n\tadd.s64 %a1, %a1, %a2;\n";
    // Loads, some of types narrower than the register: %h0 from .s8, %r0 from .s8, %r1
    // from .u16, %rd0 from .s32 (sign- or zero-extended to the register).
    for k in 0..4 {
        let (th, tr, td) = match k {
            0 => ("s8", "s8", "s32"),
            1 => ("u16", "u16", "u64"),
            _ => ("u16", "u32", "u64"),
        };
        s += &format!("\tld.global.{th} %h{k}, [%a0+{}];\n", 8 * k);
        s += &format!("\tld.global.{tr} %r{k}, [%a0+{}];\n", 8 * (4 + k));
        s += &format!("\tld.global.{td} %rd{k}, [%a0+{}];\n", 8 * (8 + k));
    }
    // The memory words: the thread's 32 bytes of global, shared and local memory, all
    // from the same four input words.
    s += "\tmov.u64 %sa, sh;\n\tmul.wide.u32 %a2, %t0, 32;\n\tadd.s64 %sa, %sa, %a2;\n";
    for k in 0..4 {
        s += &format!(
            "\tld.global.u64 %a3, [%a0+{}];\n\tst.global.u64 [%a1+{}], %a3;\n\tst.shared.u64 [%sa+{}], %a3;\n\tst.local.u64 [lo+{}], %a3;\n",
            104 + 8 * k,
            MEM_AT + 8 * k,
            8 * k,
            8 * k
        );
    }
    s += "\tld.global.u32 %t1, [%a0+96];\n\tand.b32 %t2, %t1, 1;\n\tsetp.ne.u32 %p0, %t2, 0;\n\
          \tand.b32 %t2, %t1, 2;\n\tsetp.ne.u32 %p1, %t2, 0;\n";
    for (n, i) in prog.iter().enumerate() {
        let o = &OPS[i.op];
        let name = o
            .ptx
            .replace("{cmp}", CMPS[i.imm as usize % 14])
            .replace("{class}", CLASSES[i.imm as usize % 6])
            .replace("{rnd}", ROUNDINGS[i.imm as usize % 3])
            .replace("{c6}", VCMPS[(i.imm / 49 % 6) as usize])
            .replace("{pm}", PRMT_MODES[i.imm as usize % 6])
            .replace("{vd}", "")
            .replace("{vsd}", "")
            .replace("{v}", "")
            .replace("{s2}", "")
            .replace("{s4}", "")
            .replace("{brace}", "")
            .replace("{mma}", "")
            .replace("{mma64}", "")
            .replace("{bc}", "");
        // The remaining tags only steer how the operands are written.
        let name = match name.find('{') {
            Some(at) if name.ends_with('}') => name[..at].to_string(),
            _ => name,
        };
        let mut ops: Vec<String> = match o.lanes {
            _ if o.dst == N => vec![],
            _ if matches!(o.dst, RP | PQ) => vec![o.dst.name(i.dst)],
            1 => vec![o.dst.name(i.dst)],
            n => {
                let dsts: Vec<String> = (0..n).map(|j| o.dst.name((i.dst + j) % 4)).collect();
                vec![format!("{{{}}}", dsts.join(", "))]
            }
        };
        let names: Vec<String> = o.srcs.iter().zip(&i.srcs).map(|(w, &k)| w.name(k)).collect();
        if o.ptx.contains("{mma64}") {
            // The f64 mma's A, B and C elements: the low bytes of its sources as s8,
            // converted into %fm0 ... %fm3.
            for (k, name) in names.iter().enumerate() {
                s += &format!("\tcvt.rn.f64.s8 %fm{k}, {name};\n");
            }
            ops.extend(["{%fm0}", "{%fm1}", "{%fm2, %fm3}"].map(String::from));
        } else if let Some(kind) = ["{mmah}", "{mmab}", "{mmat}"].iter().position(|t| o.ptx.contains(t)) {
            // The half-precision and tf32 mma's fragments in %fa0 ... %fa9: A and B
            // elements from signed 4-bit fields (f16, bf16) or the low byte (tf32), C
            // elements from the low byte, each as an f32 first (see `mma_half`).
            for (k, name) in names.iter().enumerate() {
                if k < 6 && kind < 2 {
                    for (f, at) in [(0, 0), (1, 16)] {
                        s += &format!("\tbfe.s32 %t1, {name}, {at}, 4;\n\tcvt.rn.f32.s32 %fs{f}, %t1;\n");
                    }
                    let ty = if kind == 0 { "f16x2" } else { "bf16x2" };
                    s += &format!("\tcvt.rn.{ty}.f32 %fa{k}, %fs1, %fs0;\n");
                } else {
                    s += &format!(
                        "\tbfe.s32 %t1, {name}, 0, 8;\n\tcvt.rn.f32.s32 %fs0, %t1;\n\tmov.b32 %fa{k}, %fs0;\n"
                    );
                }
            }
            ops.extend(
                ["{%fa0, %fa1, %fa2, %fa3}", "{%fa4, %fa5}", "{%fa6, %fa7, %fa8, %fa9}"].map(String::from),
            );
        } else if o.ptx.contains("{mma}") {
            // mma's A, B and C fragments, each a vector.
            for part in [&names[..4], &names[4..6], &names[6..]] {
                ops.push(format!("{{{}}}", part.join(", ")));
            }
        } else if o.ptx.contains("{brace}") {
            // A vector operand: the registers after the address (all of them for mov).
            let at = usize::from(matches!(o.srcs[0], M | S | L));
            ops.extend(names[..at].iter().cloned());
            ops.push(format!("{{{}}}", names[at..].join(", ")));
        } else {
            ops.extend(names);
        }
        if o.ptx.contains("{fns}") {
            // fns's base, between the mask and the offset.
            ops.insert(2, i.imm.to_string());
        }
        if o.ptx.contains("{ldm}") {
            // ldmatrix's one destination, as a vector.
            ops[0] = format!("{{{}}}", ops[0]);
        }
        let copy = ["4}", "8}", "16}"]
            .iter()
            .find(|t| o.ptx.contains(&format!("{{cp{t}")) || o.ptx.contains(&format!("{{cpi{t}")));
        if let Some(size) = copy {
            // cp.async's size, then its source size or ignore-src predicate, and the wait.
            let size: u64 = size.trim_end_matches('}').parse().unwrap();
            ops.insert(2, size.to_string());
            if o.imm.1 > 0 && i.imm <= size {
                ops.push(i.imm.to_string());
            }
        }
        if o.ptx.contains("{bc}") {
            // shfl's lane (or offset) and clamp/segment operands as immediates.
            let (b, c) = shfl_bc(i.imm);
            ops.insert(2, b.to_string());
            ops.insert(3, format!("{c:#x}"));
        }
        if o.imm.1 > 0 && !o.ptx.contains('{') {
            ops.push(i.imm.to_string());
        }
        if o.ptx.contains("{v") {
            ops[1] += SELS[(i.imm % 7) as usize];
            ops[2] += SELS[(i.imm / 7 % 7) as usize];
            if o.ptx.contains("{vd}") {
                ops[0] += SELS[1 + (i.imm / 49 % 6) as usize];
            }
            if o.ptx.contains("{vsd}") {
                ops[0] += SELS[1 + (i.imm / 294 % 6) as usize];
            }
        }
        if o.ptx.contains("{neg}") {
            for (op, neg) in ops[1..].iter_mut().zip(VMAD_NEGS[(i.imm / 49 % 6) as usize]) {
                if neg {
                    op.insert(0, '-');
                }
            }
        }
        for (n, tag) in [(2, "{s2}"), (4, "{s4}")] {
            if o.ptx.contains(tag) {
                for (op, sel) in ops.iter_mut().zip(simd_sels(n, i.imm)) {
                    *op += &sel;
                }
            }
        }
        if let Some(text) = control(o, i, n, &ops) {
            s += &text;
            continue;
        }
        s += &format!("\t{name} {};\n", ops.join(", "));
        if copy.is_some() {
            s += if i.imm % 2 == 0 {
                "\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n"
            } else {
                "\tcp.async.wait_all;\n"
            };
        }
    }
    for k in 0..4 {
        s += &format!("\tst.global.u16 [%a1+{}], %h{k};\n", 8 * k);
        s += &format!("\tst.global.u32 [%a1+{}], %r{k};\n", 8 * (4 + k));
        s += &format!("\tst.global.u64 [%a1+{}], %rd{k};\n", 8 * (8 + k));
    }
    for k in 0..2 {
        s += &format!("\tselp.u32 %t1, 1, 0, %p{k};\n\tst.global.u32 [%a1+{}], %t1;\n", 8 * (12 + k));
    }
    for k in 0..4 {
        s +=
            &format!("\tld.shared.u64 %a3, [%sa+{}];\n\tst.global.u64 [%a1+{}], %a3;\n", 8 * k, 8 * (18 + k));
        s += &format!("\tld.local.u64 %a3, [lo+{}];\n\tst.global.u64 [%a1+{}], %a3;\n", 8 * k, 8 * (22 + k));
    }
    s + "\tret;\n}\n"
}
