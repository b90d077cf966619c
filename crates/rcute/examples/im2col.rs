//! Convolution as a GEMM over the activation in place: the im2col layout
//! (`docs/tensors.md`), built with `make_layout` and by-mode
//! `composition`, read by the reference GEMM. No patch matrix is
//! materialised; padding reads coordinates through a bounds-checking
//! accessor over the identity layout.
//!
//! Run: `cargo run -p rcute --example im2col`.
//!
//! For an activation `A : (N, [D,] [H,] W, C)` with `s` spatial modes,
//! `A_dhw = make_layout(A[1], ..., A[s])`, output extents
//! `Z_i = 1 + (size(A_dhw[i]) + pad_lo_i + pad_hi_i - ((T_i - 1)*dil_i + 1)) // str_i`
//! and
//!
//! ```text
//! im2col(A) = make_layout( make_layout(A[0], composition(A_dhw, (Z_1:str_1, ..., Z_s:str_s))),
//!                          make_layout(composition(A_dhw, (T_1:dil_1, ..., T_s:dil_s)), A[s+1]) )
//! ```

use rcute::algebra::{composition, make_identity_layout};
use rcute::tensor::{gemm, ImplicitAccessor, Tensor, TransformAccessor};
use rcute::{int, Error, HTuple, Layout, Result, Scalar, Tiler};

/// The convolution's stencil extents `T_i`, traversal strides, dilations
/// and padding, one entry per spatial mode.
#[derive(Clone, Debug)]
pub struct Conv {
    pub stencil: Vec<i64>,
    pub stride: Vec<i64>,
    pub dilation: Vec<i64>,
    pub pad_lo: Vec<i64>,
    pub pad_hi: Vec<i64>,
}

impl Conv {
    /// A stencil with unit strides and dilations and no padding.
    pub fn new(stencil: &[i64]) -> Conv {
        let s = stencil.len();
        Conv {
            stencil: stencil.to_vec(),
            stride: vec![1; s],
            dilation: vec![1; s],
            pad_lo: vec![0; s],
            pad_hi: vec![0; s],
        }
    }
}

fn by_mode(extents: &[i64], strides: &[i64]) -> Tiler {
    Tiler::Tuple(
        extents
            .iter()
            .zip(strides)
            .map(|(&e, &d)| Tiler::Layout(Layout::leaf(e, Scalar::Int(d))))
            .collect(),
    )
}

/// The output extents `Z_i`. Errors: `value` when the stencil does not fit.
pub fn output_extents(a: &Layout, conv: &Conv) -> Result<Vec<i64>> {
    let s = conv.stencil.len();
    let mut z = Vec::with_capacity(s);
    for i in 0..s {
        let size = a.mode(i as i64 + 1)?.size()?;
        let window = int::add(int::mul(conv.stencil[i] - 1, conv.dilation[i])?, 1)?;
        let span = int::sub(
            int::add(int::add(size, conv.pad_lo[i])?, conv.pad_hi[i])?,
            window,
        )?;
        let zi = int::add(1, int::floor_div(span, conv.stride[i])?)?;
        if zi < 1 {
            return Err(Error::value(format!(
                "im2col: a window of {window} does not fit the extent {size} of spatial mode {i}"
            )));
        }
        z.push(zi);
    }
    Ok(z)
}

/// The im2col layout `((N,(Z..)), ((T..),C))` of the activation layout `a`.
/// Errors: `rank` unless `a` has `s + 2` modes; those of composition.
pub fn im2col(a: &Layout, conv: &Conv) -> Result<Layout> {
    let s = conv.stencil.len();
    if a.is_leaf() || a.rank() != s + 2 {
        return Err(Error::rank(format!(
            "im2col: activation {a} needs {} modes for a {s}-D stencil",
            s + 2
        )));
    }
    let modes: Vec<Layout> = a.modes().collect();
    let dhw = Layout::concat(modes[1..=s].iter().cloned())?;
    let z = output_extents(a, conv)?;
    let rows = Layout::concat([
        modes[0].clone(),
        composition(&dhw, &by_mode(&z, &conv.stride))?,
    ])?;
    let cols = Layout::concat([
        composition(&dhw, &by_mode(&conv.stencil, &conv.dilation))?,
        modes[s + 1].clone(),
    ])?;
    Layout::concat([rows, cols])
}

/// Row-major (C-ordered) layout of `shape`.
pub fn c_order(shape: &[i64]) -> Layout {
    Layout::row_major(HTuple::flat(shape.iter().copied())).expect("positive extents")
}

/// A 2-D convolution of an NHWC activation with KRSC filters into an NPQK
/// output, as `gemm(im2col(A), W, O)`; padded positions read 0.
pub fn conv2d(
    act: &[f32],
    (n, h, w, c): (i64, i64, i64, i64),
    filt: &[f32],
    k: i64,
    conv: &Conv,
) -> Result<(Vec<f32>, (i64, i64))> {
    let (r, s) = (conv.stencil[0], conv.stencil[1]);
    let act_layout = c_order(&[n, h, w, c]);
    let z = output_extents(&act_layout, conv)?;
    let (p, q) = (z[0], z[1]);
    // B : (K, ((R,S),C)) over the KRSC filter buffer
    let b_layout = Layout::concat([
        Layout::leaf(k, Scalar::Int(r * s * c)),
        Layout::concat([
            Layout::concat([
                Layout::leaf(r, Scalar::Int(s * c)),
                Layout::leaf(s, Scalar::Int(c)),
            ])?,
            Layout::leaf(c, Scalar::Int(1)),
        ])?,
    ])?;
    // C : ((N,(P,Q)), K) over the NPQK output buffer
    let c_layout = Layout::concat([
        Layout::concat([
            Layout::leaf(n, Scalar::Int(p * q * k)),
            Layout::concat([
                Layout::leaf(p, Scalar::Int(q * k)),
                Layout::leaf(q, Scalar::Int(k)),
            ])?,
        ])?,
        Layout::leaf(k, Scalar::Int(1)),
    ])?;
    let bt = Tensor::from_vec(filt.to_vec(), b_layout)?;
    let mut out = Tensor::from_vec(vec![0f32; (n * p * q * k) as usize], c_layout)?;
    let padded = conv.pad_lo.iter().chain(&conv.pad_hi).any(|&x| x != 0);
    if !padded {
        // the activation itself, read through im2col(A)
        let at = Tensor::from_vec(act.to_vec(), im2col(&act_layout, conv)?)?;
        gemm(&at, &bt, &mut out)?;
    } else {
        // coordinates (n,h,w,c) through im2col of the identity layout, the
        // accessor moved to the window origin (0, -pad_h, -pad_w, 0) and
        // returning 0 outside the activation
        let ident = make_identity_layout(HTuple::flat([n, h, w, c]).as_ref())?;
        let origin = Scalar::coord(vec![
            Scalar::Int(0),
            Scalar::Int(-conv.pad_lo[0]),
            Scalar::Int(-conv.pad_lo[1]),
            Scalar::Int(0),
        ]);
        let read = move |crd: Scalar| -> f32 {
            let x: Vec<i64> = (0..4)
                .map(|i| {
                    crd.get_path(&[i])
                        .ok()
                        .and_then(|v| v.as_int())
                        .unwrap_or(-1)
                })
                .collect();
            let inside = x[0] >= 0 && x[0] < n && x[1] >= 0 && x[1] < h && x[2] >= 0 && x[2] < w;
            if inside && x[3] >= 0 && x[3] < c {
                act[(((x[0] * h + x[1]) * w + x[2]) * c + x[3]) as usize]
            } else {
                0.0
            }
        };
        let acc = TransformAccessor::new(ImplicitAccessor::new(origin), read).named("pad0");
        let at = Tensor::new(acc, im2col(&ident, conv)?);
        gemm(&at, &bt, &mut out)?;
    }
    Ok((out.into_parts().0.into_vec(), (p, q)))
}

fn main() -> Result<()> {
    // the spec's layouts for A = (1,4,4,1):(16,4,1,1) and a 2x2 stencil
    let a = c_order(&[1, 4, 4, 1]);
    let plain = im2col(&a, &Conv::new(&[2, 2]))?;
    println!("im2col            = {plain}");
    let mut strided = Conv::new(&[2, 2]);
    strided.stride = vec![2, 2];
    println!("stride 2          = {}", im2col(&a, &strided)?);
    let mut dilated = Conv::new(&[2, 2]);
    dilated.dilation = vec![2, 2];
    println!("dilation 2        = {}", im2col(&a, &dilated)?);
    let ident = make_identity_layout(HTuple::flat([1, 4, 4, 1]).as_ref())?;
    println!(
        "coordinate variant = {}",
        im2col(&ident, &Conv::new(&[2, 2]))?
    );

    // a 3x3 convolution with padding 1 of a 1x5x5x2 activation, 3 filters
    let act: Vec<f32> = (0..50).map(|x| (x % 7) as f32).collect();
    let filt: Vec<f32> = (0..54).map(|x| (x % 3) as f32 - 1.0).collect();
    let mut conv = Conv::new(&[3, 3]);
    conv.pad_lo = vec![1, 1];
    conv.pad_hi = vec![1, 1];
    let (out, (p, q)) = conv2d(&act, (1, 5, 5, 2), &filt, 3, &conv)?;
    println!(
        "padded 3x3 conv: output {p}x{q}x3, first row {:?}",
        &out[..15]
    );
    Ok(())
}
