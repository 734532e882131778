// Rust beyond one compile error: cargo test (a failing assert_eq! with its "test result: FAILED"
// summary; two failing tests fixed by two edits), clippy with -D warnings, a run-time index panic, and
// the same missing HashMap import (E0425 and E0433) fixed the same way in two crates of one repository (one lesson, at pattern).
import { story } from './story.mjs';

const toml = name => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`;
const duration = (mins, hours) => `/// Parses "90s", "5m" or "2h" into seconds.\npub fn parse(s: &str) -> Option<u64> {\n    let (n, unit) = s.split_at(s.len() - 1);\n    let n: u64 = n.parse().ok()?;\n    match unit {\n        "s" => Some(n),\n        "m" => Some(${mins}),\n        "h" => Some(${hours}),\n        _ => None,\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::parse;\n\n    #[test]\n    fn parses_minutes() {\n        assert_eq!(parse("5m"), Some(300));\n    }\n\n    #[test]\n    fn parses_hours() {\n        assert_eq!(parse("2h"), Some(7200));\n    }\n}\n`;
const counter = (name, fnName) => `pub fn ${fnName}(words: &[&str]) -> HashMap<String, usize> {\n    let mut counts = HashMap::new();\n    for w in words {\n        *counts.entry(w.to_string()).or_insert(0) += 1;\n    }\n    counts\n}\n\nfn main() {\n    println!("{:?}", ${fnName}(&["${name}", "${name}"]).len());\n}\n`;

function hashmapStory(name, folder, fnName) {
  return story({
    name, family: 'rustc',
    files: { [`${folder}/Cargo.toml`]: toml(folder), [`${folder}/src/main.rs`]: counter(folder, fnName) },
    steps: [
      ['open', `${folder}/src/main.rs`],
      ['run', 'cargo build', 'fail', { cwd: folder }],
      ['edit', `${folder}/src/main.rs`, `use std::collections::HashMap;\n\n${counter(folder, fnName)}`],
      ['run', 'cargo build', 0, { cwd: folder }],
    ],
    label: {
      description: `cargo build in ${folder}/: error[E0425] and error[E0433] "cannot find type \`HashMap\` in this scope" (the return type and HashMap::new, each with rustc's help: consider importing this struct), then "could not compile … due to 2 previous errors"; fixed by \`use std::collections::HashMap;\`. The same fix for the same error as in the repository's other crate: one lesson`,
      mustContain: ['use std::collections::HashMap;'], mustNotClaim: [`${folder}/Cargo.toml`],
      errors: ['cannot find type `HashMap` in this scope'], mustNotSay: ['due to 2 previous errors'],
      lessons: 1, resolved: 'fixed', story: 'terminal', mergeGroup: 'rust-hashmap-import', classes: ['same-fix-two-folders', 'note-line', 'one-fix-two-errors', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'cli/src/main.rs', files: { 'cli/Cargo.toml': toml('cli'), 'cli/src/main.rs': 'fn main() {\n    let mut seen = HashMap::new();\n    seen.insert(1, 2);\n    println!("{}", seen.len());\n}\n' }, how: 'cd cli && cargo build' },
      { kind: 'near', file: `${folder}/src/main.rs`, files: { [`${folder}/Cargo.toml`]: toml(folder), [`${folder}/src/main.rs`]: 'fn main() {\n    let mut seen = BTreeSet::new();\n    seen.insert(1);\n    println!("{}", seen.len());\n}\n' }, how: `cd ${folder} && cargo build` },
    ],
  });
}

export const episodes = [
  story({
    name: 'cargo-test-parses-hours', family: 'cargo',
    files: { 'Cargo.toml': toml('durations'), 'src/lib.rs': duration('n * 60', 'n * 60') },
    steps: [
      ['open', 'src/lib.rs'],
      ['run', 'cargo test', 'fail'],
      ['replace', 'src/lib.rs', '"h" => Some(n * 60),', '"h" => Some(n * 3600),'],
      ['run', 'cargo test', 0],
    ],
    label: {
      description: 'cargo test: tests::parses_hours panicked, assertion `left == right` failed (left: Some(120), right: Some(7200)); parses_minutes passes; "test result: FAILED. 1 passed; 1 failed"; fixed by n * 3600 for hours',
      mustContain: ['n * 3600', 'parses_hours'], mustNotClaim: ['Cargo.toml'],
      errors: ['tests::parses_hours'], mustNotSay: ['test result: FAILED'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/lib.rs', files: { 'Cargo.toml': toml('timeouts'), 'src/lib.rs': duration('n * 60', 'n * 60').replace('parse("2h"), Some(7200)', 'parse("1h"), Some(3600)') }, how: 'cargo test' },
      { kind: 'near', file: 'src/lib.rs', files: { 'Cargo.toml': toml('durations'), 'src/lib.rs': duration('n * 60', 'n * 3600').replace('fn parses_minutes() {\n        assert_eq!(parse("5m"), Some(300));', 'fn parses_days() {\n        assert_eq!(parse("1d"), Some(86400));') }, how: 'cargo test' },
    ],
  }),
  story({
    name: 'cargo-test-two-tests-two-fixes', family: 'cargo',
    files: { 'Cargo.toml': toml('durations'), 'src/lib.rs': duration('n * 100', 'n * 60') },
    steps: [
      ['open', 'src/lib.rs'],
      ['run', 'cargo test', 'fail'],
      ['replace', 'src/lib.rs', '"m" => Some(n * 100),', '"m" => Some(n * 60),'],
      ['run', 'cargo test', 'fail'],
      ['replace', 'src/lib.rs', '"h" => Some(n * 60),', '"h" => Some(n * 60 * 60),'],
      ['run', 'cargo test', 0],
    ],
    label: {
      description: 'cargo test: tests::parses_minutes (left: Some(500)) and tests::parses_hours (left: Some(120)) both fail; the minutes arm is fixed first (n * 60), then the hours arm (n * 60 * 60). Two tests, two edits: two lessons',
      mustContain: ['"m" => Some(n * 60),', 'n * 60 * 60'], mustNotClaim: ['Cargo.toml'],
      // Only parses_minutes: this trace's parses_hours failure is byte for byte cargo-test-parses-hours's (the
      // same project, code and test), fixed there by n * 3600, equally right; which of the two lessons a
      // query of it finds first says nothing about either.
      errors: ['tests::parses_minutes'], mustNotSay: ['test result: FAILED'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests', 'summary-line'],
    },
    queries: [
      { kind: 'near', file: 'src/lib.rs', files: { 'Cargo.toml': toml('durations'), 'src/lib.rs': 'pub fn parse(_s: &str) -> Option<u64> { None }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn rejects_empty() {\n        assert_eq!(super::parse(""), Some(0));\n    }\n}\n' }, how: 'cargo test' },
    ],
  }),
  story({
    name: 'clippy-needless-return', family: 'clippy',
    files: { 'Cargo.toml': toml('tags'), 'src/main.rs': 'fn tag(name: &str) -> String {\n    return format!("#{}", name.to_lowercase());\n}\n\nfn main() {\n    println!("{}", tag("Rust"));\n}\n' },
    steps: [
      ['open', 'src/main.rs'],
      ['run', 'cargo clippy -- -D warnings', 'fail'],
      ['replace', 'src/main.rs', '    return format!("#{}", name.to_lowercase());', '    format!("#{}", name.to_lowercase())'],
      ['run', 'cargo clippy -- -D warnings', 0],
    ],
    label: {
      description: 'cargo clippy -- -D warnings: "error: unneeded `return` statement" (clippy::needless_return, denied by -D warnings) with its help and the summary "could not compile `tags` … due to 1 previous error"; fixed by ending the function with the expression',
      mustContain: ['format!("#{}", name.to_lowercase())', 'needless_return'], mustNotClaim: ['Cargo.toml'],
      errors: ['unneeded `return` statement'], mustNotSay: ['due to 1 previous error'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/lib.rs', files: { 'Cargo.toml': toml('slugs'), 'src/lib.rs': 'pub fn slug(s: &str) -> String {\n    return s.to_lowercase();\n}\n' }, how: 'cargo clippy -- -D warnings' },
      { kind: 'near', file: 'src/main.rs', files: { 'Cargo.toml': toml('tags'), 'src/main.rs': 'fn main() {\n    let v = vec![1];\n    if v.len() == 0 {\n        println!("empty");\n    }\n}\n' }, how: 'cargo clippy -- -D warnings' },
    ],
  }),
  story({
    name: 'rust-index-out-of-bounds', family: 'rustc',
    files: { 'Cargo.toml': toml('pairs'), 'src/main.rs': 'fn pairs(xs: &[i32]) -> Vec<(i32, i32)> {\n    let mut out = Vec::new();\n    for i in 0..xs.len() {\n        out.push((xs[i], xs[i + 1]));\n    }\n    out\n}\n\nfn main() {\n    println!("{:?}", pairs(&[1, 2, 3]));\n}\n' },
    steps: [
      ['open', 'src/main.rs'],
      ['run', 'cargo run', 'fail'],
      ['replace', 'src/main.rs', 'for i in 0..xs.len() {', 'for i in 0..xs.len().saturating_sub(1) {'],
      ['run', 'cargo run', 0],
    ],
    label: {
      description: "cargo run: thread 'main' panicked at src/main.rs:4:30: index out of bounds: the len is 3 but the index is 3 (with the RUST_BACKTRACE note); fixed by looping to xs.len().saturating_sub(1)",
      mustContain: ['xs.len().saturating_sub(1)'], mustNotClaim: ['Cargo.toml'],
      errors: ['index out of bounds: the len is 3 but the index is 3'], mustNotSay: ['RUST_BACKTRACE'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/main.rs', files: { 'Cargo.toml': toml('window'), 'src/main.rs': 'fn main() {\n    let xs = [4, 5, 6];\n    for i in 0..xs.len() {\n        println!("{}", xs[i] + xs[i + 1]);\n    }\n}\n' }, how: 'cargo run' },
      { kind: 'near', file: 'src/main.rs', files: { 'Cargo.toml': toml('pairs'), 'src/main.rs': 'fn main() {\n    let v: Option<i32> = None;\n    println!("{}", v.unwrap());\n}\n' }, how: 'cargo run' },
    ],
  }),
  hashmapStory('rust-e0433-hashmap-api', 'api', 'word_counts'),
  hashmapStory('rust-e0433-hashmap-worker', 'worker', 'tally'),
];
