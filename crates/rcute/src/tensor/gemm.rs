//! The reference GEMM (`tensor.md` section 9): `C[m,n,l] += A[m,k,l] *
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

/// The offsets `mode(i)` for `i` in `0..size(mode)`.
fn offsets(mode: &Layout) -> Result<Vec<Scalar>> {
    let n = mode.size()?;
    let mut v = Vec::new();
    v.try_reserve(usize::try_from(n).unwrap_or(usize::MAX))
        .map_err(|_| Error::value(format!("gemm: mode {mode} is too large")))?;
    for i in 0..n {
        v.push(mode.eval_index(i)?);
    }
    Ok(v)
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
fn at3(t: &[Vec<Scalar>; 3], i: usize, j: usize, k: usize) -> Result<Scalar> {
    t[0][i].add(&t[1][j])?.add(&t[2][k])
}

/// `gemm(A, B, C)`: `C[m,n,l] = C[m,n,l] + A[m,k,l] * B[n,k,l]` for
/// `A : (M,K,L)`, `B : (N,K,L)`, `C : (M,N,L)` (`tensor.md` section 9; C++
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

    let oa = [offsets(&ma[0])?, offsets(&ma[1])?, offsets(&ma[2])?];
    let ob = [offsets(&mb[0])?, offsets(&mb[1])?, offsets(&mb[2])?];
    let oc = [offsets(&mc[0])?, offsets(&mc[1])?, offsets(&mc[2])?];
    let (mu, nu, ku, lu) = (oa[0].len(), ob[0].len(), oa[1].len(), oa[2].len());

    // Accumulate in a buffer with one slot per distinct element of C, in
    // the reference order, then write back: nothing is written unless every
    // read and every product succeeded.
    let cells = crate::int::mul(crate::int::mul(m, n)?, l)?;
    let mut slot_of: Vec<usize> = Vec::new();
    slot_of
        .try_reserve(usize::try_from(cells).unwrap_or(usize::MAX))
        .map_err(|_| Error::value(format!("gemm: C = {} is too large", c.layout)))?;
    let mut index: HashMap<i64, usize> = HashMap::new();
    let mut keys: Vec<Scalar> = Vec::new();
    let mut acc: Vec<V> = Vec::new();
    for li in 0..lu {
        for ni in 0..nu {
            for mi in 0..mu {
                let off = at3(&oc, mi, ni, li)?;
                let key = match off {
                    Scalar::Int(v) | Scalar::F2(v) => v,
                    Scalar::Coord(_) => {
                        return Err(Error::type_(format!(
                            "gemm: C = {} yields the non-integer offset {off}",
                            c.layout
                        )))
                    }
                };
                let slot = match index.get(&key) {
                    Some(&s) => s,
                    None => {
                        acc.push(c.accessor.read(&off)?);
                        keys.push(off);
                        index.insert(key, acc.len() - 1);
                        acc.len() - 1
                    }
                };
                slot_of.push(slot);
            }
        }
    }
    for li in 0..lu {
        for ki in 0..ku {
            for ni in 0..nu {
                let bv = b.accessor.read(&at3(&ob, ni, ki, li)?)?;
                for mi in 0..mu {
                    let av = a.accessor.read(&at3(&oa, mi, ki, li)?)?;
                    let slot = slot_of[mi + mu * (ni + nu * li)];
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
