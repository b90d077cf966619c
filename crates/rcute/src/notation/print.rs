//! Printing values in the three styles of `docs/language.md` ("Printing styles"):
//! PyCuTe's `str` (default), PyCuTe's `repr`, and C++ `cute::print`.

use std::fmt::{self, Write};

use super::value::Value;
use crate::layout::Layout;
use crate::swizzle::Swizzle;

/// An output style (`docs/language.md`, "Printing styles"); parsed from `str`, `repr`
/// or `cpp`.
///
/// ```
/// use rcute::notation::Style;
/// assert_eq!("cpp".parse::<Style>().unwrap(), Style::Cpp);
/// assert!("fancy".parse::<Style>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Style {
    /// PyCuTe's `str` (the default): `(4, 8):(1, 4)`.
    #[default]
    Str,
    /// PyCuTe's `repr`: `Layout((4, 8), (1, 4))`.
    Repr,
    /// C++ `cute::print`: `(4,8):(1,4)`, `(3)` for a 1-tuple.
    Cpp,
}

impl std::str::FromStr for Style {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Style> {
        match s {
            "str" | "default" => Ok(Style::Str),
            "repr" => Ok(Style::Repr),
            "cpp" | "c++" => Ok(Style::Cpp),
            _ => Err(crate::Error::value(format!(
                "unknown style {s:?} (expected str, repr or cpp)"
            ))),
        }
    }
}

/// The text of `v` in `style`.
///
/// ```
/// use rcute::notation::{format_value, Style, Value};
/// let t = Value::Tuple(vec![Value::Int(3)]);
/// assert_eq!(format_value(&t, Style::Str), "(3,)");
/// assert_eq!(format_value(&t, Style::Cpp), "(3)");
/// ```
pub fn format_value(v: &Value, style: Style) -> String {
    let mut s = String::new();
    // writing into a String cannot fail
    let _ = write_value(&mut s, v, style, false);
    s
}

fn swizzle_str(sw: &Swizzle, style: Style, nested: bool) -> String {
    match style {
        Style::Cpp => format!("Sw<{},{},{}>", sw.bits, sw.base, sw.shift),
        Style::Repr => sw.repr(),
        Style::Str if nested => sw.repr(),
        Style::Str => format!("SW_{}_{}_{}", sw.bits, sw.base, sw.shift),
    }
}

/// `x` in the style: its alternate form (`{x:#}`) for C++, `repr_of(x)`
/// for Python's repr, its display otherwise.
fn styled<T: fmt::Display>(
    out: &mut String,
    style: Style,
    repr: bool,
    x: &T,
    repr_of: impl FnOnce(&T) -> String,
) -> fmt::Result {
    if style == Style::Cpp {
        write!(out, "{x:#}")
    } else if repr {
        out.write_str(&repr_of(x))
    } else {
        write!(out, "{x}")
    }
}

/// Writes `v`; `nested` is true inside a tuple or list, where Python prints
/// the elements' repr.
fn write_value(out: &mut String, v: &Value, style: Style, nested: bool) -> fmt::Result {
    let repr = style == Style::Repr || (style == Style::Str && nested);
    match v {
        Value::Int(x) => write!(out, "{x}"),
        Value::Scalar(s) => {
            if style == Style::Cpp {
                write!(out, "{s:#}")
            } else {
                write!(out, "{s}")
            }
        }
        Value::None => out.write_str(if style == Style::Cpp { "_" } else { "None" }),
        Value::Bool(b) => out.write_str(match (style, b) {
            (Style::Cpp, true) => "true",
            (Style::Cpp, false) => "false",
            (_, true) => "True",
            (_, false) => "False",
        }),
        Value::Layout(l) => styled(out, style, repr, l, Layout::repr),
        Value::SymLayout(l) => styled(out, style, repr, l, |l| {
            format!("Layout({}, {})", l.shape(), l.stride())
        }),
        Value::Swizzle(sw) => out.write_str(&swizzle_str(sw, style, nested)),
        Value::Swizzled(s) if repr => out.write_str(&s.repr()),
        Value::Swizzled(s) => {
            out.write_str(&swizzle_str(&s.swizzle, style, nested))?;
            out.write_str(" o ")?;
            if s.offset != 0 {
                write!(out, "{} o ", s.offset)?;
            }
            styled(out, style, repr, &s.layout, Layout::repr)
        }
        Value::Tensor(t) => styled(out, style, repr, t, |t| t.repr()),
        Value::Array(t) => styled(out, style, repr, t, |t| t.repr()),
        Value::Sym(x) => write!(out, "{x}"),
        Value::Fact(x) => out.write_str(x),
        Value::Fraction(n, d) => {
            if repr {
                write!(out, "Fraction({n}, {d})")
            } else {
                write!(out, "{n}/{d}")
            }
        }
        Value::Tuple(items) | Value::List(items) => {
            let (open, close) = if matches!(v, Value::List(_)) {
                ("[", "]")
            } else {
                ("(", ")")
            };
            out.write_str(open)?;
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.write_str(if style == Style::Cpp { "," } else { ", " })?;
                }
                write_value(out, x, style, true)?;
            }
            if items.len() == 1 && style != Style::Cpp && matches!(v, Value::Tuple(_)) {
                out.write_str(",")?;
            }
            out.write_str(close)
        }
    }
}

impl fmt::Display for Value {
    /// The default (`str`) style; `{:#}` gives the C++ style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = if f.alternate() {
            Style::Cpp
        } else {
            Style::Str
        };
        f.write_str(&format_value(self, style))
    }
}
