//! Test-only helpers for the coalesce / filter / composition tests: readers
//! for layouts (`S:D`, strides `3`, `-2`, `F5`, `1@0`, `2@1@0`, `4@2+2@3`,
//! multi-term values written as a tuple at a shape leaf) and tilers (`_`,
//! integers, layouts, tuples) through the library's `FromStr`, plus
//! brute-force evaluators.
#![allow(dead_code)]

use rcute::{HRef, HTuple, Layout, Scalar, Tiler};

use crate::common::parse;

/// Parses `S:D`.
pub fn l(s: &str) -> Layout {
    parse(s)
}

/// Parses a tiler: `_`, an integer, a layout, or a tuple of tilers.
pub fn t(s: &str) -> Tiler {
    parse(s)
}

/// Builds a layout from flat leaves under a nesting given by `groups`
/// (lengths of consecutive groups; a group of length 1 stays a leaf).
pub fn grouped(shape: &[i64], stride: &[Scalar], groups: &[usize]) -> Layout {
    let mut ms = Vec::new();
    let mut md = Vec::new();
    let mut k = 0;
    for &g in groups {
        if g == 1 {
            ms.push(HTuple::leaf(shape[k]));
            md.push(HTuple::leaf(stride[k].clone()));
        } else {
            ms.push(HTuple::flat(shape[k..k + g].iter().copied()));
            md.push(HTuple::flat(stride[k..k + g].iter().cloned()));
        }
        k += g;
    }
    if ms.len() == 1 && groups[0] == 1 {
        return Layout::new(ms.pop().unwrap(), md.pop().unwrap()).unwrap();
    }
    Layout::new(HTuple::tuple(ms), HTuple::tuple(md)).unwrap()
}

/// Reference evaluation of a layout at an integer index, written
/// independently of the library: colexicographic digits, last mode absorbs.
pub fn eval_ref(l: &Layout, i: i64) -> Scalar {
    let s = l.shape().leaves();
    let d = l.stride().leaves();
    let mut q = i;
    let mut acc = Scalar::Int(0);
    for k in 0..s.len() {
        let digit = if k + 1 == s.len() {
            q
        } else {
            // Python floor division (the remainder has the divisor's sign)
            let (mut qq, mut r) = (q / s[k], q % s[k]);
            if r != 0 && ((r < 0) != (s[k] < 0)) {
                qq -= 1;
                r += s[k];
            }
            q = qq;
            r
        };
        acc = acc.add(&d[k].mul_int(digit).unwrap()).unwrap();
    }
    acc
}

/// `compatible(a, b)` of docs/operations.md (a coarsens b, sizes agree).
pub fn compatible(a: HRef<'_, i64>, b: HRef<'_, i64>) -> bool {
    match (a.as_leaf(), b.as_leaf()) {
        (Some(&x), _) => x == b.leaves().iter().product::<i64>(),
        (None, Some(_)) => false,
        (None, None) => {
            a.rank() == b.rank() && a.modes().zip(b.modes()).all(|(x, y)| compatible(x, y))
        }
    }
}

/// Whether `x` (an integer or coordinate value) lies in the domain of a
/// layout of shape `s` (a leaf shape is read as its 1-tuple for coordinate
/// values).
pub fn in_domain(x: &Scalar, s: HRef<'_, i64>) -> bool {
    match x {
        Scalar::Int(v) => *v >= 0 && *v < s.leaves().iter().product::<i64>(),
        Scalar::F2(_) => false,
        Scalar::Coord(_) => {
            let t = x.as_tuple();
            let ch: Vec<Scalar> = t.as_ref().modes().map(|m| Scalar::from_tuple(m)).collect();
            let modes: Vec<HRef<'_, i64>> = if s.is_leaf() {
                vec![s]
            } else {
                s.modes().collect()
            };
            if ch.iter().skip(modes.len()).any(|y| !y.is_zero()) {
                return false;
            }
            ch.iter().zip(modes).all(|(y, m)| in_domain(y, m))
        }
    }
}

/// Reference evaluation of A at an in-domain point (integer or coordinate).
pub fn eval_point(a: &Layout, x: &Scalar) -> Scalar {
    match x {
        Scalar::Int(i) => eval_ref(a, *i),
        Scalar::Coord(_) => {
            let t = x.as_tuple();
            let ch: Vec<Scalar> = t.as_ref().modes().map(|m| Scalar::from_tuple(m)).collect();
            if a.is_leaf() {
                return eval_point(a, ch.first().unwrap_or(&Scalar::Int(0)));
            }
            let mut acc = Scalar::Int(0);
            for (k, m) in a.modes().enumerate() {
                if let Some(y) = ch.get(k) {
                    if !y.is_zero() {
                        acc = acc.add(&eval_point(&m, y)).unwrap();
                    }
                }
            }
            acc
        }
        Scalar::F2(_) => panic!("F2 point"),
    }
}

fn floor_divmod(q: i64, s: i64) -> (i64, i64) {
    let (mut qq, mut r) = (q / s, q % s);
    if r != 0 && ((r < 0) != (s < 0)) {
        qq -= 1;
        r += s;
    }
    (qq, r)
}

/// Hierarchical evaluation at an integer index (PyCuTe's `crd2idx` of an
/// integer): the index is split across the top-level modes by their sizes
/// (colexicographic, the last mode absorbs), then recursively. Equals
/// [`eval_ref`] for positive shapes; differs when extents are negative.
pub fn eval_hier(l: &Layout, i: i64) -> Scalar {
    if l.is_leaf() {
        return eval_ref(l, i);
    }
    let modes: Vec<Layout> = l.modes().collect();
    let mut q = i;
    let mut acc = Scalar::Int(0);
    for (k, m) in modes.iter().enumerate() {
        let digit = if k + 1 == modes.len() {
            q
        } else {
            let n: i64 = m.shape().leaves().iter().product();
            let (qq, r) = floor_divmod(q, n);
            q = qq;
            r
        };
        acc = acc.add(&eval_hier(m, digit)).unwrap();
    }
    acc
}
