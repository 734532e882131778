// rustc (edition 2021) root causes. A = memory program, B = query program; both are src/main.rs,
// which is what a Cargo binary crate looks like, so every memory here shares that file.
const base = { tool: 'rustc', stack: ['rust'], scope: ['src/**'] };
const MAIN = 'src/main.rs';
const head = /^error\[E\d{4}\]: .*$/m;
const rs = body => ({ [MAIN]: body });

export default [
  {
    ...base, id: 'rust-use-after-move', project: ['inventory-rs', 'log-rs'], errorCategory: 'ownership', tags: ['move', 'borrow'],
    a: rs(`fn consume(v: Vec<i32>) -> usize { v.len() }\nfn main() {\n    let items = vec![1, 2, 3];\n    let n = consume(items);\n    println!("{} {:?}", n, items);\n}\n`),
    b: rs(`fn store(s: String) {}\nfn main() {\n    let line = String::from("GET /");\n    store(line);\n    println!("{}", line.len());\n}\n`),
    rootCause: 'A non-Copy value (Vec/String) is passed by value into a function, which moves ownership; the caller uses it again afterwards.',
    fixApproach: 'Pass a reference (`fn consume(v: &[i32])`, call `consume(&items)`) when the callee only reads; clone only if the callee really needs its own copy.',
    sameFile: { file: MAIN, line: head },
  },
  {
    ...base, id: 'rust-mut-borrow-while-shared', project: ['queue-rs', 'graph-rs'], errorCategory: 'ownership', tags: ['borrow', 'push'],
    a: rs(`fn main() {\n    let mut jobs = vec![1, 2];\n    let first = &jobs[0];\n    jobs.push(3);\n    println!("{}", first);\n}\n`),
    b: rs(`use std::collections::HashMap;\nfn main() {\n    let mut nodes: HashMap<u32, String> = HashMap::new();\n    nodes.insert(1, "a".into());\n    let name = nodes.get(&1).unwrap();\n    nodes.insert(2, "b".into());\n    println!("{}", name);\n}\n`),
    rootCause: 'A reference into a collection is still alive while the collection is mutated; push/insert may reallocate and invalidate it, so the borrow checker forbids it.',
    fixApproach: 'Finish using the reference before mutating (reorder), copy/clone the needed value out first (`let first = jobs[0];`), or keep an index/key instead of a reference.',
    sameFile: { file: MAIN, line: head },
  },
  {
    ...base, id: 'rust-two-mut-borrows', project: ['bank-rs', 'sim-rs'], errorCategory: 'ownership', tags: ['borrow', 'mut'],
    a: rs(`fn main() {\n    let mut balances = vec![10, 20];\n    let a = &mut balances[0];\n    let b = &mut balances[1];\n    *a -= 5;\n    *b += 5;\n}\n`),
    b: rs(`struct World { t: u32 }\nfn main() {\n    let mut w = World { t: 0 };\n    let r1 = &mut w;\n    let r2 = &mut w;\n    r1.t += 1;\n    r2.t += 1;\n}\n`),
    rootCause: 'Two mutable borrows of the same value (or of two elements of one Vec through indexing) are alive at once; Rust allows only one &mut at a time.',
    fixApproach: 'For two elements use `split_at_mut` or `swap`/indices; otherwise end the first borrow before taking the second, or restructure into one function taking &mut once.',
  },
  {
    ...base, id: 'rust-string-vs-str', project: ['config-rs', 'http-rs'], errorCategory: 'types', tags: ['String', '&str'],
    a: rs(`struct Config { name: String }\nfn main() {\n    let c = Config { name: "prod" };\n    println!("{}", c.name);\n}\n`),
    b: rs(`fn header() -> String {\n    "content-type"\n}\nfn main() { println!("{}", header()); }\n`),
    rootCause: 'A string literal is a borrowed &str, but the field/return type is an owned String; Rust never converts between them implicitly.',
    fixApproach: 'Convert explicitly: `"prod".to_string()` / `String::from("prod")` / `.into()`; or change the type to &str / &\'static str if ownership is not needed.',
  },
  {
    ...base, id: 'rust-missing-display', project: ['geo-rs', 'money-rs'], errorCategory: 'traits', tags: ['Display', 'Debug', 'println'],
    a: rs(`struct Point { x: i32, y: i32 }\nfn main() {\n    let p = Point { x: 1, y: 2 };\n    println!("{}", p);\n}\n`),
    b: rs(`struct Money(u64);\nfn main() {\n    let m = Money(5);\n    let s = format!("total {}", m);\n    println!("{}", s);\n}\n`),
    rootCause: 'The `{}` placeholder requires std::fmt::Display, which custom structs do not implement automatically.',
    fixApproach: 'For debugging print with `{:?}` after `#[derive(Debug)]`; for user-facing text implement `impl fmt::Display for Point`.',
  },
  {
    ...base, id: 'rust-value-out-of-scope', project: ['parser-rs', 'cli-rs'], errorCategory: 'resolve', tags: ['scope', 'blocks'],
    a: rs(`fn main() {\n    if true {\n        let total = 3;\n    }\n    println!("{}", total);\n}\n`),
    b: rs(`fn main() {\n    for i in 0..3 {\n        let last = i;\n    }\n    println!("{}", last);\n}\n`),
    rootCause: 'The variable is declared inside an inner block (if/for/match arm) and used after the block ends, where it no longer exists.',
    fixApproach: 'Declare it before the block and assign inside (`let mut last = 0; for i in .. { last = i; }`), or make the block an expression: `let total = if cond { 3 } else { 0 };`.',
  },
  {
    ...base, id: 'rust-not-mut', project: ['counter-rs', 'buffer-rs'], errorCategory: 'ownership', tags: ['mut'],
    a: rs(`fn main() {\n    let names = Vec::new();\n    names.push("a");\n    println!("{:?}", names);\n}\n`),
    b: rs(`fn main() {\n    let buf = String::new();\n    buf.push_str("hello");\n    println!("{}", buf);\n}\n`),
    rootCause: 'The binding is immutable (`let`, not `let mut`) and a method that needs &mut self (push, push_str, insert) is called on it.',
    fixApproach: 'Declare the binding `let mut names = Vec::new();` (or take `&mut` parameters in functions that modify it).',
  },
  {
    ...base, id: 'rust-missing-lifetime', project: ['text-rs', 'kv-rs'], errorCategory: 'lifetimes', tags: ['lifetime', 'references'],
    a: rs(`fn longest(a: &str, b: &str) -> &str {\n    if a.len() > b.len() { a } else { b }\n}\nfn main() { println!("{}", longest("ab", "c")); }\n`),
    b: rs(`struct Kv { k: String, v: String }\nfn pick(x: &Kv, y: &Kv) -> &String {\n    &x.k\n}\nfn main() {}\n`),
    rootCause: 'A function returns a reference but takes several reference parameters, so the compiler cannot infer which input the output borrows from.',
    fixApproach: 'Add an explicit lifetime tying output to the input(s): `fn longest<\'a>(a: &\'a str, b: &\'a str) -> &\'a str`; or return an owned String.',
  },
  {
    ...base, id: 'rust-trait-not-in-scope', project: ['io-rs', 'net-rs'], errorCategory: 'traits', tags: ['use', 'Write'],
    a: rs(`fn main() {\n    let mut out = std::io::stdout();\n    out.flush().unwrap();\n}\n`),
    b: rs(`use std::fs::File;\nfn main() {\n    let mut f = File::create("/tmp/x").unwrap();\n    f.write_all(b"hi").unwrap();\n}\n`),
    rootCause: 'The method belongs to a trait (std::io::Write here) and trait methods are only callable when the trait is imported into scope.',
    fixApproach: 'Add `use std::io::Write;` (the compiler\'s help line names the trait); for Read/BufRead/FromStr the same applies.',
  },
  {
    ...base, id: 'rust-undeclared-type', project: ['cache-rs', 'index-rs'], errorCategory: 'resolve', tags: ['use', 'std::collections'],
    a: rs(`fn main() {\n    let mut m = HashMap::new();\n    m.insert(1, 2);\n}\n`),
    b: rs(`fn main() {\n    let mut seen = HashSet::new();\n    seen.insert(7u8);\n    println!("{}", seen.len());\n}\n`),
    rootCause: 'A standard-library collection is used without importing it; only the prelude (Vec, String, Option...) is in scope by default.',
    fixApproach: 'Import it: `use std::collections::HashMap;` (rust-analyzer\'s quick fix "Import HashMap" does it).',
  },
  {
    ...base, id: 'rust-does-not-live-long-enough', project: ['arena-rs', 'cfg-rs'], errorCategory: 'lifetimes', tags: ['lifetime', 'dangling'],
    a: rs(`fn main() {\n    let r;\n    {\n        let x = 5;\n        r = &x;\n    }\n    println!("{}", r);\n}\n`),
    b: rs(`fn main() {\n    let mut names: Vec<&String> = Vec::new();\n    for i in 0..2 {\n        let s = format!("n{}", i);\n        names.push(&s);\n    }\n    println!("{:?}", names);\n}\n`),
    rootCause: 'A reference to a local is kept after the local is dropped at the end of its block (inner scope or loop body).',
    fixApproach: 'Store owned values instead of references (`Vec<String>` and push `s`), or create the value in the outer scope so it outlives the reference.',
  },
  {
    ...base, id: 'rust-assign-twice-immutable', project: ['retry-rs', 'score-rs'], errorCategory: 'ownership', tags: ['mut'],
    a: rs(`fn main() {\n    let attempts = 0;\n    println!("{}", attempts);\n    attempts = 1;\n    println!("{}", attempts);\n}\n`),
    b: rs(`fn main() {\n    let score = 10;\n    for _ in 0..3 {\n        score += 1;\n    }\n    println!("{}", score);\n}\n`),
    rootCause: 'A variable declared without `mut` is reassigned (or updated with +=).',
    fixApproach: 'Declare it `let mut attempts = 0;`, or compute a new binding instead of mutating (`let score = score + 3;`).',
  },
  {
    ...base, id: 'rust-non-exhaustive-match', project: ['state-rs', 'http-status-rs'], errorCategory: 'patterns', tags: ['match', 'enum'],
    a: rs(`enum State { Idle, Running, Done }\nfn label(s: State) -> &'static str {\n    match s {\n        State::Idle => "idle",\n        State::Running => "running",\n    }\n}\nfn main() { label(State::Done); }\n`),
    b: rs(`fn class(code: u16) -> &'static str {\n    match code {\n        200..=299 => "ok",\n        400..=499 => "client",\n    }\n}\nfn main() { class(500); }\n`),
    rootCause: 'The match does not cover every possible value: a new enum variant was added, or integer ranges leave gaps.',
    fixApproach: 'Add arms for the missing variants (the error lists them) or a deliberate `_ =>` fallback; for enums prefer listing variants so future additions are caught.',
  },
  {
    ...base, id: 'rust-wrong-arg-count', project: ['mailer-rs', 'img-rs'], errorCategory: 'arity', tags: ['functions'],
    a: rs(`fn send(to: &str, subject: &str) {}\nfn main() {\n    send("a@example.com");\n}\n`),
    b: rs(`fn resize(w: u32, h: u32, keep_ratio: bool) {}\nfn main() {\n    resize(100, 200);\n}\n`),
    rootCause: 'The function signature changed (a parameter was added) and a call site still passes the old number of arguments.',
    fixApproach: 'Update the call sites; if most callers use the same value, introduce a wrapper or a builder/options struct instead of another positional parameter.',
  },
].map(c => ({ ...c, noisy: 'cargo' }));
