//! Binary tensor contractions (`einsum`) as one GEMM, by viewing each
//! operand's layout as a rank-3 layout (`docs/tensors.md`). No data
//! moves: the layouts decide what the reference GEMM computes.
//!
//! Run: `cargo run -p rcute --example einsum`.
//!
//! `"a_modes,b_modes->c_modes"` names one mode per label. A label in A and C
//! only is a row (M), in B and C only a column (N), in A and B only a
//! reduction (K), in all three a batch (L). Each operand is viewed as
//! `make_layout(class modes...)` per class (`1:0` for an empty class, the
//! mode itself for a single one): `A : (M,K,L)`, `B : (N,K,L)`,
//! `C : (M,N,L)`, and `gemm(A3, B3, C3)` does the work.

use rcute::tensor::{gemm, Accessor, AccessorMut, GemmElement, Tensor};
use rcute::{Error, Layout, Result, Scalar};

/// The labels of one operand, checked against its layout's rank.
fn labels(part: &str, l: &Layout, what: &str) -> Result<Vec<char>> {
    let ls: Vec<char> = part.chars().filter(|c| !c.is_whitespace()).collect();
    for (i, c) in ls.iter().enumerate() {
        if ls[..i].contains(c) {
            return Err(Error::value(format!(
                "einsum: label {c} repeated in {what} ({part})"
            )));
        }
    }
    if ls.len() != l.rank() {
        return Err(Error::rank(format!(
            "einsum: {what} has {} labels ({part}) for the rank-{} layout {l}",
            ls.len(),
            l.rank()
        )));
    }
    Ok(ls)
}

/// The modes of `l` named by `names` (in that order), as one mode.
fn group(l: &Layout, ls: &[char], names: &[char]) -> Result<Layout> {
    let mut modes = Vec::new();
    for n in names {
        let i = ls.iter().position(|c| c == n).unwrap_or(0);
        modes.push(l.mode(i as i64)?);
    }
    match modes.len() {
        0 => Ok(Layout::leaf(1, Scalar::Int(0))),
        1 => Ok(modes.remove(0)),
        _ => Layout::concat(modes),
    }
}

/// The rank-3 views `(A3, B3, C3)` of an einsum over the layouts `a`, `b`,
/// `c`. Errors: `value` for a malformed spec, a label in one operand only,
/// a repeated label or inconsistent extents; `rank` for a rank mismatch.
pub fn einsum_layouts(
    spec: &str,
    a: &Layout,
    b: &Layout,
    c: &Layout,
) -> Result<(Layout, Layout, Layout)> {
    let (lhs, rhs) = spec
        .split_once("->")
        .ok_or_else(|| Error::value(format!("einsum: '{spec}' has no '->'")))?;
    let (pa, pb) = lhs
        .split_once(',')
        .ok_or_else(|| Error::value(format!("einsum: '{spec}' needs two operands")))?;
    let la = labels(pa, a, "A")?;
    let lb = labels(pb, b, "B")?;
    let lc = labels(rhs, c, "C")?;
    // consistent extents
    let mut extent: Vec<(char, i64)> = Vec::new();
    for (ls, l) in [(&la, a), (&lb, b), (&lc, c)] {
        for (i, &ch) in ls.iter().enumerate() {
            let e = l.mode(i as i64)?.size()?;
            match extent.iter().find(|(x, _)| *x == ch) {
                Some(&(_, f)) if f != e => {
                    return Err(Error::value(format!(
                        "einsum: label {ch} has extents {f} and {e}"
                    )))
                }
                Some(_) => {}
                None => extent.push((ch, e)),
            }
        }
    }
    let (mut m, mut n, mut k, mut bl) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for &(ch, _) in &extent {
        match (la.contains(&ch), lb.contains(&ch), lc.contains(&ch)) {
            (true, false, true) => m.push(ch),
            (false, true, true) => n.push(ch),
            (true, true, false) => k.push(ch),
            (true, true, true) => bl.push(ch),
            _ => {
                return Err(Error::value(format!(
                    "einsum: label {ch} appears in one operand only"
                )))
            }
        }
    }
    // M, N, L in C's order, K in A's order
    let order = |v: &mut Vec<char>, by: &[char]| {
        v.sort_by_key(|c| by.iter().position(|x| x == c));
    };
    order(&mut m, &lc);
    order(&mut n, &lc);
    order(&mut bl, &lc);
    order(&mut k, &la);
    let a3 = Layout::concat([group(a, &la, &m)?, group(a, &la, &k)?, group(a, &la, &bl)?])?;
    let b3 = Layout::concat([group(b, &lb, &n)?, group(b, &lb, &k)?, group(b, &lb, &bl)?])?;
    let c3 = Layout::concat([group(c, &lc, &m)?, group(c, &lc, &n)?, group(c, &lc, &bl)?])?;
    Ok((a3, b3, c3))
}

/// `C += einsum(spec, A, B)` through views of the three tensors.
pub fn einsum<TA, TB, TC, V>(
    spec: &str,
    a: &Tensor<TA>,
    b: &Tensor<TB>,
    c: &mut Tensor<TC>,
) -> Result<()>
where
    TA: Accessor<Value = V>,
    TB: Accessor<Value = V>,
    TC: AccessorMut<Value = V>,
    V: GemmElement,
{
    let (a3, b3, c3) = einsum_layouts(spec, a.layout(), b.layout(), c.layout())?;
    let av = a.view().with_layout(a3);
    let bv = b.view().with_layout(b3);
    let mut cv = c.view_mut().with_layout(c3);
    gemm(&av, &bv, &mut cv)
}

/// A row-major (C-ordered) layout of `shape`, as numpy stores arrays.
pub fn c_order(shape: &[i64]) -> Layout {
    Layout::row_major(rcute::HTuple::flat(shape.iter().copied())).expect("positive extents")
}

fn main() -> Result<()> {
    // matrix product C[i,j] = sum_k A[i,k] B[k,j], all C-ordered
    let a = Tensor::from_vec((1..=6).map(|x| x as f64).collect(), c_order(&[2, 3]))?;
    let b = Tensor::from_vec((1..=12).map(|x| x as f64).collect(), c_order(&[3, 4]))?;
    let mut c = Tensor::from_vec(vec![0.0; 8], c_order(&[2, 4]))?;
    let (a3, b3, c3) = einsum_layouts("ik,kj->ij", a.layout(), b.layout(), c.layout())?;
    println!("ik,kj->ij  A3 = {a3}  B3 = {b3}  C3 = {c3}");
    einsum("ik,kj->ij", &a, &b, &mut c)?;
    println!("C = {:?}", c.accessor().as_slice());
    assert_eq!(
        c.accessor().as_slice(),
        &[38.0, 44.0, 50.0, 56.0, 83.0, 98.0, 113.0, 128.0]
    );

    // batched contraction over two reduction modes: C[b,i,j] = sum_{p,q} A[b,p,i,q] B[q,j,b,p]
    let (nb, np, ni, nq, nj) = (2, 3, 2, 2, 3);
    let a = Tensor::from_vec(
        (0..nb * np * ni * nq).map(|x| x % 7 - 3).collect(),
        c_order(&[nb, np, ni, nq]),
    )?;
    let b = Tensor::from_vec(
        (0..nq * nj * nb * np).map(|x| x % 5 - 2).collect(),
        c_order(&[nq, nj, nb, np]),
    )?;
    let mut c = Tensor::from_vec(vec![0i64; (nb * ni * nj) as usize], c_order(&[nb, ni, nj]))?;
    let (a3, b3, c3) = einsum_layouts("bpiq,qjbp->bij", a.layout(), b.layout(), c.layout())?;
    println!("bpiq,qjbp->bij  A3 = {a3}  B3 = {b3}  C3 = {c3}");
    einsum("bpiq,qjbp->bij", &a, &b, &mut c)?;
    println!("C = {:?}", c.accessor().as_slice());

    // dot product and outer product
    let x = Tensor::from_vec(vec![1i32, 2, 3], c_order(&[3]))?;
    let y = Tensor::from_vec(vec![4i32, 5, 6], c_order(&[3]))?;
    let mut d = Tensor::from_vec(vec![0i32], Layout::concat_allow_empty([]))?;
    einsum("k,k->", &x, &y, &mut d)?;
    assert_eq!(d.accessor().as_slice(), &[32]);
    let mut o = Tensor::from_vec(vec![0i32; 9], c_order(&[3, 3]))?;
    einsum("m,n->mn", &x, &y, &mut o)?;
    assert_eq!(o.accessor().as_slice(), &[4, 5, 6, 8, 10, 12, 12, 15, 18]);
    println!(
        "dot = {:?}, outer = {:?}",
        d.accessor().as_slice(),
        o.accessor().as_slice()
    );
    Ok(())
}
