//! A tiled transpose written with the partitioning helpers: the source and
//! the destination are tiled identically with `local_tile`, each tile pair
//! is copied by `copy` (the layouts make it a transpose), and ragged edge
//! tiles are predicated with the identity tensor tiled the same way
//! (`docs/tensors.md`).
//!
//! Run: `cargo run -p rcute --example tiled_transpose`.

use rcute::tensor::{
    copy, identity_tensor, local_tile, local_tile_mut, Accessor, AccessorMut, Tensor,
};
use rcute::{int, Error, HTuple, Layout, Result, Scalar, Tiler};

/// Copies `src` into `dst` (both `M x N`, any layouts) tile by tile with
/// `BM x BN` tiles. Full tiles are copied with one `copy`; a tile crossing
/// the edge copies only the elements whose coordinate, read from the
/// identity tensor tiled the same way, lies inside `(M, N)`.
pub fn tiled_copy<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>, bm: i64, bn: i64) -> Result<()>
where
    S: Accessor,
    D: AccessorMut<Value = S::Value>,
    S::Value: Clone + Send + Sync,
{
    let mn = |l: &Layout| -> Result<(i64, i64)> { Ok((l.mode(0)?.size()?, l.mode(1)?.size()?)) };
    let (m, n) = mn(src.layout())?;
    if src.rank() != 2 || dst.rank() != 2 || mn(dst.layout())? != (m, n) {
        return Err(Error::value(format!(
            "tiled_copy: {} and {} are not both M x N",
            src.layout(),
            dst.layout()
        )));
    }
    let tiler = Tiler::Tuple(vec![Tiler::Int(bm), Tiler::Int(bn)].into());
    let ident = identity_tensor((m, n))?;
    let (tm, tn) = (int::ceil_div(m, bm)?, int::ceil_div(n, bn)?);
    for j in 0..tn {
        for i in 0..tm {
            let s = local_tile(src, &tiler, (i, j))?;
            let mut d = local_tile_mut(dst, &tiler, (i, j))?;
            if int::mul(int::add(i, 1)?, bm)? <= m && int::mul(int::add(j, 1)?, bn)? <= n {
                copy(&s, &mut d)?;
                continue;
            }
            let id = local_tile(&ident, &tiler, (i, j))?;
            for k in 0..id.size()? {
                let c = id.at(k)?;
                let (x, y) = (c.get_path(&[0])?, c.get_path(&[1])?);
                if x.as_int().is_some_and(|x| x < m) && y.as_int().is_some_and(|y| y < n) {
                    d.set(k, s.at(k)?)?;
                }
            }
        }
    }
    Ok(())
}

/// `(m, n)` column-major and row-major layouts.
pub fn col_major(m: i64, n: i64) -> Layout {
    Layout::column_major(HTuple::flat([m, n])).expect("positive extents")
}
pub fn row_major(m: i64, n: i64) -> Layout {
    Layout::row_major(HTuple::flat([m, n])).expect("positive extents")
}

fn main() -> Result<()> {
    let (m, n) = (10, 7);
    // a column-major M x N matrix holding its own linear index
    let src = Tensor::from_vec((0..m * n).collect::<Vec<i64>>(), col_major(m, n))?;
    let mut dst = Tensor::from_vec(vec![-1i64; (m * n) as usize], row_major(m, n))?;
    tiled_copy(&src, &mut dst, 4, 4)?;
    // the row-major buffer of the same matrix: element (x, y) at x*n + y
    let out = dst.accessor().as_slice();
    for x in 0..m {
        for y in 0..n {
            assert_eq!(out[(x * n + y) as usize], x + m * y);
        }
    }
    let t = Tensor::new(dst.accessor().view(), Layout::leaf(m * n, Scalar::Int(1)));
    println!("transposed 10x7 with 4x4 tiles: {:?}", &t.values()?[..14]);
    Ok(())
}
