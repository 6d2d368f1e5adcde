//! The instruction table of `src/isa/` as data for the tools: `PTXVM_TABLE_JSON=FILE
//! cargo test --release --test isa_table -- --ignored` writes every row as JSON, which
//! tools/ptxas_table_matrix.py turns into modules for ptxas.

use ptxvm::isa::table::rows_of;
use ptxvm::isa::{Opcode, Rule, Word};

#[test]
fn every_word_spells_itself_and_every_opcode_too() {
    for &w in Word::ALL {
        assert_eq!(Word::parse(w.text()), Some(w), "{}", w.text());
    }
    for &o in Opcode::ALL {
        assert_eq!(Opcode::parse(o.text()), Some(o), "{}", o.text());
    }
    assert_eq!(Word::parse(".nonsense"), None);
}

#[test]
#[ignore = "writes the table for the tools"]
fn dump_table_json() {
    let Ok(path) = std::env::var("PTXVM_TABLE_JSON") else { return };
    // Every opcode's rows, those it shares with another included (sub has add's).
    let rows: Vec<serde_json::Value> = Opcode::ALL
        .iter()
        .flat_map(|&op| rows_of(op).iter().filter(move |r| r.serves(op)).map(move |r| (op, r)))
        .map(|(op, r)| {
            let words = |s: &ptxvm::isa::WordSet| s.iter().map(Word::text).collect::<Vec<_>>();
            serde_json::json!({
                "opcode": op.text(),
                "family": format!("{:?}", op.family()),
                "rule": match r.rule { Rule::Table => "table", Rule::Operands => "operands", Rule::Own => "own", Rule::Open => "open" },
                "types": r.types.iter().map(|set| set.iter().map(|t| t.word()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "groups": r.groups.iter().map(|g| serde_json::json!({"words": words(&g.words), "need": g.need})).collect::<Vec<_>>(),
                "needs": r.needs.iter().map(|(a, b)| serde_json::json!([words(a), words(b)])).collect::<Vec<_>>(),
                "excludes": r.excludes.iter().map(|(a, b)| serde_json::json!([words(a), words(b)])).collect::<Vec<_>>(),
                "operands": [r.operands.0, r.operands.1],
                "version": r.version,
                "sm": r.sm,
            })
        })
        .collect();
    let all_words: Vec<&str> = Word::ALL.iter().map(|w| w.text()).collect();
    let doc = serde_json::json!({"rows": rows, "words": all_words});
    std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}
