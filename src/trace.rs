//! `ptxvm trace`: one CTA's execution as a self-contained HTML page with an SVG
//! picture, for seeing divergence.
//!
//! Each warp is a band of 32 rows, one per lane, and one column per instruction the
//! warp executed, in order. A lane's cell is dark where it ran the instruction, pale
//! where its group ran it but its guard was false, and empty where the lane was
//! elsewhere (another group of the warp, waiting, or exited). Above the band, a red
//! triangle marks a divergent branch, a green one a reconvergence (the next group holds
//! the lanes of the one before, and more), an orange line a barrier the group waits at, and a
//! black square an `exit` (grey: a `ret` from a `.func`; a kernel's `ret` is its exit). Each column's tooltip names the PTX line,
//! the instruction and the masks.

use crate::api::{Fault, Module, StepKind, Trace};
use std::fmt::Write;

/// Height of one lane's row, in pixels; a column is as wide as a picture about
/// [`WIDTH`] pixels wide allows, within [`COLS`].
const ROW: usize = 3;
const WIDTH: usize = 1100;
const COLS: (usize, usize) = (3, 12);
/// Room left of the bands (lane labels), above each band (title and markers), below it
/// (step ticks).
const LEFT: usize = 48;
const ABOVE: usize = 34;
const BELOW: usize = 22;
/// Most columns drawn for one warp; a longer trace says how many it leaves out.
pub const MAX_COLUMNS: usize = 4000;

const RAN: &str = "#1f5fa8";
const GUARDED_OFF: &str = "#a9c6e8";
const DIVERGE: &str = "#d62728";
const RECONVERGE: &str = "#2ca02c";
const BARRIER: &str = "#ff7f0e";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The SVG picture of `trace`, alone (the snapshot tests compare it).
pub fn svg(trace: &Trace, module: &Module) -> String {
    let src = module.source();
    // Line numbers by binary search in the line starts: a column each, so no scan.
    let starts: Vec<u32> =
        std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i as u32 + 1)).collect();
    let line_of = |pos: u32| starts.partition_point(|&s| s <= pos);
    let widest = trace.warps.iter().map(|w| w.steps.len().min(MAX_COLUMNS)).max().unwrap_or(0);
    let col = (WIDTH / widest.max(1)).clamp(COLS.0, COLS.1);
    let band = 32 * ROW;
    let height = trace.warps.len() * (ABOVE + band + BELOW) + 4;
    let width = LEFT + widest.max(1) * col + 16;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">"#
    );
    for (w, warp) in trace.warps.iter().enumerate() {
        let y0 = w * (ABOVE + band + BELOW) + ABOVE;
        let shown = warp.steps.len().min(MAX_COLUMNS);
        let more = warp.steps.len() - shown;
        let mut title = format!("warp {w}: {} instructions, lanes {:#010x}", warp.steps.len(), warp.lanes);
        if more > 0 || warp.truncated {
            let _ = write!(title, " (the first {shown} drawn)");
        }
        let _ = writeln!(out, r#"<text x="4" y="{}" font-weight="bold">{}</text>"#, y0 - 22, escape(&title));
        let _ = writeln!(
            out,
            r##"<rect x="{LEFT}" y="{y0}" width="{}" height="{band}" fill="#eeeeee"/>"##,
            shown.max(1) * col
        );
        for lane in [0, 8, 16, 24, 31] {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end">{lane}</text>"#,
                LEFT - 4,
                y0 + lane * ROW + ROW + 2
            );
        }
        let mut previous = 0u32;
        for (i, step) in warp.steps.iter().take(shown).enumerate() {
            let x = LEFT + i * col;
            // Runs of lanes with one colour, as one rectangle each.
            let colour = |lane: u32| {
                if step.active >> lane & 1 == 1 {
                    Some(RAN)
                } else if step.mask >> lane & 1 == 1 {
                    Some(GUARDED_OFF)
                } else {
                    None
                }
            };
            let mut lane = 0;
            while lane < 32 {
                let c = colour(lane);
                let start = lane;
                while lane < 32 && colour(lane) == c {
                    lane += 1;
                }
                if let Some(c) = c {
                    let _ = writeln!(
                        out,
                        r#"<rect x="{x}" y="{}" width="{}" height="{}" fill="{c}"/>"#,
                        y0 + start as usize * ROW,
                        col - 1,
                        (lane - start) as usize * ROW
                    );
                }
            }
            let mid = x + col / 2;
            let (top, tip) = (y0 - 12, y0 - 3);
            if step.kind == StepKind::Diverge {
                let _ = writeln!(
                    out,
                    r#"<polygon points="{},{top} {},{top} {mid},{tip}" fill="{DIVERGE}"/>"#,
                    mid - 3,
                    mid + 3
                );
            }
            // Lanes joining the group that ran before: reconvergence (a wider group that
            // does not hold the last one's lanes is another path starting).
            if i > 0 && step.mask & previous == previous && step.mask != previous {
                let _ = writeln!(
                    out,
                    r#"<polygon points="{},{tip} {},{tip} {mid},{top}" fill="{RECONVERGE}"/>"#,
                    mid - 3,
                    mid + 3
                );
            }
            match step.kind {
                StepKind::Barrier => {
                    let _ = writeln!(
                        out,
                        r#"<line x1="{mid}" y1="{top}" x2="{mid}" y2="{}" stroke="{BARRIER}" stroke-width="2"/>"#,
                        y0 + band
                    );
                }
                StepKind::Exit | StepKind::Ret => {
                    let fill = if step.kind == StepKind::Exit { "#000000" } else { "#888888" };
                    let _ = writeln!(
                        out,
                        r#"<rect x="{}" y="{top}" width="5" height="5" fill="{fill}"/>"#,
                        mid - 2
                    );
                }
                _ => {}
            }
            previous = step.mask;
            let line = line_of(step.span.start);
            let text = step.span.text(src).split_whitespace().collect::<Vec<_>>().join(" ");
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{top}" width="{col}" height="{}" fill-opacity="0"><title>step {i}, line {line}: {} (group {:#010x}, ran {:#010x})</title></rect>"#,
                band + 12,
                escape(&text),
                step.mask,
                step.active
            );
            if i % 50 == 0 {
                let _ = writeln!(out, r#"<text x="{x}" y="{}">{i}</text>"#, y0 + band + 12);
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The whole page: a heading naming the kernel, the CTA and the block, a legend, the
/// fault if the CTA met one, and the picture.
pub fn html(trace: &Trace, module: &Module, kernel: &str, file: &str, fault: Option<&Fault>) -> String {
    let (c, b) = (trace.ctaid, trace.block);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptxvm trace: {}</title>\n\
         <style>body {{ font-family: sans-serif; margin: 16px; }} .key span {{ display: inline-block; \
         width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: middle; }} \
         pre {{ color: #b00; }}</style>\n</head>\n<body>\n",
        escape(kernel)
    );
    let _ = writeln!(
        out,
        "<h1>{}</h1>\n<p>{}: CTA ({},{},{}) of a block of {}&times;{}&times;{} threads, {} warps; one column \
         per instruction a warp executed, one row per lane. Hover a column for its PTX line.</p>",
        escape(kernel),
        escape(file),
        c.x,
        c.y,
        c.z,
        b.x,
        b.y,
        b.z,
        trace.warps.len()
    );
    let _ = writeln!(
        out,
        "<p class=\"key\"><span style=\"background:{RAN}\"></span>lane ran it\
         <span style=\"background:{GUARDED_OFF}\"></span>guard false\
         <span style=\"background:{DIVERGE}\"></span>divergent branch\
         <span style=\"background:{RECONVERGE}\"></span>reconvergence\
         <span style=\"background:{BARRIER}\"></span>barrier wait\
         <span style=\"background:#000\"></span>exit (grey: return from a function)</p>"
    );
    if let Some(f) = fault {
        let _ = writeln!(out, "<pre>{}</pre>", escape(&f.report(module, kernel, file)));
    }
    out.push_str(&svg(trace, module));
    out.push_str("</body>\n</html>\n");
    out
}
