//! What `ptxvm exec`'s options say, read from the environment once: `PTXVM_*`
//! variables, which a user who sets `LD_LIBRARY_PATH` alone may set too.
//!
//! | variable | meaning |
//! | --- | --- |
//! | `PTXVM_MAX_STEPS` | step budget of each launch, in warp instructions |
//! | `PTXVM_TIMEOUT` | time limit of each launch, in seconds (0: none) |
//! | `PTXVM_CHECK` | `div0`: integer division by zero faults |
//! | `PTXVM_SANITIZE` | `racecheck`, `initcheck` (comma-separated) |
//! | `PTXVM_HAZARDS` | a file where each hazard found appends a line (set by exec) |
//! | `PTXVM_LOG` | `api`: every driver call, its arguments and result on stderr |
//! | `PTXVM_DEADLOCK_GRACE` | seconds every CTA must wait on the others, with no memory written, before a launch is a deadlock (default 1; raise it for a program whose other host threads write mapped or managed memory a kernel waits on later than that) |

use ptxvm::exec::limits::Checks;
use std::sync::OnceLock;

pub struct Config {
    pub log_api: bool,
    pub max_steps: u64,
    pub timeout: f64,
    pub deadlock_grace: f64,
    pub checks: Checks,
    pub hazards: Option<std::path::PathBuf>,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The number in variable `name`, or `default` (with a warning when it is not one).
fn number<T: std::str::FromStr>(name: &str, default: T) -> T {
    match var(name) {
        None => default,
        Some(v) => v.trim().parse().unwrap_or_else(|_| {
            eprintln!("ptxvm: {name}={v} is not a number; ignored");
            default
        }),
    }
}

/// The comma-separated words of variable `name`, each checked against `known`.
fn words(name: &str, known: &[&str]) -> Vec<String> {
    let list: Vec<String> = var(name)
        .unwrap_or_default()
        .split(',')
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty())
        .collect();
    for w in &list {
        if !known.contains(&w.as_str()) {
            eprintln!("ptxvm: {name}: unknown value `{w}` (known: {}); ignored", known.join(", "));
        }
    }
    list
}

/// The configuration of this process.
pub fn get() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let sanitize = words("PTXVM_SANITIZE", &["racecheck", "initcheck"]);
        let check = words("PTXVM_CHECK", &["div0"]);
        let log = words("PTXVM_LOG", &["api"]);
        Config {
            log_api: log.iter().any(|w| w == "api"),
            max_steps: number("PTXVM_MAX_STEPS", ptxvm::api::DEFAULT_MAX_STEPS),
            timeout: number("PTXVM_TIMEOUT", 0.0),
            deadlock_grace: number("PTXVM_DEADLOCK_GRACE", 1.0),
            checks: Checks {
                div0: check.iter().any(|w| w == "div0"),
                racecheck: sanitize.iter().any(|w| w == "racecheck"),
                initcheck: sanitize.iter().any(|w| w == "initcheck"),
                trace: false,
            },
            hazards: var("PTXVM_HAZARDS").map(Into::into),
        }
    })
}
