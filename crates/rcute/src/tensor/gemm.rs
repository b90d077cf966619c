//! The reference GEMM (`docs/tensors.md`): `C[m,n,l] += A[m,k,l] *
//! B[n,k,l]` over hierarchical modes, so that one loop nest realises GEMM,
//! GEMV, GER, dot products, batched GEMM, tensor contractions and
//! convolutions — the layouts decide.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::stride::Scalar;

use super::accessor::{Accessor, AccessorMut};
use super::Tensor;

/// An element type GEMM can multiply and accumulate: `c + a * b`, checked
/// for integers (an `overflow` error), IEEE for floating point.
///
/// ```
/// use rcute::tensor::GemmElement;
/// assert_eq!(i32::mac(&1, &2, &3).unwrap(), 7);
/// assert!(i8::mac(&1, &100, &100).is_err());
/// assert_eq!(f64::mac(&0.5, &2.0, &0.25).unwrap(), 1.0);
/// ```
pub trait GemmElement: Clone {
    /// `c + a * b` (multiply-accumulate).
    fn mac(c: &Self, a: &Self, b: &Self) -> Result<Self>;
}

macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            #[inline]
            fn mac(c: &Self, a: &Self, b: &Self) -> Result<Self> {
                Ok(*c + *a * *b)
            }
        }
    )*};
}
float_elem!(f32, f64);

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            #[inline]
            fn mac(c: &Self, a: &Self, b: &Self) -> Result<Self> {
                a.checked_mul(*b)
                    .and_then(|p| c.checked_add(p))
                    .ok_or_else(|| Error::overflow(format!(
                        "gemm: {c} + {a} * {b} overflows {}", stringify!($t)
                    )))
            }
        }
    )*};
}
int_elem!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, isize, usize);

/// Up to this many cells of C, the slot of each cell is tabulated;
/// beyond, it is looked up by offset.
const SLOT_TABLE: i64 = 1 << 22;

/// The offsets `mode(i)` for `i` in `0..size(mode)`: tabulated for modes
/// of up to `SLOT_TABLE` elements, evaluated on demand beyond.
enum Offsets {
    Table(Vec<Scalar>),
    Layout(Box<Layout>),
}

impl Offsets {
    fn new(mode: &Layout) -> Result<Offsets> {
        let n = mode.size()?;
        if n > SLOT_TABLE {
            return Ok(Offsets::Layout(Box::new(mode.clone())));
        }
        (0..n)
            .map(|i| mode.eval_index(i))
            .collect::<Result<Vec<_>>>()
            .map(Offsets::Table)
    }
    #[inline]
    fn get(&self, i: usize) -> Result<Scalar> {
        match self {
            Offsets::Table(v) => v
                .get(i)
                .cloned()
                .ok_or_else(|| Error::bounds(format!("gemm: index {i} past a mode"))),
            Offsets::Layout(l) => l.eval_index(i64::try_from(i).unwrap_or(i64::MAX)),
        }
    }
}

/// The three modes of an operand (a size-1 batch mode `1:0` appended when
/// `batch` is set).
fn modes3(name: &str, l: &Layout, batch: bool) -> Result<[Layout; 3]> {
    let mut ms: Vec<Layout> = l.modes().collect();
    if batch {
        ms.push(Layout::leaf(1, Scalar::Int(0)));
    }
    match <[Layout; 3]>::try_from(ms) {
        Ok(a) if !l.is_leaf() => Ok(a),
        _ => Err(Error::rank(format!(
            "gemm: {name} has layout {l} of rank {}; A, B and C must all have rank 2 or all rank 3",
            l.rank()
        ))),
    }
}

fn sizes(ms: &[Layout; 3]) -> Result<[i64; 3]> {
    Ok([ms[0].size()?, ms[1].size()?, ms[2].size()?])
}

#[inline]
fn at3(t: &[Offsets; 3], i: usize, j: usize, k: usize) -> Result<Scalar> {
    t[0].get(i)?.add(&t[1].get(j)?)?.add(&t[2].get(k)?)
}

/// `gemm(A, B, C)`: `C[m,n,l] = C[m,n,l] + A[m,k,l] * B[n,k,l]` for
/// `A : (M,K,L)`, `B : (N,K,L)`, `C : (M,N,L)` (`docs/tensors.md`; C++
/// `cute::gemm`'s reference semantics with B as N x K). Rank-2 operands get
/// a size-1 batch mode. Each mode may be hierarchical and is indexed by its
/// integral coordinate; the loops run `l, k, n, m` (outermost first) and a
/// destination that maps several `(m, n, l)` to one element accumulates
/// into it in that order.
///
/// Errors, all before `C` is modified: `rank` unless all three have rank 2
/// or all rank 3; `value` for extents that disagree (`M`, `N`, `K`, `L`);
/// `type` for a `C` layout whose offsets are not integers; the accessors'
/// errors (`bounds`); `overflow` from integer elements or offsets.
///
/// ```
/// use rcute::tensor::{gemm, Tensor};
/// use rcute::{Layout, HTuple};
/// let cm = |m, n| Layout::column_major(HTuple::flat([m, n])).unwrap();
/// let a = Tensor::from_vec(vec![1, 2, 3, 4, 5, 6], cm(2, 3)).unwrap();   // M x K
/// let b = Tensor::from_vec(vec![1, 0, 0, 1, 1, 1], cm(2, 3)).unwrap();   // N x K
/// let mut c = Tensor::from_vec(vec![0; 4], cm(2, 2)).unwrap();          // M x N
/// gemm(&a, &b, &mut c).unwrap();
/// // C = A * B^T with A = [[1,3,5],[2,4,6]], B = [[1,0,1],[0,1,1]]
/// assert_eq!(c.accessor().as_slice(), &[6, 8, 8, 10]);
/// ```
pub fn gemm<TA, TB, TC, V>(a: &Tensor<TA>, b: &Tensor<TB>, c: &mut Tensor<TC>) -> Result<()>
where
    TA: Accessor<Value = V>,
    TB: Accessor<Value = V>,
    TC: AccessorMut<Value = V>,
    V: GemmElement,
{
    let batch = a.rank() == 2 && b.rank() == 2 && c.rank() == 2;
    let ma = modes3("A", &a.layout, batch)?;
    let mb = modes3("B", &b.layout, batch)?;
    let mc = modes3("C", &c.layout, batch)?;
    let [m, k, l] = sizes(&ma)?;
    let [n, kb, lb] = sizes(&mb)?;
    let [mc0, nc, lc] = sizes(&mc)?;
    let check = |what: &str, x: i64, y: i64| -> Result<()> {
        if x != y {
            return Err(Error::value(format!(
                "gemm: {what} disagree ({x} vs {y}) for A = {}, B = {}, C = {}",
                a.layout, b.layout, c.layout
            )));
        }
        Ok(())
    };
    check("M = size[0](A) and size[0](C)", m, mc0)?;
    check("N = size[0](B) and size[1](C)", n, nc)?;
    check("K = size[1](A) and size[1](B)", k, kb)?;
    check("L = size[2](A) and size[2](B)", l, lb)?;
    check("L = size[2](A) and size[2](C)", l, lc)?;

    let oa = [
        Offsets::new(&ma[0])?,
        Offsets::new(&ma[1])?,
        Offsets::new(&ma[2])?,
    ];
    let ob = [
        Offsets::new(&mb[0])?,
        Offsets::new(&mb[1])?,
        Offsets::new(&mb[2])?,
    ];
    let oc = [
        Offsets::new(&mc[0])?,
        Offsets::new(&mc[1])?,
        Offsets::new(&mc[2])?,
    ];
    let us = |x: i64| usize::try_from(x).unwrap_or(usize::MAX);
    let (mu, nu, ku, lu) = (us(m), us(n), us(k), us(l));

    // Accumulate in a buffer with one slot per distinct element of C, in
    // the reference order, then write back: nothing is written unless every
    // read and every product succeeded. Memory stays proportional to the
    // number of distinct elements of C (plus a slot table for up to
    // SLOT_TABLE cells).
    let cells = crate::int::mul(crate::int::mul(m, n)?, l)?;
    let c_key = |mi: usize, ni: usize, li: usize| -> Result<(i64, Scalar)> {
        let off = at3(&oc, mi, ni, li)?;
        match off {
            Scalar::Int(v) | Scalar::F2(v) => Ok((v, off)),
            Scalar::Coord(_) => Err(Error::type_(format!(
                "gemm: C = {} yields the non-integer offset {off}",
                c.layout
            ))),
        }
    };
    let use_table = cells <= SLOT_TABLE;
    let mut slot_of: Vec<usize> = Vec::new();
    let mut index: HashMap<i64, usize> = HashMap::new();
    let mut keys: Vec<Scalar> = Vec::new();
    let mut acc: Vec<V> = Vec::new();
    for li in 0..lu {
        for ni in 0..nu {
            for mi in 0..mu {
                let (key, off) = c_key(mi, ni, li)?;
                let slot = match index.get(&key) {
                    Some(&s) => s,
                    None => {
                        acc.push(c.accessor.read(&off)?);
                        keys.push(off);
                        index.insert(key, acc.len() - 1);
                        acc.len() - 1
                    }
                };
                if use_table {
                    slot_of.push(slot);
                }
            }
        }
    }
    for li in 0..lu {
        for ki in 0..ku {
            for ni in 0..nu {
                let bv = b.accessor.read(&at3(&ob, ni, ki, li)?)?;
                for mi in 0..mu {
                    let av = a.accessor.read(&at3(&oa, mi, ki, li)?)?;
                    let slot = if use_table {
                        slot_of
                            .get(mi + mu * (ni + nu * li))
                            .copied()
                            .ok_or_else(|| {
                                Error::value("gemm: cell outside the slot table".to_string())
                            })?
                    } else {
                        let key = c_key(mi, ni, li)?.0;
                        index.get(&key).copied().ok_or_else(|| {
                            Error::value(format!("gemm: offset {key} of C was not seen"))
                        })?
                    };
                    acc[slot] = V::mac(&acc[slot], &av, &bv)?;
                }
            }
        }
    }
    for key in &keys {
        c.accessor.check_write(key)?;
    }
    for (key, v) in keys.iter().zip(acc) {
        c.accessor.write(key, v)?;
    }
    Ok(())
}
