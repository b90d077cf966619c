//! The C++ code styles (`--style cpp-type`, `--style cpp-make`) compiled
//! against the CuTe headers: every value's `make_...` expression and its
//! static type (default-constructed) must print as rcute prints the value
//! in the `cpp` style, and every layout must give rcute's offsets.
//!
//! Needs `g++` (or `$CXX`) and the CuTe headers with the CUDA host headers
//! they include: `$RCUTE_CUTE_INCLUDE` (include directories separated by
//! `:`), or the headers `scripts/cute-headers.sh` unpacks into
//! `target/cute-headers`. Without them the test says so on standard error
//! and passes, unless `RCUTE_REQUIRE_CPP=1` (set by `scripts/test-all.sh`
//! when it has fetched them).

use std::path::PathBuf;
use std::process::Command;

use rcute::notation::emit::{emit, CodeStyle};
use rcute::notation::{eval_value, format_value, Style, Value};
use rcute::Scalar;

/// Values of every printable kind the C++ styles express.
const CASES: &[&str] = &[
    "(4,8):(1,4)",
    "((2,2),3):((24,2),8)",
    "24:3",
    "(3,):(1,)",
    "(4,100):(-1,8)",
    "(2,(3,4)):(384,(1,3))",
    "logical_divide(24:1, 4:2)",
    "zipped_divide((8,8):(1,8), (2,2))",
    "make_identity_layout((4,3))",
    "(4,3):(2@0, 1@1)",
    "composition(Swizzle(3,4,3), (8,64):(64,1))",
    "composition(Swizzle(2,0,3), (4,16):(16,1))",
    "Swizzle(3,4,3)",
    "(4,(2,3))",
    "(None,3)",
    "5",
    "-3",
    "1000",
];

fn include_dirs() -> Option<Vec<String>> {
    if let Ok(v) = std::env::var("RCUTE_CUTE_INCLUDE") {
        return Some(
            v.split(':')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        );
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("target"));
    for x in [
        target.join("cute-headers/x"),
        target.join("cpp-bench/deps/x"),
    ] {
        let cute = x.join("cutlass_library/source/include");
        let nv = x.join("nvidia");
        if cute.join("cute/layout.hpp").is_file() {
            return Some(vec![
                cute.display().to_string(),
                nv.join("cuda_runtime/include").display().to_string(),
                nv.join("cuda_cccl/include").display().to_string(),
                nv.join("cuda_nvcc/include").display().to_string(),
            ]);
        }
    }
    None
}

/// C++'s print text read as rcute's `cpp` style: static integers lose
/// their `_`, a composed layout its zero offset.
fn normalise(s: &str) -> String {
    let s = s.replace(" o _0 o ", " o ");
    let mut out = String::with_capacity(s.len());
    let b: Vec<char> = s.chars().collect();
    for (i, &c) in b.iter().enumerate() {
        let next = b.get(i + 1).copied().unwrap_or(' ');
        if c == '_' && (next.is_ascii_digit() || next == '-') {
            continue;
        }
        out.push(c);
    }
    out
}

/// The offsets `L(0) ... L(size-1)` of a layout or swizzled layout in the
/// `cpp` style, space-separated; `None` for other values.
fn offsets(v: &Value) -> Option<String> {
    let n = match v {
        Value::Layout(l) => l.size().ok()?,
        Value::Swizzled(s) => s.size().ok()?,
        _ => return None,
    };
    let mut vals = Vec::new();
    for i in 0..n {
        vals.push(rcute::notation::apply(v, vec![Value::Int(i)]).ok()?);
    }
    // coordinate values print in full in C++, `(0,0)` for `0` and `(1,0)`
    // for `1@0`: pad them to the longest one
    let children = |x: &Value| match x {
        Value::Scalar(Scalar::Coord(t)) => Some(t.children().to_vec()),
        _ => None,
    };
    let width = vals
        .iter()
        .filter_map(|x| children(x).map(|c| c.len()))
        .max();
    let parts: Vec<String> = vals
        .iter()
        .map(|x| match (width, children(x)) {
            (Some(w), c) => {
                let mut c: Vec<String> = c
                    .unwrap_or_default()
                    .iter()
                    .map(|s| format!("{s:#}"))
                    .collect();
                c.resize(w, "0".to_string());
                format!("({})", c.join(","))
            }
            (None, _) => format_value(x, Style::Cpp),
        })
        .collect();
    Some(parts.join(" "))
}

#[test]
fn cpp_forms_compile_and_equal_the_input() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    let require = std::env::var("RCUTE_REQUIRE_CPP").is_ok_and(|v| v == "1");
    let skip = |why: &str| {
        assert!(!require, "RCUTE_REQUIRE_CPP=1 but {why}");
        eprintln!("skipping the C++ forms test: {why}");
    };
    if Command::new(&cxx).arg("--version").output().is_err() {
        return skip(&format!("{cxx} not found"));
    }
    let Some(inc) = include_dirs() else {
        return skip("no CuTe headers (set RCUTE_CUTE_INCLUDE or run scripts/cute-headers.sh)");
    };

    // the program: each case's make_ expression and static type, printed
    let mut src = String::from(
        "#include <cute/layout.hpp>\n#include <cute/swizzle_layout.hpp>\n#include <cstdio>\n\
         using namespace cute;\n\
         template <class V> void show(char const* tag, V const& v) {\n\
           printf(\"%s \", tag); print(v); printf(\"\\n\");\n\
           if constexpr (is_layout<V>::value || is_composed_layout<V>::value) {\n\
             printf(\"%s-off\", tag);\n\
             for (int i = 0; i < int(size(v)); ++i) { printf(\" \"); print(v(i)); }\n\
             printf(\"\\n\");\n\
           }\n\
         }\n\
         int main() {\n",
    );
    let mut expected = Vec::new();
    for (k, case) in CASES.iter().enumerate() {
        let v = eval_value(case).unwrap_or_else(|e| panic!("{case}: {e}"));
        let make = emit(&v, CodeStyle::CppMake).unwrap_or_else(|e| panic!("{case}: {e}"));
        let ty = emit(&v, CodeStyle::CppType).unwrap_or_else(|e| panic!("{case}: {e}"));
        let printed = format_value(&v, Style::Cpp);
        let off = offsets(&v);
        for (tag, code) in [
            (format!("m{k}"), format!("auto v = {make};")),
            (format!("t{k}"), format!("using T = {ty}; T v{{}};")),
        ] {
            src.push_str(&format!("  {{ {code} show(\"{tag}\", v); }}\n"));
            expected.push(format!("{tag} {printed}"));
            if let Some(o) = &off {
                expected.push(format!("{tag}-off {o}"));
            }
        }
    }
    src.push_str("}\n");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cpp-forms");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let cpp = dir.join("forms.cpp");
    let exe = dir.join("forms");
    std::fs::write(&cpp, &src).expect("write forms.cpp");
    let mut cmd = Command::new(&cxx);
    cmd.args(["-std=c++17", "-O0", "-w"]);
    for (i, d) in inc.iter().enumerate() {
        cmd.arg(if i == 0 { "-I" } else { "-isystem" }).arg(d);
    }
    let out = cmd
        .arg(&cpp)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the compiler");
    assert!(
        out.status.success(),
        "{} does not compile:\n{}",
        cpp.display(),
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("error"))
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let run = Command::new(&exe).output().expect("run the program");
    assert!(run.status.success());
    let got: Vec<String> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| normalise(l.trim_end()))
        .collect();
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g, e);
    }
}
