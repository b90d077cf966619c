//! Tensor and copy cases for the extended run and the `tensor` fuzz
//! target: memory tensors over small buffers with random layouts (aliasing,
//! broadcasting, out-of-buffer, offset bases), checked against a sequential
//! model of the reference loops (`docs/tensors.md`).

use rcute::htuple::HTuple;
use rcute::shape::{self, Coord, DisplayCoord};
use rcute::tensor::{
    self, clear, copy, fill, gemm, identity_tensor, inner_partition, local_partition, local_tile,
    outer_partition, print_tensor, Accessor, Ptr, PtrMut, Tensor,
};
use rcute::{ErrorKind, Layout, Scalar};

use super::{
    coord_for, extent, factor_shape, fail, lib_eval_int, samples, shape as gen_shape, size_of,
    strides_for, tiler, Outcome, Src, StrideKind,
};

/// The tensor operations exercised (index = op number of [`run_tensor_op`]).
pub const TENSOR_OPS: &[&str] = &["copy", "fill_clear", "tensor_slice", "partition", "gemm"];

/// Buffers never exceed this many elements, except for the rare large copy.
const CAP: i64 = 4096;

/// A shape with small extents and at most `cap` elements.
fn small_shape(src: &mut impl Src, cap: i64) -> HTuple<i64> {
    for _ in 0..4 {
        let s = gen_shape(src, 2).map(|&e| if e > 0 && e <= 16 { e } else { src.range(1, 6) });
        if let Ok(n) = shape::size(s.as_ref()) {
            if n <= cap {
                return s;
            }
        }
    }
    HTuple::leaf(src.range(1, 8))
}

/// A layout of shape `s` with integer strides (zero, negative and
/// aliasing strides included).
fn mem_layout(src: &mut impl Src, s: HTuple<i64>) -> Layout {
    let kind = src.pick(&[
        StrideKind::Compact,
        StrideKind::Permuted,
        StrideKind::Permuted,
        StrideKind::Random,
    ]);
    let mut d = strides_for(src, &s, kind);
    // keep the strides small so that the buffers stay small
    for x in d.leaves_mut() {
        if let Scalar::Int(v) = x {
            if v.unsigned_abs() > 64 && src.chance(7, 8) {
                *v = src.range(-2, 8);
            }
        }
    }
    Layout::new(s, d).unwrap_or_else(|_| Layout::leaf(1, Scalar::Int(0)))
}

/// The offsets `L(i)` for `i` in `[0, size)`, exact; None when too many or
/// an offset does not fit.
fn offsets(l: &Layout, cap: i64) -> Result<Option<Vec<i64>>, String> {
    let Some(n) = size_of(l)? else {
        return Ok(None);
    };
    if n > cap {
        return Ok(None);
    }
    let mut v = Vec::with_capacity(n as usize);
    for i in 0..n {
        match lib_eval_int(l, i as i128)? {
            Some(x) => match i64::try_from(x) {
                Ok(x) => v.push(x),
                Err(_) => return Ok(None),
            },
            None => return Ok(None),
        }
    }
    Ok(Some(v))
}

/// The buffer extent `[min, max]` of a set of offsets.
fn span(v: &[i64]) -> (i64, i64) {
    let lo = v.iter().copied().min().unwrap_or(0);
    let hi = v.iter().copied().max().unwrap_or(0);
    (lo, hi)
}

fn in_buf(base: i64, off: i64, len: usize) -> bool {
    base.checked_add(off)
        .is_some_and(|x| x >= 0 && (x as u128) < len as u128)
}

/// A base and a buffer length for offsets `v`: usually exactly covering,
/// sometimes one short (an out-of-buffer access).
fn buffer_for(src: &mut impl Src, v: &[i64]) -> (i64, usize) {
    let (lo, hi) = span(v);
    let extra = if src.chance(1, 4) { src.range(0, 3) } else { 0 };
    let base = i64::try_from(-(lo.min(0) as i128) + extra as i128).unwrap_or(i64::MAX);
    let mut len = usize::try_from((base as i128 + hi as i128 + 1).max(0)).unwrap_or(usize::MAX);
    if src.chance(1, 8) && len > 0 {
        len -= 1;
    }
    if src.chance(1, 8) {
        len = len.saturating_add(src.range(0, 5) as usize);
    }
    (base, len)
}

/// Runs tensor operation `op` and checks it; see [`super::run_op`].
pub fn run_tensor_op(op: usize, src: &mut impl Src) -> Result<Outcome, String> {
    match op % TENSOR_OPS.len() {
        0 => op_copy(src),
        1 => op_fill_clear(src),
        2 => op_tensor_slice(src),
        3 => op_partition(src),
        _ => op_gemm(src),
    }
}

fn op_copy(src: &mut impl Src) -> Result<Outcome, String> {
    let big = src.chance(1, 256);
    let (ls, ld) = if big {
        // large enough for the tiled and threaded paths
        let m = src.pick(&[256i64, 384, 512, 640]);
        let n = src.pick(&[256i64, 512, 3, 1024]);
        let cm = Layout::column_major(HTuple::flat([m, n])).map_err(|e| e.to_string())?;
        let rm = Layout::row_major(HTuple::flat([m, n])).map_err(|e| e.to_string())?;
        if src.chance(1, 2) {
            (cm, rm)
        } else {
            (rm, cm)
        }
    } else {
        let s = small_shape(src, 512);
        let ls = mem_layout(src, s);
        let n = ls.size().unwrap_or(1);
        let ds = if src.chance(1, 8) {
            small_shape(src, 512) // usually a size mismatch
        } else {
            factor_shape(src, n)
        };
        (ls, mem_layout(src, ds))
    };
    let cap = 1 << 20;
    let (Some(os), Some(od)) = (offsets(&ls, cap)?, offsets(&ld, cap)?) else {
        return Ok(Outcome::Rejected);
    };
    let (bs, lens) = buffer_for(src, &os);
    let (bd, lend) = buffer_for(src, &od);
    // large buffers only for the deliberate large copies (keeps the fuzzer fast)
    let max_len = if big { 1 << 21 } else { 1 << 14 };
    if lens > max_len || lend > max_len {
        return Ok(Outcome::Rejected);
    }
    let sdata: Vec<i64> = (0..lens as i64).map(|x| x * 7 + 1).collect();
    let mut ddata: Vec<i64> = vec![-1; lend];
    let before = ddata.clone();
    let valid = os.len() == od.len()
        && os.iter().all(|&o| in_buf(bs, o, lens))
        && od.iter().all(|&o| in_buf(bd, o, lend));
    let st = Tensor::new(Ptr::new(&sdata, bs), ls.clone());
    let r = {
        let mut dt = Tensor::new(PtrMut::new(&mut ddata, bd), ld.clone());
        copy(&st, &mut dt)
    };
    match (r, valid) {
        (Ok(()), true) => {
            let mut model = before;
            for (a, b) in os.iter().zip(&od) {
                model[(bd + b) as usize] = sdata[(bs + a) as usize];
            }
            if model != ddata {
                let k = model.iter().zip(&ddata).position(|(x, y)| x != y).unwrap_or(0);
                return fail(format!(
                    "copy({ls} base {bs}, {ld} base {bd}): element {k} is {}, expected {}",
                    ddata[k], model[k]
                ));
            }
            Ok(Outcome::Checked)
        }
        (Ok(()), false) => fail(format!(
            "copy({ls} base {bs} len {lens}, {ld} base {bd} len {lend}) succeeded but an access is outside or the sizes differ"
        )),
        (Err(e), true) => fail(format!(
            "copy({ls} base {bs} len {lens}, {ld} base {bd} len {lend}) failed: {e}"
        )),
        (Err(e), false) => {
            if ddata != before {
                return fail(format!("copy({ls}, {ld}) failed ({e}) after writing"));
            }
            if !matches!(e.kind(), ErrorKind::Bounds | ErrorKind::Value) {
                return fail(format!("copy({ls}, {ld}) failed with kind {}: {e}", e.kind()));
            }
            Ok(Outcome::Rejected)
        }
    }
}

fn op_fill_clear(src: &mut impl Src) -> Result<Outcome, String> {
    let s = small_shape(src, CAP);
    let l = mem_layout(src, s);
    let Some(o) = offsets(&l, CAP)? else {
        return Ok(Outcome::Rejected);
    };
    let (b, len) = buffer_for(src, &o);
    if len > (1 << 14) {
        return Ok(Outcome::Rejected);
    }
    let mut data: Vec<i64> = (0..len as i64).collect();
    let before = data.clone();
    let valid = o.iter().all(|&x| in_buf(b, x, len));
    let do_fill = src.chance(1, 2);
    let r = {
        let mut t = Tensor::new(PtrMut::new(&mut data, b), l.clone());
        if do_fill {
            fill(&mut t, -5)
        } else {
            clear(&mut t)
        }
    };
    let v = if do_fill { -5 } else { 0 };
    match (r, valid) {
        (Ok(()), true) => {
            let mut model = before;
            for x in &o {
                model[(b + x) as usize] = v;
            }
            if model != data {
                return fail(format!("fill/clear({l} base {b}) wrote the wrong elements"));
            }
            Ok(Outcome::Checked)
        }
        (Ok(()), false) => fail(format!(
            "fill/clear({l} base {b} len {len}) succeeded outside"
        )),
        (Err(e), true) => fail(format!("fill/clear({l} base {b} len {len}) failed: {e}")),
        (Err(_), false) => {
            if data != before {
                return fail(format!("fill/clear({l}) failed after writing"));
            }
            Ok(Outcome::Rejected)
        }
    }
}

fn op_tensor_slice(src: &mut impl Src) -> Result<Outcome, String> {
    let s = small_shape(src, CAP);
    let l = mem_layout(src, s);
    let Some(o) = offsets(&l, CAP)? else {
        return Ok(Outcome::Rejected);
    };
    let (b, len) = buffer_for(src, &o);
    if len > (1 << 14) {
        return Ok(Outcome::Rejected);
    }
    let data: Vec<i64> = (0..len as i64).map(|x| x * 3).collect();
    let t = Tensor::new(Ptr::new(&data, b), l.clone());
    // element access agrees with the layout
    for i in samples(0, o.len() as i128) {
        let k = o[i as usize];
        match (t.at(i as i64), in_buf(b, k, len)) {
            (Ok(v), true) if v == data[(b + k) as usize] => {}
            (Err(e), false) if e.kind() == ErrorKind::Bounds => {}
            (r, inside) => {
                return fail(format!(
                    "({l} base {b} len {len}).at({i}) = {r:?}, inside = {inside}"
                ))
            }
        }
    }
    // a slice reads what the full coordinates read
    let nc = src.pick(&[4, 8]);
    let c = coord_for(src, l.shape().as_ref(), nc);
    let sub = match t.slice(&c) {
        Ok(sub) => sub,
        Err(_) => return Ok(Outcome::Rejected),
    };
    let _ = (sub.to_string(), sub.repr());
    if let Ok(n) = sub.size() {
        for j in samples(0, (n as i128).min(CAP as i128)) {
            let jj = j as i64;
            let Ok(x) = sub.at(jj) else { continue };
            // the same element through the layout of the parent
            let jc: Coord = HTuple::leaf(Some(Scalar::Int(jj)));
            let Ok(nat) = shape::idx2crd(jc.as_ref(), sub.shape().as_ref()) else {
                continue;
            };
            let parts: Vec<HTuple<Scalar>> = if sub.layout().is_leaf() {
                vec![nat.clone()]
            } else {
                nat.as_ref().modes().map(|m| m.to_owned()).collect()
            };
            let Some(full) = super::fill_coord(c.as_ref(), &parts) else {
                continue;
            };
            match t.at(&full) {
                Ok(y) if y == x => {}
                other => {
                    return fail(format!(
                        "({l}) slice {} element {j} = {x}, full coordinate {} gives {other:?}",
                        DisplayCoord(c.as_ref()),
                        DisplayCoord(full.as_ref())
                    ))
                }
            }
        }
    }
    // identity tensors: element i is its natural coordinate
    let ishape = small_shape(src, 256);
    if let (Ok(id), false) = (identity_tensor(&ishape), ishape.is_leaf()) {
        let n = id.size().unwrap_or(0);
        for i in samples(0, n as i128) {
            let c: Coord = HTuple::leaf(Some(Scalar::Int(i as i64)));
            let (Ok(v), Ok(nat)) = (id.at(i as i64), shape::idx2crd(c.as_ref(), ishape.as_ref()))
            else {
                return fail(format!("identity_tensor({ishape}).at({i}) failed"));
            };
            if v != Scalar::from_tuple(nat.as_ref()) {
                return fail(format!(
                    "identity_tensor({ishape}).at({i}) = {v}, expected {nat}"
                ));
            }
        }
    }
    // tensor algebra keeps the elements
    if let Ok(tc) = t.view().coalesce() {
        if let (Ok(a), Ok(bv)) = (t.values(), tc.values()) {
            if a != bv {
                return fail(format!("coalesce of tensor {l} changed its elements"));
            }
        }
    }
    if len <= 256 {
        let _ = print_tensor(&t, true);
    }
    Ok(Outcome::Checked)
}

fn op_partition(src: &mut impl Src) -> Result<Outcome, String> {
    let s = small_shape(src, CAP);
    let l = mem_layout(src, s);
    let Some(o) = offsets(&l, CAP)? else {
        return Ok(Outcome::Rejected);
    };
    let (b, len) = buffer_for(src, &o);
    if len > (1 << 14) {
        return Ok(Outcome::Rejected);
    }
    let data: Vec<i64> = (0..len as i64).collect();
    let t = Tensor::new(Ptr::new(&data, b), l.clone());
    let tl = tiler(src, l.rank(), 1);
    let cs = gen_shape(src, 1);
    let c = coord_for(src, cs.as_ref(), 0);
    let results = [
        inner_partition(&t, &tl, &c),
        outer_partition(&t, &tl, &c),
        local_tile(&t, &tl, &c),
    ];
    let ts = small_shape(src, 64);
    let thr = mem_layout(src, ts);
    let idx = if src.chance(7, 8) {
        src.range(0, 63)
    } else {
        extent(src)
    };
    let lp = local_partition(&t, &thr, idx);
    let _ = tensor::flat_coord(&thr, idx);
    let mut any = false;
    for r in results.iter().chain([&lp]) {
        let Ok(p) = r else { continue };
        any = true;
        let _ = p.to_string();
        // every element it reads is an element of the buffer
        if let Ok(n) = p.size() {
            for i in samples(0, (n as i128).min(CAP as i128)) {
                if let Ok(v) = p.at(i as i64) {
                    if !(0..len as i64).contains(&v) {
                        return fail(format!("partition of {l} read {v}"));
                    }
                }
            }
        }
    }
    Ok(if any {
        Outcome::Checked
    } else {
        Outcome::Rejected
    })
}

fn op_gemm(src: &mut impl Src) -> Result<Outcome, String> {
    let (m, n, k) = (src.range(1, 6), src.range(1, 6), src.range(1, 6));
    let batch = src.chance(1, 3);
    let lb = if batch { src.range(1, 3) } else { 1 };
    let mk = |x: i64, y: i64| -> HTuple<i64> {
        if batch {
            HTuple::flat([x, y, lb])
        } else {
            HTuple::flat([x, y])
        }
    };
    let mut sa = mk(m, k);
    let sb = mk(n, k);
    let sc = mk(m, n);
    if src.chance(1, 10) {
        sa = small_shape(src, 64); // usually a mismatch
    }
    let (la, lbl, lc) = (
        mem_layout(src, sa),
        mem_layout(src, sb),
        mem_layout(src, sc),
    );
    let (Some(oa), Some(ob), Some(oc)) =
        (offsets(&la, CAP)?, offsets(&lbl, CAP)?, offsets(&lc, CAP)?)
    else {
        return Ok(Outcome::Rejected);
    };
    let (ba, lena) = buffer_for(src, &oa);
    let (bb, lenb) = buffer_for(src, &ob);
    let (bc, lenc) = buffer_for(src, &oc);
    if lena.max(lenb).max(lenc) > (1 << 14) {
        return Ok(Outcome::Rejected);
    }
    let da: Vec<i64> = (0..lena as i64).map(|x| x % 7 - 3).collect();
    let db: Vec<i64> = (0..lenb as i64).map(|x| x % 5 - 2).collect();
    let mut dc: Vec<i64> = (0..lenc as i64).map(|x| x % 3).collect();
    let before = dc.clone();
    let ta = Tensor::new(Ptr::new(&da, ba), la.clone());
    let tb = Tensor::new(Ptr::new(&db, bb), lbl.clone());
    let r = {
        let mut tc = Tensor::new(PtrMut::new(&mut dc, bc), lc.clone());
        gemm(&ta, &tb, &mut tc)
    };
    let shapes_ok = oa.len() as i64 == m * k * lb
        && la.rank() == if batch { 3 } else { 2 }
        && la
            .modes()
            .zip([m, k, lb])
            .all(|(md, e)| md.size().ok() == Some(e));
    let inside = oa.iter().all(|&x| in_buf(ba, x, lena))
        && ob.iter().all(|&x| in_buf(bb, x, lenb))
        && oc.iter().all(|&x| in_buf(bc, x, lenc));
    match r {
        Ok(()) => {
            if !inside || !shapes_ok {
                return fail(format!(
                    "gemm({la}, {lbl}, {lc}) succeeded with shapes_ok {shapes_ok}, inside {inside}"
                ));
            }
            // model: the reference loops l, k, n, m
            let mut model = before;
            let idx = |l: &Layout, c: [i64; 3]| -> Result<i64, String> {
                let coord: Coord = if batch {
                    HTuple::flat(c.map(|x| Some(Scalar::Int(x))))
                } else {
                    HTuple::flat([Some(Scalar::Int(c[0])), Some(Scalar::Int(c[1]))])
                };
                match l.eval(coord.as_ref()) {
                    Ok(Scalar::Int(v)) => Ok(v),
                    other => Err(format!("eval {l}: {other:?}")),
                }
            };
            for li in 0..lb {
                for ki in 0..k {
                    for ni in 0..n {
                        for mi in 0..m {
                            let a = da[(ba + idx(&la, [mi, ki, li])?) as usize];
                            let bv = db[(bb + idx(&lbl, [ni, ki, li])?) as usize];
                            let ci = (bc + idx(&lc, [mi, ni, li])?) as usize;
                            model[ci] += a * bv;
                        }
                    }
                }
            }
            if model != dc {
                return fail(format!(
                    "gemm({la}, {lbl}, {lc}) differs from the reference loops"
                ));
            }
            Ok(Outcome::Checked)
        }
        Err(e) => {
            if dc != before {
                return fail(format!(
                    "gemm({la}, {lbl}, {lc}) failed ({e}) after writing"
                ));
            }
            if inside && shapes_ok && sb_ok(&lbl, n, k, lb) && sb_ok(&lc, m, n, lb) {
                return fail(format!("gemm({la}, {lbl}, {lc}) failed: {e}"));
            }
            Ok(Outcome::Rejected)
        }
    }
}

fn sb_ok(l: &Layout, x: i64, y: i64, lb: i64) -> bool {
    let want: Vec<i64> = if l.rank() == 3 {
        vec![x, y, lb]
    } else {
        vec![x, y]
    };
    l.rank() == want.len() && l.modes().zip(want).all(|(md, e)| md.size().ok() == Some(e))
}

/// Accessor trait use (keeps the import meaningful for every driver).
pub fn read_all<A: Accessor>(t: &Tensor<A>) -> usize {
    t.values().map(|v| v.len()).unwrap_or(0)
}
