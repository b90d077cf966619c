//! PyCuTe's `print_tensor` (`docs/drawing.md`) as a function
//! returning the text. Values are printed with their `Display` text, so
//! coordinate values (which the reference cannot format) print as
//! `(1, 2)`, `1@0`, ...

use std::fmt::{Display, Write};

use crate::error::{Error, Result};

use super::accessor::Accessor;
use super::Tensor;

/// The text of PyCuTe's `print_tensor(t, print_type)`, every line ending in
/// `\n`: the header `<accessor> o <layout>` when `print_type` is set, then
/// [`print_tensor_body`].
///
/// Errors: those of [`print_tensor_body`].
///
/// ```
/// use rcute::tensor::{identity_tensor, print_tensor};
/// let t = identity_tensor((2, 3)).unwrap();
/// assert_eq!(print_tensor(&t, true).unwrap(),
///            "{0} o (2, 3):(1@0, 1@1)\n0     1@1   2@1   \n1@0   (1, 1) (1, 2) \n");
/// ```
pub fn print_tensor<A>(t: &Tensor<A>, print_type: bool) -> Result<String>
where
    A: Accessor,
    A::Value: Display,
{
    let mut out = String::new();
    if print_type {
        let _ = writeln!(out, "{t}");
    }
    out.push_str(&print_tensor_body(t)?);
    Ok(out)
}

/// The table of `print_tensor` without the header (
/// `docs/drawing.md`): each value's text left-aligned in a field of width 5 and
/// followed by a space; rank 1 is one line, rank 2 one line per row
/// (mode 0), rank 3 slabs `k` separated by
/// `"-"*(2N) + "--  k = " + k + " --" + "-"*(3N)` and rank 4 blocks `p`
/// separated by the same with `=` and `p` (`N = size[1](t)`).
///
/// Errors: `value` ("Expected rank <= 4") for rank 0 or rank > 4; the
/// accessor's errors (e.g. `bounds`).
///
/// ```
/// use rcute::tensor::{print_tensor_body, Tensor};
/// use rcute::{Layout, HTuple};
/// let t = Tensor::from_layout(Layout::column_major(HTuple::flat([2, 3, 2])).unwrap());
/// assert_eq!(print_tensor_body(&t).unwrap(),
///            "0     2     4     \n1     3     5     \n--------  k = 1  -----------\n6     8     10    \n7     9     11    \n");
/// ```
pub fn print_tensor_body<A>(t: &Tensor<A>) -> Result<String>
where
    A: Accessor,
    A::Value: Display,
{
    let r = t.rank();
    if r == 0 || r > 4 {
        return Err(Error::value(format!(
            "print_tensor: Expected rank <= 4, {t} has rank {r}"
        )));
    }
    let mut out = String::new();
    let cell = |out: &mut String, v: A::Value| {
        let _ = write!(out, "{:<5} ", v.to_string());
    };
    if r == 1 {
        for i in 0..t.size()? {
            cell(&mut out, t.at(i)?);
        }
        out.push('\n');
        return Ok(out);
    }
    let dims: Vec<i64> = t.layout.modes().map(|m| m.size()).collect::<Result<_>>()?;
    let (m, n) = (dims[0], dims[1]);
    let k_count = dims.get(2).copied().unwrap_or(1);
    let p_count = dims.get(3).copied().unwrap_or(1);
    let rule = |c: char, label: char, x: i64| -> String {
        let w = usize::try_from(n).unwrap_or(0);
        format!(
            "{}{c}{c}  {label} = {:<2} {c}{c}{}\n",
            c.to_string().repeat(2 * w),
            x,
            c.to_string().repeat(3 * w)
        )
    };
    for p in 0..p_count {
        if p > 0 {
            out.push_str(&rule('=', 'p', p));
        }
        for k in 0..k_count {
            if k > 0 {
                out.push_str(&rule('-', 'k', k));
            }
            for mi in 0..m {
                for ni in 0..n {
                    let mut c = vec![mi, ni];
                    if r >= 3 {
                        c.push(k);
                    }
                    if r == 4 {
                        c.push(p);
                    }
                    cell(&mut out, t.at(c)?);
                }
                out.push('\n');
            }
        }
    }
    Ok(out)
}
