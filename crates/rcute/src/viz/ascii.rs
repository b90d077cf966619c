//! The ASCII printers: C++ `print_layout` and `print_tensor`, PyCuTe
//! `print_tensor` and `print_table` (`docs/drawing.md`).

use std::fmt::Write as _;

use super::{cell_int, require_rank2, AsView, Tables, View};
use crate::error::{Error, Result};
use crate::int;
use crate::stride::Scalar;

/// C++ `print_layout(L)` (`docs/drawing.md`): the bordered grid
/// of a rank-2 layout with integer values, headed by the layout's C++-style
/// text. Each line ends with `\n`.
///
/// The cell width is `num_digits(cosize) + 2` with C++'s cosize
/// (`1 + sum((s-1)*|d|)`); for F2 and swizzled layouts, whose cosize C++
/// does not define the same way, the largest `|value| + 1` is used when it
/// is larger. F2 values print as their integers.
///
/// Errors: `value` for a rank other than 2 or more than
/// [`MAX_CELLS`](super::MAX_CELLS) cells; `type` for coordinate values
/// (see [`print_layout_coords`]); `overflow`.
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::print_layout};
/// let l = Layout::new(HTuple::flat([2, 3]), HTuple::flat([Scalar::Int(100), Scalar::Int(1)])).unwrap();
/// let want = [
///     "(2,3):(100,1)",
///     "        0     1     2 ",
///     "    +-----+-----+-----+",
///     " 0  |   0 |   1 |   2 |",
///     "    +-----+-----+-----+",
///     " 1  | 100 | 101 | 102 |",
///     "    +-----+-----+-----+",
/// ];
/// assert_eq!(print_layout(&l).unwrap(), want.join("\n") + "\n");
/// ```
pub fn print_layout(x: &impl AsView) -> Result<String> {
    let v = x.as_view();
    require_rank2(&v, "print_layout")?;
    let t = v.tables("print_layout")?;
    let (m_rows, n_cols) = (t.size(0), t.size(1));
    let mut cells = Vec::with_capacity(m_rows * n_cols);
    let mut max_abs: i64 = 0;
    for i in 0..m_rows {
        for j in 0..n_cols {
            let val = cell_int(&v.value_at(&t, &[i, j])?, "print_layout", i, j)?;
            max_abs = max_abs.max(val.checked_abs().unwrap_or(i64::MAX));
            cells.push(val);
        }
    }
    let mut cosize = max_abs.saturating_add(1);
    if v.inner_layout().has_integer_strides() {
        let mut c: i64 = 1;
        for (s, d) in v.inner_layout().flat_modes() {
            let d = d.as_int().unwrap_or(0);
            let a = d
                .checked_abs()
                .ok_or_else(|| Error::overflow(format!("print_layout: |{d}| overflows")))?;
            c = int::add(c, int::mul(int::sub(s, 1)?, a)?)?;
        }
        cosize = cosize.max(c);
    }
    let w = num_digits(cosize) + 2;
    Ok(grid(&v.cpp_text(), m_rows, n_cols, w, &cells))
}

/// The `print_layout` grid: `header`, the column indices, then `m_rows`
/// rows of `n_cols` cells (`cells`, row by row) right-aligned in columns
/// `w` wide, between `+---+` separators, each row headed by its index.
fn grid<T: std::fmt::Display>(
    header: &str,
    m_rows: usize,
    n_cols: usize,
    w: usize,
    cells: &[T],
) -> String {
    let mut sep = String::from("    ");
    for _ in 0..n_cols {
        sep.push('+');
        sep.push_str(&"-".repeat(w));
    }
    sep.push_str("+\n");
    let mut out = String::new();
    let _ = writeln!(out, "{header}");
    out.push_str("    ");
    for j in 0..n_cols {
        let _ = write!(out, "  {:>width$} ", j, width = w - 2);
    }
    out.push('\n');
    for i in 0..m_rows {
        out.push_str(&sep);
        let _ = write!(out, "{i:>2}  ");
        for j in 0..n_cols {
            let _ = write!(out, "| {:>width$} ", cells[i * n_cols + j], width = w - 2);
        }
        out.push_str("|\n");
    }
    out.push_str(&sep);
    out
}

/// [`print_layout`], and for coordinate values (an identity layout or
/// tensor) its grid with every cell in full C++ form, `(0,0)` for the
/// origin and `(1,0)` for `1@0`, under plain-integer row and column
/// headers, the cells as wide as the widest text, headed by the value's
/// default-style text (C++ `print_layout` takes integers only; this is
/// `rcute show`'s table for identity tensors).
///
/// Errors: those of [`print_layout`] but the coordinate values' `type`.
///
/// ```
/// use rcute::viz::print_layout_coords;
/// let t = rcute::tensor::identity_tensor((2, 2)).unwrap();
/// let want = [
///     "{0} o (2, 2):(1@0, 1@1)",
///     "          0       1 ",
///     "    +-------+-------+",
///     " 0  | (0,0) | (0,1) |",
///     "    +-------+-------+",
///     " 1  | (1,0) | (1,1) |",
///     "    +-------+-------+",
/// ];
/// assert_eq!(print_layout_coords(&t).unwrap(), want.join("\n") + "\n");
/// ```
pub fn print_layout_coords(x: &impl AsView) -> Result<String> {
    let v = x.as_view();
    require_rank2(&v, "print_layout")?;
    let t = v.tables("print_layout")?;
    let (m_rows, n_cols) = (t.size(0), t.size(1));
    let mut values = Vec::with_capacity(m_rows * n_cols);
    for i in 0..m_rows {
        for j in 0..n_cols {
            values.push(v.value_at(&t, &[i, j])?);
        }
    }
    if values.iter().any(|x| matches!(x, Scalar::Coord(_))) {
        return Ok(coordinate_grid(&v.text(), &values, m_rows, n_cols));
    }
    print_layout(x)
}

/// `print_layout`'s grid for coordinate values (an identity layout or
/// tensor): every cell in full C++ form, `(0,0)` for the origin and
/// `(1,0)` for `1@0`, padded to the longest coordinate, the row and column
/// headers plain integers, the cells as wide as the widest text.
fn coordinate_grid(header: &str, values: &[Scalar], m_rows: usize, n_cols: usize) -> String {
    let children = |x: &Scalar| -> Vec<String> {
        match x {
            Scalar::Coord(t) => t.children().iter().map(|c| format!("{c:#}")).collect(),
            Scalar::Int(0) => Vec::new(),
            other => vec![format!("{other:#}")],
        }
    };
    let len = values.iter().map(|x| children(x).len()).max().unwrap_or(0);
    let texts: Vec<String> = values
        .iter()
        .map(|x| {
            let mut c = children(x);
            c.resize(len, "0".to_string());
            format!("({})", c.join(","))
        })
        .collect();
    let w = texts
        .iter()
        .map(String::len)
        .chain([n_cols.saturating_sub(1).to_string().len()])
        .max()
        .unwrap_or(1)
        + 2;
    grid(header, m_rows, n_cols, w, &texts)
}

/// Decimal digits of `x` (1 for `x < 10`).
fn num_digits(x: i64) -> usize {
    let mut n = 1;
    let mut y = x;
    while y >= 10 {
        y /= 10;
        n += 1;
    }
    n
}

/// PyCuTe `print_tensor(t, print_type)` (`docs/drawing.md`):
/// ranks 1 to 4, each value left-aligned in a field of 5 followed by a
/// space, rank-3 slabs separated by `--  k = K  --` lines and rank-4 blocks
/// by `==  p = P  ==` lines. With `print_type` the default-style text of
/// the layout (or tensor) comes first. Each line ends with `\n`.
///
/// Coordinate values (which PyCuTe cannot format) print with the same rule.
///
/// Errors: `value` for rank 0 or rank > 4 ("Expected rank <= 4") or more
/// than [`MAX_CELLS`](super::MAX_CELLS) cells; evaluation errors.
///
/// ```
/// use rcute::{HTuple, Layout, viz::print_tensor};
/// let l = Layout::column_major(HTuple::flat([2, 3, 2])).unwrap();
/// assert_eq!(print_tensor(&l, true).unwrap(), "(2, 3, 2):(1, 2, 6)
/// 0     2     4     
/// 1     3     5     
/// --------  k = 1  -----------
/// 6     8     10    
/// 7     9     11    
/// ");
/// ```
pub fn print_tensor(x: &impl AsView, print_type: bool) -> Result<String> {
    print_tensor_fields(x, print_type, false)
}

/// [`print_tensor`] with aligned columns: each column of a rank-2 to rank-4
/// table is as wide as its widest value (at least 5), so values longer than
/// PyCuTe's 5-character field (coordinates such as `(3, 1)`) do not shift
/// the columns after them. Where every value fits in 5 characters the text
/// is exactly [`print_tensor`]'s. `rcute show` prints tensors this way.
///
/// Errors: as [`print_tensor`].
///
/// ```
/// use rcute::{tensor::identity_tensor, viz::{print_tensor, print_tensor_aligned}};
/// let t = identity_tensor((2, 2)).unwrap();
/// assert_eq!(print_tensor(&t, false).unwrap(), "0     1@1   \n1@0   (1, 1) \n");
/// assert_eq!(print_tensor_aligned(&t, false).unwrap(), "0     1@1    \n1@0   (1, 1) \n");
/// ```
pub fn print_tensor_aligned(x: &impl AsView, print_type: bool) -> Result<String> {
    print_tensor_fields(x, print_type, true)
}

/// [`print_tensor`] (`align == false`: every field 5 wide) or
/// [`print_tensor_aligned`] (each column as wide as its widest value).
fn print_tensor_fields(x: &impl AsView, print_type: bool, align: bool) -> Result<String> {
    let v = x.as_view();
    let r = v.rank();
    if r == 0 || r > 4 {
        return Err(Error::value(format!(
            "print_tensor: Expected rank <= 4 (and at least 1), got the rank-{r} {}",
            v.text()
        )));
    }
    let t = v.tables("print_tensor")?;
    let mut out = String::new();
    if print_type {
        let _ = writeln!(out, "{}", v.text());
    }
    let field = |out: &mut String, s: &Scalar, width: usize| {
        let _ = write!(out, "{:<width$} ", s.to_string());
    };
    if r == 1 {
        for i in 0..t.size(0) {
            field(&mut out, &v.value_at(&t, &[i])?, 5);
        }
        out.push('\n');
        return Ok(out);
    }
    let n = t.size(1);
    // the width of each column (mode-1 index): 5, or with `align` the
    // longest value text of the column over all rows, slabs and blocks
    let mut widths = vec![5usize; n];
    if align {
        let rest = (2..r).map(|m| t.size(m)).product::<usize>();
        for q in 0..rest {
            let mut c = vec![0usize; r];
            let mut q = q;
            for (m, cm) in c.iter_mut().enumerate().skip(2) {
                *cm = q % t.size(m);
                q /= t.size(m);
            }
            for i in 0..t.size(0) {
                c[0] = i;
                for (j, w) in widths.iter_mut().enumerate() {
                    c[1] = j;
                    *w = (*w).max(v.value_at(&t, &c)?.to_string().chars().count());
                }
            }
        }
    }
    let slab = |out: &mut String, rest: &[usize]| -> Result<()> {
        let mut c = vec![0usize; 2 + rest.len()];
        c[2..].copy_from_slice(rest);
        for i in 0..t.size(0) {
            c[0] = i;
            for (j, &w) in widths.iter().enumerate() {
                c[1] = j;
                field(out, &v.value_at(&t, &c)?, w);
            }
            out.push('\n');
        }
        Ok(())
    };
    let rank3 = |out: &mut String, p: Option<usize>| -> Result<()> {
        let nk = if r >= 3 { t.size(2) } else { 1 };
        for k in 0..nk {
            if k > 0 {
                let _ = writeln!(
                    out,
                    "{}--  k = {:<2} --{}",
                    "-".repeat(2 * n),
                    k,
                    "-".repeat(3 * n)
                );
            }
            match (r, p) {
                (2, _) => slab(out, &[])?,
                (3, _) => slab(out, &[k])?,
                (_, p) => slab(out, &[k, p.unwrap_or(0)])?,
            }
        }
        Ok(())
    };
    if r == 4 {
        for p in 0..t.size(3) {
            if p > 0 {
                let _ = writeln!(
                    out,
                    "{}==  p = {:<2} =={}",
                    "=".repeat(2 * n),
                    p,
                    "=".repeat(3 * n)
                );
            }
            rank3(&mut out, Some(p))?;
        }
    } else {
        rank3(&mut out, None)?;
    }
    Ok(out)
}

/// C++ `print_tensor(T)` (`docs/drawing.md`) for the view as a
/// tensor whose iterator prints as `iterator`: the header
/// `<iterator> o <C++ layout>:`, then each value right-aligned in width 5
/// (one value per line for rank 1), rank-3 slabs separated by
/// `"-" * (5*N)` and rank-4 blocks by `"=" * (5*N)`.
///
/// Errors: as [`print_tensor`].
///
/// ```
/// use rcute::{HTuple, Layout, viz::print_tensor_cpp};
/// let l = Layout::column_major(HTuple::flat([2, 3, 2])).unwrap();
/// let s = print_tensor_cpp(&l, "ptr[32b](0x0)").unwrap();
/// assert_eq!(s, "ptr[32b](0x0) o (2,3,2):(1,2,6):
///     0    2    4
///     1    3    5
/// ---------------
///     6    8   10
///     7    9   11
/// ");
/// ```
pub fn print_tensor_cpp(x: &impl AsView, iterator: &str) -> Result<String> {
    let v = x.as_view();
    let r = v.rank();
    if r == 0 || r > 4 {
        return Err(Error::value(format!(
            "print_tensor: Expected rank <= 4 (and at least 1), got the rank-{r} {}",
            v.text()
        )));
    }
    let t: Tables = v.tables("print_tensor")?;
    let mut out = String::new();
    let _ = writeln!(out, "{iterator} o {}:", v.cpp_text());
    if r == 1 {
        for i in 0..t.size(0) {
            let _ = writeln!(out, "{:>5}", format!("{:#}", v.value_at(&t, &[i])?));
        }
        return Ok(out);
    }
    let n = t.size(1);
    let nk = if r >= 3 { t.size(2) } else { 1 };
    let np = if r == 4 { t.size(3) } else { 1 };
    for p in 0..np {
        if p > 0 {
            let _ = writeln!(out, "{}", "=".repeat(5 * n));
        }
        for k in 0..nk {
            if k > 0 {
                let _ = writeln!(out, "{}", "-".repeat(5 * n));
            }
            let mut c = vec![0usize; r];
            if r >= 3 {
                c[2] = k;
            }
            if r == 4 {
                c[3] = p;
            }
            for i in 0..t.size(0) {
                c[0] = i;
                for j in 0..n {
                    c[1] = j;
                    let _ = write!(out, "{:>5}", format!("{:#}", v.value_at(&t, &c)?));
                }
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// PyCuTe `print_table(t, print_type)` (`docs/drawing.md`): for
/// rank 2, tabulate's "grid" table of the default-style cell texts
/// (integer-only columns right-aligned, others left-aligned); for any
/// other rank, the default-style text of the tensor (`{0} o 8:1`). With
/// `print_type` the text of the layout comes first. Each line ends with
/// `\n`.
///
/// Errors: `value` for more than [`MAX_CELLS`](super::MAX_CELLS) cells;
/// evaluation errors.
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::print_table};
/// let l = Layout::new(HTuple::flat([2, 2]), HTuple::flat([Scalar::Int(-10), Scalar::Int(1)])).unwrap();
/// assert_eq!(print_table(&l, true).unwrap(), "(2, 2):(-10, 1)
/// +-----+----+
/// |   0 |  1 |
/// +-----+----+
/// | -10 | -9 |
/// +-----+----+
/// ");
/// ```
pub fn print_table(x: &impl AsView, print_type: bool) -> Result<String> {
    let v: View = x.as_view();
    let mut out = String::new();
    if print_type {
        let _ = writeln!(out, "{}", v.text());
    }
    if v.rank() != 2 {
        let _ = writeln!(out, "{}", v.tensor_text());
        return Ok(out);
    }
    let t = v.tables("print_table")?;
    let (m_rows, n_cols) = (t.size(0), t.size(1));
    let mut text = Vec::with_capacity(m_rows * n_cols);
    let mut width = vec![0usize; n_cols];
    let mut right = vec![true; n_cols];
    for i in 0..m_rows {
        for j in 0..n_cols {
            let val = v.value_at(&t, &[i, j])?;
            if !matches!(val, Scalar::Int(_)) {
                right[j] = false;
            }
            let s = val.to_string();
            width[j] = width[j].max(s.chars().count());
            text.push(s);
        }
    }
    let mut sep = String::from("+");
    for &w in &width {
        sep.push_str(&"-".repeat(w + 2));
        sep.push('+');
    }
    sep.push('\n');
    out.push_str(&sep);
    for i in 0..m_rows {
        out.push('|');
        for j in 0..n_cols {
            let s = &text[i * n_cols + j];
            if right[j] {
                let _ = write!(out, " {:>w$} |", s, w = width[j]);
            } else {
                let _ = write!(out, " {:<w$} |", s, w = width[j]);
            }
        }
        out.push('\n');
        out.push_str(&sep);
    }
    Ok(out)
}
