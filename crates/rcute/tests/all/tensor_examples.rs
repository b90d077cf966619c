//! The example programs of `docs/tensors.md` (crates/rcute/examples):
//! einsum contractions, im2col convolutions and the tiled transpose,
//! checked against direct computations.

#[allow(dead_code)]
#[path = "../../examples/einsum.rs"]
mod einsum;
#[allow(dead_code)]
#[path = "../../examples/im2col.rs"]
mod im2col;
#[allow(dead_code)]
#[path = "../../examples/tiled_transpose.rs"]
mod tiled_transpose;

use proptest::prelude::*;
use rcute::tensor::{copy, make_tensor, Tensor};
use rcute::{ErrorKind, HTuple, Layout, Scalar};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

// ---------------------------------------------------------------------------
// einsum

/// A naive einsum over C-ordered dense arrays: loops over every label.
fn naive_einsum(
    spec: &str,
    a: &[i64],
    ash: &[i64],
    b: &[i64],
    bsh: &[i64],
    csh: &[i64],
    c: &mut [i64],
) {
    let (lhs, rhs) = spec.split_once("->").unwrap();
    let (pa, pb) = lhs.split_once(',').unwrap();
    let (la, lb, lc): (Vec<char>, Vec<char>, Vec<char>) = (
        pa.chars().collect(),
        pb.chars().collect(),
        rhs.chars().collect(),
    );
    let mut all: Vec<(char, i64)> = Vec::new();
    for (ls, sh) in [(&la, ash), (&lb, bsh), (&lc, csh)] {
        for (i, ch) in ls.iter().enumerate() {
            if !all.iter().any(|(x, _)| x == ch) {
                all.push((*ch, sh[i]));
            }
        }
    }
    let total: i64 = all.iter().map(|(_, e)| e).product();
    let index = |ls: &[char], sh: &[i64], val: &dyn Fn(char) -> i64| -> usize {
        let mut off = 0;
        for (i, ch) in ls.iter().enumerate() {
            off = off * sh[i] + val(*ch);
        }
        off as usize
    };
    for mut t in 0..total {
        let mut vals = Vec::new();
        for (ch, e) in &all {
            vals.push((*ch, t % e));
            t /= e;
        }
        let val = |ch: char| vals.iter().find(|(x, _)| *x == ch).unwrap().1;
        c[index(&lc, csh, &val)] += a[index(&la, ash, &val)] * b[index(&lb, bsh, &val)];
    }
}

#[test]
fn einsum_contractions_match_naive() {
    type Case<'a> = (&'a str, &'a [i64], &'a [i64], &'a [i64]);
    let specs: [Case; 8] = [
        ("ik,kj->ij", &[2, 3], &[3, 4], &[2, 4]),
        ("mk,nk->mn", &[3, 5], &[2, 5], &[3, 2]),
        ("bpiq,qjbp->bij", &[2, 3, 2, 2], &[2, 3, 2, 3], &[2, 2, 3]),
        ("k,k->", &[5], &[5], &[]),
        ("m,n->mn", &[3], &[4], &[3, 4]),
        ("bik,bkj->bij", &[3, 2, 4], &[3, 4, 2], &[3, 2, 2]),
        ("abc,cbd->da", &[2, 3, 4], &[4, 3, 2], &[2, 2]),
        ("ij,j->i", &[3, 4], &[4], &[3]),
    ];
    let mut r = Rng(0x9e3779b97f4a7c15);
    for (spec, ash, bsh, csh) in specs {
        let n = |sh: &[i64]| sh.iter().product::<i64>() as usize;
        let a: Vec<i64> = (0..n(ash)).map(|_| r.range(-5, 5)).collect();
        let b: Vec<i64> = (0..n(bsh)).map(|_| r.range(-5, 5)).collect();
        let c0: Vec<i64> = (0..n(csh)).map(|_| r.range(-5, 5)).collect();
        let mut want = c0.clone();
        naive_einsum(spec, &a, ash, &b, bsh, csh, &mut want);
        let lay = |sh: &[i64]| {
            if sh.is_empty() {
                Layout::concat_allow_empty([])
            } else {
                einsum::c_order(sh)
            }
        };
        let at = Tensor::from_vec(a, lay(ash)).unwrap();
        let bt = Tensor::from_vec(b, lay(bsh)).unwrap();
        let mut ct = Tensor::from_vec(c0, lay(csh)).unwrap();
        einsum::einsum(spec, &at, &bt, &mut ct).unwrap();
        assert_eq!(ct.accessor().as_slice(), &want[..], "{spec}");
    }
}

#[test]
fn einsum_views_and_errors() {
    let (a3, b3, c3) = einsum::einsum_layouts(
        "ik,kj->ij",
        &einsum::c_order(&[2, 3]),
        &einsum::c_order(&[3, 4]),
        &einsum::c_order(&[2, 4]),
    )
    .unwrap();
    // A : (M,K,L), B : (N,K,L), C : (M,N,L); no data moves
    assert_eq!(a3.to_string(), "(2, 3, 1):(3, 1, 0)");
    assert_eq!(b3.to_string(), "(4, 3, 1):(1, 4, 0)");
    assert_eq!(c3.to_string(), "(2, 4, 1):(4, 1, 0)");
    let l = einsum::c_order(&[2, 3]);
    let err = |spec: &str, b: &Layout| einsum::einsum_layouts(spec, &l, b, &l).unwrap_err().kind();
    assert_eq!(
        err("ik,kj->ij", &einsum::c_order(&[2, 3])),
        ErrorKind::Value
    ); // k: 3 vs 2
    assert_eq!(
        err("ix,kj->ij", &einsum::c_order(&[3, 3])),
        ErrorKind::Value
    ); // x in A only
    assert_eq!(err("ii,ij->ij", &l), ErrorKind::Value); // repeated label
    assert_eq!(err("i,kj->ij", &l), ErrorKind::Rank);
    assert_eq!(err("ik kj->ij", &l), ErrorKind::Value);
}

// ---------------------------------------------------------------------------
// im2col

#[test]
fn spec_im2col_layouts() {
    let a = Layout::new(
        HTuple::flat([1, 4, 4, 1]),
        HTuple::flat([16, 4, 1, 1].map(Scalar::Int)),
    )
    .unwrap();
    let plain = im2col::im2col(&a, &im2col::Conv::new(&[2, 2])).unwrap();
    assert_eq!(
        plain.to_string(),
        "((1, (3, 3)), ((2, 2), 1)):((16, (4, 1)), ((4, 1), 1))"
    );
    let mut c = im2col::Conv::new(&[2, 2]);
    c.stride = vec![2, 2];
    assert_eq!(
        im2col::im2col(&a, &c).unwrap().to_string(),
        "((1, (2, 2)), ((2, 2), 1)):((16, (8, 2)), ((4, 1), 1))"
    );
    let mut c = im2col::Conv::new(&[2, 2]);
    c.dilation = vec![2, 2];
    assert_eq!(
        im2col::im2col(&a, &c).unwrap().to_string(),
        "((1, (2, 2)), ((2, 2), 1)):((16, (4, 1)), ((8, 2), 1))"
    );
    // element ((0,(1,2)),((1,1),0)) of the first is offset 11 (pixel (2,3))
    let t = Tensor::from_layout(plain);
    let crd = (((0, (1, 2)), ((1, 1), 0)),);
    assert_eq!(t.at(crd.0).unwrap(), Scalar::Int(11));
    // the stencil must fit
    assert_eq!(
        im2col::im2col(&a, &im2col::Conv::new(&[5, 1]))
            .unwrap_err()
            .kind(),
        ErrorKind::Value
    );
}

/// Direct convolution NHWC x KRSC -> NPQK with zero padding.
#[allow(clippy::too_many_arguments)]
fn naive_conv(
    act: &[f32],
    (n, h, w, c): (i64, i64, i64, i64),
    filt: &[f32],
    k: i64,
    conv: &im2col::Conv,
    p: i64,
    q: i64,
) -> Vec<f32> {
    let (r, s) = (conv.stencil[0], conv.stencil[1]);
    let mut out = vec![0f32; (n * p * q * k) as usize];
    for ni in 0..n {
        for pi in 0..p {
            for qi in 0..q {
                for ki in 0..k {
                    let mut acc = 0f32;
                    for ri in 0..r {
                        for si in 0..s {
                            let y = pi * conv.stride[0] + ri * conv.dilation[0] - conv.pad_lo[0];
                            let x = qi * conv.stride[1] + si * conv.dilation[1] - conv.pad_lo[1];
                            if y < 0 || y >= h || x < 0 || x >= w {
                                continue;
                            }
                            for ci in 0..c {
                                acc += act[(((ni * h + y) * w + x) * c + ci) as usize]
                                    * filt[(((ki * r + ri) * s + si) * c + ci) as usize];
                            }
                        }
                    }
                    out[(((ni * p + pi) * q + qi) * k + ki) as usize] = acc;
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// gemm over im2col (padded or not, any stride and dilation) equals the
    /// direct convolution; the element values are small integers, so the
    /// float sums are exact.
    #[test]
    fn im2col_convolution_matches_direct(seed in any::<u64>()) {
        let mut g = Rng(seed | 1);
        let (n, h, w, c, k) = (g.range(1, 2), g.range(1, 6), g.range(1, 6), g.range(1, 3), g.range(1, 3));
        let mut conv = im2col::Conv::new(&[g.range(1, 3), g.range(1, 3)]);
        conv.stride = vec![g.range(1, 2), g.range(1, 2)];
        conv.dilation = vec![g.range(1, 2), g.range(1, 2)];
        if g.range(0, 1) == 1 {
            conv.pad_lo = vec![g.range(0, 2), g.range(0, 2)];
            conv.pad_hi = conv.pad_lo.clone();
        }
        let act: Vec<f32> = (0..n * h * w * c).map(|_| g.range(-3, 3) as f32).collect();
        let filt: Vec<f32> = (0..k * conv.stencil[0] * conv.stencil[1] * c).map(|_| g.range(-2, 2) as f32).collect();
        match im2col::conv2d(&act, (n, h, w, c), &filt, k, &conv) {
            Ok((out, (p, q))) => {
                let want = naive_conv(&act, (n, h, w, c), &filt, k, &conv, p, q);
                prop_assert_eq!(out, want);
            }
            Err(e) => {
                // only when the dilated window does not fit the padded input
                prop_assert_eq!(e.kind(), ErrorKind::Value);
                let fits = |i: usize, extent: i64| {
                    (conv.stencil[i] - 1) * conv.dilation[i] < extent + conv.pad_lo[i] + conv.pad_hi[i]
                };
                prop_assert!(!(fits(0, h) && fits(1, w)));
            }
        }
    }

    /// The tiled transpose (any tile sizes, ragged edges predicated with the
    /// identity tensor) equals one whole-matrix copy.
    #[test]
    fn tiled_transpose_equals_copy(seed in any::<u64>()) {
        let mut g = Rng(seed | 1);
        let (m, n, bm, bn) = (g.range(1, 13), g.range(1, 13), g.range(1, 5), g.range(1, 5));
        let src = Tensor::from_vec((0..m * n).collect::<Vec<i64>>(), tiled_transpose::col_major(m, n)).unwrap();
        let mut tiled = Tensor::from_vec(vec![-1i64; (m * n) as usize], tiled_transpose::row_major(m, n)).unwrap();
        tiled_transpose::tiled_copy(&src, &mut tiled, bm, bn).unwrap();
        let mut whole = make_tensor::<i64>(tiled_transpose::row_major(m, n)).unwrap();
        copy(&src, &mut whole).unwrap();
        prop_assert_eq!(tiled.accessor().as_slice(), whole.accessor().as_slice());
    }
}
