//! Values as code: the static C++ CuTe type of a value (`cpp-type`), the
//! C++ CuTe expression that builds it (`cpp-make`) and the CuTe DSL (Python)
//! expression (`dsl`). `docs/language.md` ("Printing styles") describes them.
//!
//! ```
//! use rcute::notation::emit::{emit, CodeStyle};
//! use rcute::notation::eval_value;
//! let v = eval_value("(4,8):(1,4)").unwrap();
//! assert_eq!(emit(&v, CodeStyle::CppType).unwrap(), "Layout<Shape<_4,_8>,Stride<_1,_4>>");
//! assert_eq!(emit(&v, CodeStyle::CppMake).unwrap(), "make_layout(make_shape(4,8), make_stride(1,4))");
//! assert_eq!(emit(&v, CodeStyle::Dsl).unwrap(), "cute.make_layout((4, 8), stride=(1, 4))");
//! ```

use std::fmt::Write;

use super::value::Value;
use crate::error::{Error, Result};
use crate::htuple::HRef;
use crate::layout::Layout;
use crate::stride::Scalar;
use crate::swizzle::{Swizzle, SwizzledLayout};

/// A code-emitting output style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeStyle {
    /// The static C++ CuTe type: `Layout<Shape<_4,_8>,Stride<_1,_4>>`
    /// (every integer a compile-time `Int<N>`, written `_N` where CuTe
    /// names it).
    CppType,
    /// The C++ CuTe expression: `make_layout(make_shape(4,8), make_stride(1,4))`
    /// (every integer a run-time `int`).
    CppMake,
    /// The CuTe DSL (Python) expression: `cute.make_layout((4, 8), stride=(1, 4))`.
    Dsl,
}

impl CodeStyle {
    /// The style's name as `--style` spells it.
    pub fn name(self) -> &'static str {
        match self {
            CodeStyle::CppType => "cpp-type",
            CodeStyle::CppMake => "cpp-make",
            CodeStyle::Dsl => "dsl",
        }
    }
}

impl std::str::FromStr for CodeStyle {
    type Err = Error;
    fn from_str(s: &str) -> Result<CodeStyle> {
        match s {
            "cpp-type" => Ok(CodeStyle::CppType),
            "cpp-make" => Ok(CodeStyle::CppMake),
            "dsl" => Ok(CodeStyle::Dsl),
            _ => Err(Error::value(format!(
                "unknown code style {s:?} (expected cpp-type, cpp-make or dsl)"
            ))),
        }
    }
}

/// The text of `v` as code in `style`.
///
/// Errors: `type` for a value the style cannot express, naming it: F2
/// strides, fractions, lists and tensors in every style, nested coordinate
/// values in the C++ styles and coordinate values in the DSL style.
pub fn emit(v: &Value, style: CodeStyle) -> Result<String> {
    let mut out = String::new();
    value(&mut out, v, style)?;
    Ok(out)
}

fn unsupported(what: &str, v: &dyn std::fmt::Display, style: CodeStyle) -> Error {
    Error::type_(format!(
        "--style {}: {what} {v} has no {} form",
        style.name(),
        match style {
            CodeStyle::CppType | CodeStyle::CppMake => "C++ CuTe",
            CodeStyle::Dsl => "CuTe DSL",
        }
    ))
}

fn value(out: &mut String, v: &Value, style: CodeStyle) -> Result<()> {
    match v {
        Value::Int(x) => int(out, *x, style),
        Value::Scalar(s) => scalar(out, s, style)?,
        Value::None => out.push_str(match style {
            CodeStyle::CppType => "Underscore",
            CodeStyle::CppMake => "_",
            CodeStyle::Dsl => "None",
        }),
        Value::Bool(b) => out.push_str(match (style, b) {
            (CodeStyle::CppType, true) => "true_type",
            (CodeStyle::CppType, false) => "false_type",
            (CodeStyle::CppMake, true) => "true",
            (CodeStyle::CppMake, false) => "false",
            (CodeStyle::Dsl, true) => "True",
            (CodeStyle::Dsl, false) => "False",
        }),
        Value::Tuple(items) => {
            let (open, sep, close) = match style {
                CodeStyle::CppType => ("tuple<", ",", ">"),
                CodeStyle::CppMake => ("make_tuple(", ",", ")"),
                CodeStyle::Dsl => ("(", ", ", ")"),
            };
            out.push_str(open);
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                value(out, x, style)?;
            }
            if style == CodeStyle::Dsl && items.len() == 1 {
                out.push(',');
            }
            out.push_str(close);
        }
        Value::Layout(l) => layout(out, l, style)?,
        Value::Swizzle(sw) => swizzle(out, sw, style),
        Value::Swizzled(s) => swizzled(out, s, style)?,
        Value::Fraction(..) => return Err(unsupported("the fraction", v, style)),
        Value::Sym(_) => return Err(unsupported("the symbolic integer", v, style)),
        Value::SymLayout(_) => return Err(unsupported("the layout with symbols", v, style)),
        // an assumption has no C++ form: it is written as a comment
        Value::Fact(f) => {
            out.push_str("// ");
            out.push_str(f);
        }
        Value::List(_) => return Err(unsupported("the list", v, style)),
        Value::Tensor(_) | Value::Array(_) => return Err(unsupported("the tensor", v, style)),
    }
    Ok(())
}

/// True when C++ CuTe names `Int<n>` as `_n`.
fn has_alias(n: i64) -> bool {
    (0..=10).contains(&n)
        || n == 12
        || (16..=256).contains(&n) && n % 8 == 0
        || n == 384
        || n == 768
        || (512..=524_288).contains(&n) && n.count_ones() == 1
}

fn int(out: &mut String, x: i64, style: CodeStyle) {
    let _ = match style {
        CodeStyle::CppType if has_alias(x) => write!(out, "_{x}"),
        CodeStyle::CppType => write!(out, "Int<{x}>"),
        CodeStyle::CppMake | CodeStyle::Dsl => write!(out, "{x}"),
    };
}

fn scalar(out: &mut String, s: &Scalar, style: CodeStyle) -> Result<()> {
    match s {
        Scalar::Int(x) => int(out, *x, style),
        Scalar::F2(_) => {
            return Err(Error::type_(format!(
                "--style {}: the F2 value {s} has no form there (C++ CuTe and the CuTe DSL \
                 write XOR patterns as a Swizzle)",
                style.name()
            )))
        }
        Scalar::Coord(t) => {
            if style == CodeStyle::Dsl {
                return Err(unsupported("the coordinate value", s, style));
            }
            let mut terms = Vec::new();
            for (i, c) in t.children().iter().enumerate() {
                match c {
                    Scalar::Int(0) => {}
                    Scalar::Int(x) => terms.push((i, *x)),
                    _ => return Err(unsupported("the coordinate value", s, style)),
                }
            }
            match (terms.as_slice(), style) {
                // one term: C++'s scaled basis `x@i`
                ([(i, x)], CodeStyle::CppType) => {
                    out.push_str("ScaledBasis<");
                    int(out, *x, style);
                    let _ = write!(out, ",{i}>");
                }
                ([(i, x)], _) => {
                    let _ = write!(out, "{x}*E<{i}>{{}}");
                }
                _ => {
                    // several (or no) terms: an arithmetic tuple
                    out.push_str(if style == CodeStyle::CppType {
                        "ArithmeticTuple<"
                    } else {
                        "make_arithmetic_tuple("
                    });
                    for (i, c) in t.children().iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        scalar(out, c, style)?;
                    }
                    out.push(if style == CodeStyle::CppType {
                        '>'
                    } else {
                        ')'
                    });
                }
            }
        }
    }
    Ok(())
}

/// A shape or stride: `Shape<_4,_8>` / `make_shape(4,8)` / `(4, 8)`; a
/// leaf alone is the integer.
fn tuple<T>(
    out: &mut String,
    t: HRef<'_, T>,
    kind: &str,
    style: CodeStyle,
    leaf: &dyn Fn(&mut String, &T) -> Result<()>,
) -> Result<()> {
    if let Some(x) = t.as_leaf() {
        return leaf(out, x);
    }
    match style {
        CodeStyle::CppType => {
            let _ = write!(out, "{kind}<");
        }
        CodeStyle::CppMake => {
            let _ = write!(out, "make_{}(", kind.to_lowercase());
        }
        CodeStyle::Dsl => out.push('('),
    }
    let n = t.rank();
    for (i, m) in t.modes().enumerate() {
        if i > 0 {
            out.push_str(if style == CodeStyle::Dsl { ", " } else { "," });
        }
        tuple(out, m, kind, style, leaf)?;
    }
    if style == CodeStyle::Dsl && n == 1 {
        out.push(',');
    }
    out.push(if style == CodeStyle::CppType {
        '>'
    } else {
        ')'
    });
    Ok(())
}

fn layout(out: &mut String, l: &Layout, style: CodeStyle) -> Result<()> {
    let shape = |out: &mut String| {
        tuple(out, l.shape().as_ref(), "Shape", style, &|o, x: &i64| {
            int(o, *x, style);
            Ok(())
        })
    };
    let stride = |out: &mut String| {
        tuple(out, l.stride(), "Stride", style, &|o, x: &Scalar| {
            scalar(o, x, style)
        })
    };
    match style {
        CodeStyle::CppType => {
            out.push_str("Layout<");
            shape(out)?;
            out.push(',');
            stride(out)?;
            out.push('>');
        }
        CodeStyle::CppMake => {
            out.push_str("make_layout(");
            shape(out)?;
            out.push_str(", ");
            stride(out)?;
            out.push(')');
        }
        CodeStyle::Dsl => {
            out.push_str("cute.make_layout(");
            shape(out)?;
            out.push_str(", stride=");
            stride(out)?;
            out.push(')');
        }
    }
    Ok(())
}

fn swizzle(out: &mut String, sw: &Swizzle, style: CodeStyle) {
    let (b, m, s) = (sw.bits, sw.base, sw.shift);
    let _ = match style {
        CodeStyle::CppType => write!(out, "Swizzle<{b},{m},{s}>"),
        CodeStyle::CppMake => write!(out, "Swizzle<{b},{m},{s}>{{}}"),
        CodeStyle::Dsl => write!(out, "cute.make_swizzle({b}, {m}, {s})"),
    };
}

fn swizzled(out: &mut String, s: &SwizzledLayout, style: CodeStyle) -> Result<()> {
    match style {
        CodeStyle::CppType => {
            out.push_str("ComposedLayout<");
            swizzle(out, &s.swizzle, style);
            out.push_str(",_0,");
            layout(out, &s.layout, style)?;
            out.push('>');
        }
        CodeStyle::CppMake => {
            out.push_str("composition(");
            swizzle(out, &s.swizzle, style);
            out.push_str(", ");
            layout(out, &s.layout, style)?;
            out.push(')');
        }
        CodeStyle::Dsl => {
            out.push_str("cute.make_composed_layout(");
            swizzle(out, &s.swizzle, style);
            out.push_str(", 0, ");
            layout(out, &s.layout, style)?;
            out.push(')');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::eval_value;

    fn all(src: &str) -> [String; 3] {
        let v = eval_value(src).unwrap_or(Value::None);
        [CodeStyle::CppType, CodeStyle::CppMake, CodeStyle::Dsl]
            .map(|st| emit(&v, st).unwrap_or_else(|e| format!("error: {e}")))
    }

    #[test]
    fn forms() {
        assert_eq!(
            all("composition(Swizzle(3,4,3), (8,8):(8,1))"),
            [
                "ComposedLayout<Swizzle<3,4,3>,_0,Layout<Shape<_8,_8>,Stride<_8,_1>>>",
                "composition(Swizzle<3,4,3>{}, make_layout(make_shape(8,8), make_stride(8,1)))",
                "cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 8), stride=(8, 1)))",
            ]
        );
        assert_eq!(
            all("24:3"),
            [
                "Layout<_24,_3>",
                "make_layout(24, 3)",
                "cute.make_layout(24, stride=3)"
            ]
        );
        assert_eq!(
            all("(3,):(1,)"),
            [
                "Layout<Shape<_3>,Stride<_1>>",
                "make_layout(make_shape(3), make_stride(1))",
                "cute.make_layout((3,), stride=(1,))"
            ]
        );
        assert_eq!(
            all("(4,100):(-1,1@1)"),
            [
                "Layout<Shape<_4,Int<100>>,Stride<Int<-1>,ScaledBasis<_1,1>>>",
                "make_layout(make_shape(4,100), make_stride(-1,1*E<1>{}))",
                "error: type: --style dsl: the coordinate value 1@1 has no CuTe DSL form"
            ]
        );
        assert_eq!(
            all("(4,(None,3))"),
            [
                "tuple<_4,tuple<Underscore,_3>>",
                "make_tuple(4,make_tuple(_,3))",
                "(4, (None, 3))"
            ]
        );
        assert!(
            all("(4,8):(F1,F4)")[0].starts_with("error: type: --style cpp-type: the F2 value F1")
        );
        assert!(all("1/2")[1].starts_with("error: type: --style cpp-make: the fraction 1/2"));
    }
}
