//! The bad-input catalogue of the library (`docs/limits.md`): hostile
//! operands for the Rust API, each with the error kind it must give. No
//! input may panic, overflow the stack or hang. The notation's catalogue is
//! `tests/bad_input.cute` (run through the CLI by
//! `crates/rcute-cli/tests/all/bad_input.rs`); regression cases found by the
//! fuzz targets live at the end of this file.

use rcute::algebra::{self, Scale};
use rcute::htuple::{Builder, MAX_DEPTH, MAX_LEAVES};
use rcute::notation;
use rcute::shape::{self, Coord};
use rcute::stride::{prefix_product, Scalar};
use rcute::tensor::{self, Tensor};
use rcute::tiler::tiler_to_layout;
use rcute::{ErrorKind, HTuple, Layout, Swizzle, Tiler};

const P62: i64 = 1 << 62;
const N: usize = 100_000;

fn ints(v: &[i64]) -> HTuple<Scalar> {
    HTuple::flat(v.iter().map(|&x| Scalar::Int(x)))
}

fn lay(s: &[i64], d: &[i64]) -> Layout {
    Layout::new(HTuple::flat(s.iter().copied()), ints(d)).expect("a valid layout")
}

fn lay1(s: i64, d: i64) -> Layout {
    Layout::leaf(s, Scalar::Int(d))
}

fn t(l: Layout) -> Tiler {
    Tiler::Layout(l)
}

/// A shape nested `n` levels deep: `((...(4,)...),)`.
fn deep_shape(n: usize) -> HTuple<i64> {
    let mut b = Builder::new();
    for _ in 0..n {
        b.open();
    }
    b.leaf(4);
    b.finish()
}

fn deep_stride(n: usize) -> HTuple<Scalar> {
    let mut b = Builder::new();
    for _ in 0..n {
        b.open();
    }
    b.leaf(Scalar::Int(1));
    b.finish()
}

fn deep_tiler(n: usize) -> Tiler {
    let mut x = Tiler::Int(2);
    for _ in 0..n {
        x = Tiler::Tuple(vec![x].into());
    }
    x
}

fn coord(v: &[i64]) -> Coord {
    HTuple::flat(v.iter().map(|&x| Some(Scalar::Int(x))))
}

type Case = (
    &'static str,
    Box<dyn Fn() -> rcute::Result<String>>,
    ErrorKind,
);

fn s<T: std::fmt::Display>(r: rcute::Result<T>) -> rcute::Result<String> {
    r.map(|x| x.to_string())
}

fn catalogue() -> Vec<Case> {
    use ErrorKind::*;
    let mut c: Vec<Case> = Vec::new();
    macro_rules! bad {
        ($name:expr, $kind:expr, $body:expr) => {
            c.push(($name, Box::new(move || $body), $kind));
        };
    }
    // --- shape/stride not congruent
    bad!(
        "rank 2 shape, rank 1 stride",
        Congruence,
        s(Layout::new(HTuple::flat([4, 8]), ints(&[1])))
    );
    bad!(
        "leaf shape, tuple stride",
        Congruence,
        s(Layout::new(HTuple::leaf(4), ints(&[1, 2])))
    );
    bad!(
        "nested shape, flat stride",
        Congruence,
        s(Layout::new(
            HTuple::tuple([HTuple::leaf(4), HTuple::flat([2, 2])]),
            ints(&[1, 4, 8])
        ))
    );
    bad!(
        "empty shape, leaf stride",
        Congruence,
        s(Layout::new(HTuple::empty(), HTuple::leaf(Scalar::Int(1))))
    );
    bad!(
        "prefix-product stride of another rank",
        Rank,
        s(Layout::with_stride(
            HTuple::flat([4, 8, 2]),
            ints(&[1, 2]).as_ref()
        ))
    );
    bad!(
        "prefix-product stride tuple under a leaf",
        Congruence,
        s(Layout::with_stride(
            HTuple::flat([4, 8]),
            HTuple::tuple([HTuple::leaf(Scalar::Int(1)), ints(&[1, 2])]).as_ref()
        ))
    );
    // --- zero and negative extents
    bad!(
        "zero extent",
        Value,
        s(Layout::new(HTuple::flat([4, 0]), ints(&[1, 4])))
    );
    bad!(
        "negative extent",
        Value,
        s(Layout::new(HTuple::leaf(-3), HTuple::leaf(Scalar::Int(1))))
    );
    bad!(
        "i64::MIN extent",
        Value,
        s(Layout::new(
            HTuple::leaf(i64::MIN),
            HTuple::leaf(Scalar::Int(1))
        ))
    );
    bad!(
        "column_major zero",
        Value,
        s(Layout::column_major(HTuple::flat([0, 2])))
    );
    bad!(
        "row_major negative",
        Value,
        s(Layout::row_major(HTuple::flat([2, -2])))
    );
    bad!(
        "identity layout of zero",
        Value,
        s(algebra::make_identity_layout(HTuple::flat([0, 4]).as_ref()))
    );
    bad!(
        "integer tiler 0",
        Value,
        s(algebra::composition(&lay1(8, 1), &Tiler::Int(0)))
    );
    bad!(
        "integer tiler -1 in a product",
        Value,
        s(algebra::logical_product(&lay1(8, 1), &Tiler::Int(-1)))
    );
    bad!(
        "integer tiler 0 in a divide",
        Value,
        s(algebra::logical_divide(&lay1(8, 1), &Tiler::Int(0)))
    );
    bad!(
        "greatest_common_domain of a zero extent",
        Value,
        s(algebra::greatest_common_domain(
            HTuple::flat([0]).as_ref(),
            HTuple::flat([4]).as_ref()
        ))
    );
    bad!(
        "identity tensor of a zero extent",
        Value,
        s(tensor::identity_tensor((4, 0)))
    );
    // --- i64 overflow: size, cosize, prefix products, evaluation
    bad!("size 2^62 * 4", Overflow, s(lay(&[P62, 4], &[1, 0]).size()));
    bad!(
        "size 2^31^2 * 2",
        Overflow,
        s(shape::size(HTuple::flat([1 << 31, 1 << 31, 2]).as_ref()))
    );
    bad!(
        "size of 100 twos",
        Overflow,
        s(shape::size(HTuple::flat(vec![2i64; 100]).as_ref()))
    );
    bad!(
        "cosize (2^62-1)*2^62",
        Overflow,
        s(algebra::cosize(&lay(&[P62, 3], &[1, P62])))
    );
    bad!(
        "cosize i64::MAX:2",
        Overflow,
        s(algebra::cosize(&lay1(i64::MAX, 2)))
    );
    bad!(
        "prefix product 2^62 * 2",
        Overflow,
        s(prefix_product(
            HTuple::flat([P62, 2, 2]).as_ref(),
            &Scalar::Int(1)
        ))
    );
    bad!(
        "column_major 2^62 x 2 x 2",
        Overflow,
        s(Layout::column_major(HTuple::flat([P62, 2, 2])))
    );
    bad!(
        "row_major 2 x 2^62 x 4",
        Overflow,
        s(Layout::row_major(HTuple::flat([2, P62, 4])))
    );
    bad!("eval 8:2^62 at 2", Overflow, s(lay1(8, P62).eval_index(2)));
    bad!(
        "eval 8:-2^62 at 3",
        Overflow,
        s(lay1(8, -P62).eval_index(3))
    );
    bad!(
        "eval at i64::MAX",
        Overflow,
        s(lay(&[4, 4], &[1, 8]).eval_index(i64::MAX))
    );
    bad!(
        "eval natural coordinate",
        Overflow,
        s(lay(&[P62, 4], &[2, P62]).eval(coord(&[1, 3]).as_ref()))
    );
    bad!(
        "crd2idx 3 * 2^62",
        Overflow,
        s(shape::crd2idx(
            coord(&[3, 3]).as_ref(),
            HTuple::flat([P62, 4]).as_ref()
        ))
    );
    bad!(
        "i64::MAX + 1 stride sum",
        Overflow,
        s(Scalar::Int(i64::MAX).add(&Scalar::Int(1)))
    );
    bad!("neg i64::MIN", Overflow, s(Scalar::Int(i64::MIN).neg()));
    bad!(
        "basis sum overflow",
        Overflow,
        s(Scalar::basis(i64::MAX, &[0]).add(&Scalar::basis(1, &[0])))
    );
    bad!(
        "complement reaching 2^63",
        Overflow,
        s(algebra::complement(&lay(&[2, P62], &[1, 2]), None))
    );
    bad!(
        "composition 2:2^62 * 2",
        Overflow,
        s(algebra::composition(&lay1(i64::MAX, 1), &t(lay1(2, P62))))
    );
    bad!(
        "right_inverse 2^62 * 4",
        Overflow,
        s(algebra::right_inverse(&lay(&[P62, 4], &[1, P62])))
    );
    bad!(
        "recast i64::MAX by 1/2",
        Overflow,
        s(algebra::recast(
            &lay1(i64::MAX, 1),
            &Scale::Ratio { num: 1, den: 2 }
        ))
    );
    bad!(
        "downcast 2^62 by 4",
        Overflow,
        s(algebra::downcast(&lay1(P62, 1), 4))
    );
    bad!(
        "logical_divide by 2^62:2",
        Overflow,
        s(algebra::logical_divide(
            &lay1(i64::MAX, 1),
            &t(lay1(P62, 2))
        ))
    );
    // --- division by zero in recast, upcast, downcast
    bad!(
        "recast by 0",
        Value,
        s(algebra::recast(&lay1(8, 1), &Scale::int(0)))
    );
    bad!(
        "recast by 1/0",
        Value,
        s(algebra::recast(
            &lay1(8, 1),
            &Scale::Ratio { num: 1, den: 0 }
        ))
    );
    bad!(
        "recast by 0/3",
        Value,
        s(algebra::recast(
            &lay1(8, 1),
            &Scale::Ratio { num: 0, den: 3 }
        ))
    );
    bad!("upcast by 0", Value, s(algebra::upcast(&lay1(8, 1), 0)));
    bad!("downcast by 0", Value, s(algebra::downcast(&lay1(8, 1), 0)));
    bad!("upcast by -2", Value, s(algebra::upcast(&lay1(8, 1), -2)));
    bad!(
        "recast to a negative shape",
        Value,
        s(algebra::recast(&lay1(8, -2), &Scale::int(2)))
    );
    bad!(
        "upcast 24:3 by 2",
        Divisibility,
        s(algebra::upcast(&lay1(24, 3), 2))
    );
    bad!(
        "downcast without a unit stride",
        Value,
        s(algebra::downcast(&lay(&[4, 6], &[2, 8]), 2))
    );
    // --- tiler rank mismatch
    let three = || Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2), Tiler::Int(2)].into());
    bad!(
        "composition rank mismatch",
        Rank,
        s(algebra::composition(&lay(&[4, 8], &[1, 4]), &three()))
    );
    bad!(
        "logical_divide rank mismatch",
        Rank,
        s(algebra::logical_divide(&lay(&[4, 8], &[1, 4]), &three()))
    );
    bad!(
        "logical_product rank mismatch",
        Rank,
        s(algebra::logical_product(&lay(&[4, 8], &[1, 4]), &three()))
    );
    bad!(
        "coalesce profile too long",
        Rank,
        s(algebra::coalesce_by_mode(&lay(&[4, 8], &[1, 4]), &three()))
    );
    bad!(
        "filter profile too long",
        Rank,
        s(algebra::filter_by_mode(&lay(&[4, 8], &[1, 4]), &three()))
    );
    bad!(
        "zipped_divide of a leaf by a tuple of two",
        Rank,
        s(algebra::zipped_divide(
            &lay1(8, 1),
            &Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)].into())
        ))
    );
    bad!(
        "tiler_to_layout with None",
        Type,
        s(tiler_to_layout(&Tiler::Tuple(
            vec![Tiler::None, Tiler::Int(4)].into()
        )))
    );
    bad!(
        "append below the rank",
        Rank,
        s(algebra::append(
            &lay(&[4, 8], &[1, 4]),
            &lay1(1, 0),
            Some(1)
        ))
    );
    bad!(
        "prepend to a huge rank",
        Value,
        s(algebra::prepend(&lay1(4, 1), &lay1(1, 0), Some(usize::MAX)))
    );
    bad!(
        "group past the rank",
        Bounds,
        s(algebra::group(&lay(&[4, 8], &[1, 4]), 1, 3))
    );
    bad!(
        "tile_unzip of a leaf by a tuple",
        Rank,
        s(algebra::tile_unzip(
            &lay1(8, 1),
            &Tiler::Tuple(vec![Tiler::Int(2)].into())
        ))
    );
    bad!(
        "tile_to_shape that does not divide",
        Divisibility,
        s(algebra::tile_to_shape(
            &lay(&[8, 8], &[8, 1]),
            HTuple::flat([36i64, 64]).as_ref(),
            None
        ))
    );
    bad!(
        "domain_distribute of 0",
        Value,
        s(algebra::domain_distribute(
            HTuple::flat([4i64, 8]).as_ref(),
            0
        ))
    );
    bad!(
        "idx2crd with a zero stride",
        Value,
        s(rcute::algebra::modes::idx2crd_strided(
            HTuple::leaf(Some(Scalar::Int(7))).as_ref(),
            HTuple::leaf(3i64).as_ref(),
            HTuple::leaf(Scalar::Int(0)).as_ref()
        ))
    );
    bad!("Swizzle(40,40,40)", Value, s(Swizzle::new(40, 40, 40)));
    // --- invalid basis paths and mode paths
    bad!(
        "get into a leaf",
        Type,
        s(lay(&[4, 8], &[1, 4]).get(&[0, 0]))
    );
    bad!(
        "get past the rank",
        Bounds,
        s(lay(&[4, 8], &[1, 4]).get(&[5]))
    );
    bad!(
        "mode past the rank",
        Bounds,
        s(lay(&[4, 8], &[1, 4]).mode(2))
    );
    bad!(
        "negative mode past the rank",
        Bounds,
        s(lay(&[4, 8], &[1, 4]).mode(-3))
    );
    bad!(
        "basis path into an integer",
        Type,
        s(Scalar::Int(3).get_path(&[0]))
    );
    bad!("negative basis index", Value, s(Scalar::Int(1).at(-1)));
    bad!("huge basis index", Value, s(Scalar::Int(1).at(i64::MAX)));
    bad!(
        "basis nested past the limit",
        Value,
        s((0..=MAX_DEPTH).try_fold(Scalar::Int(1), |x, _| x.at(0)))
    );
    bad!(
        "basis term of a multi-term value",
        Type,
        s(Scalar::basis(1, &[0])
            .add(&Scalar::basis(1, &[1]))
            .and_then(|x| x.basis_term().map(|(v, _)| v)))
    );
    bad!(
        "mixing integer and basis",
        Type,
        s(Scalar::Int(2).add(&Scalar::basis(1, &[0])))
    );
    bad!(
        "F2 times a negative",
        Value,
        s(Scalar::F2(3).mul(&Scalar::Int(-1)))
    );
    bad!(
        "right_inverse of mixed strides",
        Type,
        s(algebra::right_inverse(
            &Layout::new(
                HTuple::flat([4, 8]),
                HTuple::flat([Scalar::Int(1), Scalar::basis(1, &[1])])
            )
            .unwrap()
        ))
    );
    bad!(
        "complement of F2 strides",
        Type,
        s(algebra::complement(&Layout::leaf(4, Scalar::F2(1)), None))
    );
    // --- coordinates that do not fit
    bad!(
        "coordinate of 3 modes for rank 2",
        Rank,
        s(lay(&[4, 8], &[1, 4]).eval(coord(&[1, 2, 3]).as_ref()))
    );
    bad!(
        "slice of rank 3 for rank 2",
        Rank,
        s(algebra::slice(
            &lay(&[4, 8], &[1, 4]),
            coord(&[1, 2, 3]).as_ref()
        ))
    );
    bad!(
        "tuple coordinate for a leaf",
        Rank,
        s(lay1(4, 1).eval(coord(&[1, 2]).as_ref()))
    );
    // --- preconditions of the algebra
    bad!(
        "complement non-injective",
        Injectivity,
        s(algebra::complement(&lay(&[2, 2], &[1, 1]), None))
    );
    bad!(
        "left_inverse non-injective",
        Injectivity,
        s(algebra::left_inverse(&lay(&[63, 2], &[1, 1])))
    );
    bad!(
        "left_inverse not a chain",
        Divisibility,
        s(algebra::left_inverse(&lay(&[2, 2], &[2, 3])))
    );
    bad!(
        "composition shape divisibility",
        Divisibility,
        s(algebra::composition(
            &lay(&[4, 6, 8], &[2, 3, 5]),
            &t(lay1(6, 3))
        ))
    );
    bad!(
        "composition no exact layout",
        Divisibility,
        s(algebra::composition(
            &lay(&[6, 2], &[1, 7]),
            &t(lay(&[3, 2], &[2, 3]))
        ))
    );
    bad!(
        "composition with negative B stride",
        Value,
        s(algebra::composition(
            &lay(&[2, 3], &[1, 10]),
            &t(lay1(2, -1))
        ))
    );
    bad!(
        "layout_add size mismatch",
        Value,
        s(algebra::layout_add(&lay1(12, 1), &lay1(6, 1)))
    );
    bad!(
        "Swizzle overlapping fields",
        Value,
        s(Swizzle::new(3, 4, 2))
    );
    bad!("Swizzle negative bits", Value, s(Swizzle::new(-1, 4, 3)));
    bad!("Swizzle negative base", Value, s(Swizzle::new(3, -4, 3)));
    bad!(
        "depth of ()",
        Value,
        s(Layout::new((), ()).unwrap().depth())
    );
    // --- tensors
    bad!(
        "tensor read outside its buffer",
        Bounds,
        s(Tensor::from_vec(vec![0i32; 5], lay(&[2, 3], &[1, 2]))
            .unwrap()
            .at(5))
    );
    bad!("copy size mismatch", Value, {
        let src = Tensor::from_vec(vec![0i32; 6], lay1(6, 1)).unwrap();
        let mut dst = Tensor::from_vec(vec![0i32; 4], lay1(4, 1)).unwrap();
        s(tensor::copy(&src, &mut dst).map(|_| 0))
    });
    bad!("copy into a short buffer", Bounds, {
        let src = Tensor::from_vec(vec![1i32; 6], lay1(6, 1)).unwrap();
        let mut dst = Tensor::from_vec(vec![0i32; 5], lay1(6, 1)).unwrap();
        s(tensor::copy(&src, &mut dst).map(|_| 0))
    });
    bad!(
        "make_tensor negative stride",
        Value,
        s(tensor::make_tensor::<u8>(lay1(3, -1)).map(|t| t.size().unwrap_or(0)))
    );
    bad!(
        "make_tensor of 2^62 elements",
        Value,
        s(tensor::make_tensor::<u8>(lay1(P62, 1)).map(|t| t.size().unwrap_or(0)))
    );
    bad!(
        "make_tensor cosize overflow",
        Overflow,
        s(tensor::make_tensor::<u8>(lay(&[P62, 4], &[1, P62])).map(|t| t.size().unwrap_or(0)))
    );
    bad!("gemm rank mismatch", Rank, {
        let a = Tensor::from_vec(vec![1i64; 6], lay(&[2, 3], &[1, 2])).unwrap();
        let b = Tensor::from_vec(vec![1i64; 6], lay1(6, 1)).unwrap();
        let mut c = Tensor::from_vec(vec![0i64; 4], lay(&[2, 2], &[1, 2])).unwrap();
        s(tensor::gemm(&a, &b, &mut c).map(|_| 0))
    });
    // --- depth and rank limits (docs/limits.md)
    bad!(
        "10^5-deep shape",
        Value,
        s(Layout::new(deep_shape(N), deep_stride(N)))
    );
    bad!(
        "65-deep shape",
        Value,
        s(Layout::new(
            deep_shape(MAX_DEPTH + 1),
            deep_stride(MAX_DEPTH + 1)
        ))
    );
    bad!(
        "10^5-deep column_major",
        Value,
        s(Layout::column_major(deep_shape(N)))
    );
    bad!(
        "10^5-deep shape, flat stride",
        Value,
        s(Layout::new(deep_shape(N), ints(&[1])))
    );
    bad!(
        "10^5-rank layout",
        Value,
        s(Layout::new(HTuple::flat(vec![2i64; N]), ints(&vec![1; N])))
    );
    bad!(
        "10^5-rank column_major",
        Value,
        s(Layout::column_major(HTuple::flat(vec![1i64; N])))
    );
    bad!(
        "10^5-rank row_major",
        Value,
        s(Layout::row_major(HTuple::flat(vec![1i64; N])))
    );
    bad!(
        "MAX_LEAVES + 1 leaves",
        Value,
        s(Layout::new(
            HTuple::flat(vec![1i64; MAX_LEAVES + 1]),
            ints(&vec![0; MAX_LEAVES + 1])
        ))
    );
    bad!(
        "1000-deep tiler",
        Value,
        s(algebra::composition(&lay1(8, 1), &deep_tiler(1000)))
    );
    bad!(
        "1000-deep tiler_to_layout",
        Value,
        s(tiler_to_layout(&deep_tiler(1000)))
    );
    bad!(
        "1000-deep tiler in logical_divide",
        Value,
        s(algebra::logical_divide(&lay1(8, 1), &deep_tiler(1000)))
    );
    bad!(
        "1000-deep tiler in logical_product",
        Value,
        s(algebra::logical_product(&lay1(8, 1), &deep_tiler(1000)))
    );
    // --- the notation (parse errors, names, arguments)
    bad!("malformed hex", Parse, notation::eval_str("0xg"));
    bad!("malformed binary", Parse, notation::eval_str("0b2"));
    bad!("exponent", Parse, notation::eval_str("1e5"));
    bad!("decimal point", Parse, notation::eval_str("1.5"));
    bad!(
        "integer literal past 64 bits",
        Overflow,
        notation::eval_str("99999999999999999999")
    );
    bad!("unterminated tuple", Parse, notation::eval_str("(4,8"));
    bad!(
        "unterminated stride",
        Parse,
        notation::eval_str("(4,8):(1,4")
    );
    bad!(
        "unterminated C++ tuple",
        Parse,
        notation::eval_str("<4:1, 8:2")
    );
    bad!("stray parenthesis", Parse, notation::eval_str("(4,8))"));
    bad!(
        "unknown function",
        Value,
        notation::eval_str("sizee((4,8))")
    );
    bad!(
        "too few arguments",
        Type,
        notation::eval_str("composition(4:1)")
    );
    bad!("too many arguments", Type, notation::eval_str("size(1, 2)"));
    // swizzled layouts in the tuple operations and partitions
    bad!(
        "local_tile of a swizzled layout, coordinate rank",
        Rank,
        notation::eval_str("local_tile(Sw<3,3,3> o (8,64):(64,1), (8,8), (0,1,2))")
    );
    bad!(
        "local_partition of a swizzled layout, stride-0 threads",
        Value,
        notation::eval_str("local_partition(Sw<3,3,3> o (8,64):(64,1), (2,4):(4,0), 5)")
    );
    bad!(
        "take past a swizzled layout's rank",
        Bounds,
        notation::eval_str("take(Sw<3,3,3> o (8,64):(64,1), (0,3))")
    );
    bad!(
        "select past a swizzled layout's rank",
        Bounds,
        notation::eval_str("select(Sw<3,3,3> o (8,64):(64,1), 2)")
    );
    bad!(
        "append an integer to a swizzled layout",
        Type,
        notation::eval_str("append(Sw<3,3,3> o (8,64):(64,1), 2)")
    );
    bad!(
        "prepend to a negative rank",
        Value,
        notation::eval_str("prepend(Sw<3,3,3> o (8,64):(64,1), 2:0, -1)")
    );
    bad!(
        "group past a swizzled layout's rank",
        Bounds,
        notation::eval_str("group(Sw<3,3,3> o (8,64):(64,1), (1,3))")
    );
    bad!(
        "flatten with an extra argument",
        Type,
        notation::eval_str("flatten(Sw<3,3,3> o (8,64):(64,1), 1)")
    );
    bad!(
        "filter_zeros with an extra argument",
        Type,
        notation::eval_str("filter_zeros(Sw<3,3,3> o (8,64):(64,1), 1)")
    );
    bad!(
        "nullspace with an extra argument",
        Type,
        notation::eval_str("nullspace(Sw<3,3,3> o (8,64):(64,1), 1)")
    );
    // a layout after a swizzled layout (C++ composition(Layout, ComposedLayout))
    bad!(
        "a layout after a swizzle whose fields it does not carry",
        Divisibility,
        notation::eval_str("composition(512:3, Sw<3,3,3> o (8,64):(64,1))")
    );
    bad!(
        "a layout after a swizzle, C++'s form wrong",
        Divisibility,
        notation::eval_str("composition((8,64):(72,1), Sw<3,3,3> o (8,64):(64,1))")
    );
    bad!(
        "a layout after a swizzled layout with an offset",
        Value,
        notation::eval_str("composition((8,64):(64,1), Sw<3,3,3> o 64 o (8,64):(64,1))")
    );
    bad!(
        "a layout after a swizzled layout too large to check",
        Value,
        notation::eval_str("composition((8,64):(64,1), Sw<3,3,3> o (512,512):(1,512))")
    );
    bad!(
        "a mode-indexed composition with a swizzled layout",
        Type,
        notation::eval_str("composition[0]((8,64):(64,1), Sw<3,3,3> o (8,64):(64,1))")
    );
    bad!(
        "a swizzled layout after a swizzled layout",
        Type,
        notation::eval_str("composition(Sw<3,3,3> o (8,8):(8,1), Sw<3,3,3> o (8,8):(8,1))")
    );
    bad!(
        "a coordinate layout after a swizzle",
        Type,
        notation::eval_str("composition((8,64):(1@0,1@1), Swizzle(3,3,3))")
    );
    bad!(
        "after_layout: stride 3",
        Divisibility,
        s(rcute::SwizzledLayout::after_layout(
            &lay1(512, 3),
            &rcute::SwizzledLayout::new(Swizzle::new(3, 3, 3)?, lay(&[8, 64], &[64, 1]))?
        ))
    );
    bad!(
        "layout_after_swizzle: stride 3",
        Divisibility,
        s(rcute::SwizzledLayout::layout_after_swizzle(
            &lay1(512, 3),
            &Swizzle::new(3, 3, 3)?
        ))
    );
    // the other swizzled operations
    bad!(
        "flat_divide of a swizzled layout by an F2 value",
        Type,
        notation::eval_str("flat_divide(Sw<3,3,3> o (8,64):(64,1), F2(3))")
    );
    bad!(
        "tiled_divide of a swizzled layout by a basis",
        Type,
        notation::eval_str("tiled_divide(Sw<3,3,3> o (8,64):(64,1), 1@0)")
    );
    bad!(
        "logical_product of a swizzled layout by an F2 value",
        Type,
        notation::eval_str("logical_product(Sw<3,3,3> o (8,64):(64,1), F2(3))")
    );
    bad!(
        "raked_product of a swizzled layout by a basis",
        Type,
        notation::eval_str("raked_product(Sw<3,3,3> o (8,64):(64,1), 1@0)")
    );
    bad!(
        "tile_to_shape of a swizzled atom that does not divide",
        Divisibility,
        notation::eval_str("tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (36,64))")
    );
    bad!(
        "bank_conflicts of a swizzled layout, element size 0",
        Value,
        notation::eval_str("bank_conflicts(Sw<3,3,3> o (8,64):(64,1), 32:1, 0)")
    );
    bad!(
        "mode past a swizzled layout's rank",
        Bounds,
        notation::eval_str("get(Sw<3,3,3> o (8,64):(64,1), 2)")
    );
    bad!(
        "cosize of a swizzled layout with a basis stride",
        Type,
        notation::eval_str("cosize(Sw<3,3,3> o (8,64):(64,1@0))")
    );
    bad!(
        "select past a layout's rank",
        Bounds,
        notation::eval_str("select((4,8):(1,4), (0,5))")
    );
    bad!(
        "take past a layout's rank",
        Bounds,
        notation::eval_str("take((4,8):(1,4), (0,3))")
    );
    // printed tensors read back (`{b} o L`, `Array(n x i64)+k o L`)
    bad!(
        "tensor with three parts",
        Parse,
        notation::eval_str("{1} o 4:1 o 8:1")
    );
    bad!("unclosed accessor", Parse, notation::eval_str("{1"));
    bad!(
        "array of another type",
        Parse,
        notation::eval_str("Array(6 x f32) o 6:1")
    );
    bad!(
        "array start past its end",
        Bounds,
        notation::eval_str("Array(6 x i64)+7 o 6:1")
    );
    bad!(
        "negative array length",
        Value,
        notation::eval_str("ArrayAccessor(-1)")
    );
    bad!(
        "tensor of a swizzle",
        Type,
        notation::eval_str("Tensor(Swizzle(3,4,3), 4:1)")
    );
    bad!(
        "tensor over a shape",
        Type,
        notation::eval_str("Tensor({0}, (4,8))")
    );
    bad!(
        "array tensor read past the buffer",
        Bounds,
        notation::eval_str("(Array(6 x i64)+3 o 3:2)(2)")
    );
    bad!(
        "unknown keyword",
        Type,
        notation::eval_str("coalesce(4:1, foo=1)")
    );
    bad!(
        "boolean as a tiler",
        Type,
        notation::eval_str("composition(4:1, True)")
    );
    bad!(
        "fraction as a tiler",
        Type,
        notation::eval_str("logical_divide(4:1, 1/2)")
    );
    bad!(
        "integer division by zero",
        Value,
        notation::eval_str("7 // 0")
    );
    bad!("modulo by zero", Value, notation::eval_str("7 % 0"));
    bad!("fraction by zero", Value, notation::eval_str("1 / 0"));
    c
}

#[test]
fn catalogue_errors_have_the_expected_kinds() {
    let cases = catalogue();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut wrong = Vec::new();
    for (name, f, kind) in &cases {
        let t0 = std::time::Instant::now();
        let r = f();
        if std::env::var("RCUTE_TIME").is_ok() {
            eprintln!("{name}: {:?}", t0.elapsed());
        }
        match r {
            Ok(v) => wrong.push(format!("{name}: succeeded with {}", &v[..v.len().min(120)])),
            Err(e) if e.kind() != *kind => wrong.push(format!("{name}: expected {kind}, got {e}")),
            Err(e) => assert!(!e.message().is_empty(), "{name}: empty message"),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn huge_values_that_stay_valid() {
    // measuring a 10^5-deep tuple needs no recursion
    assert_eq!(deep_shape(N).as_ref().depth(), N);
    assert_eq!(HTuple::flat(vec![2i64; N]).as_ref().depth(), 1);
    // the size of a 10^5-rank shape of ones is 1; of twos an overflow
    assert_eq!(
        shape::size(HTuple::flat(vec![1i64; N]).as_ref()).unwrap(),
        1
    );
    // extents near 2^62 are fine while nothing overflows
    let l = Layout::column_major(HTuple::flat([1 << 61, 2])).unwrap();
    assert_eq!(l.size().unwrap(), P62);
    assert_eq!(l.eval_index(P62 - 1).unwrap(), Scalar::Int(P62 - 1));
    assert_eq!(algebra::cosize(&l).unwrap(), P62);
    let l = Layout::column_major(HTuple::flat([P62, 2])).unwrap();
    assert_eq!(l.size().unwrap_err().kind(), ErrorKind::Overflow);
    assert_eq!(l.eval_index(i64::MAX).unwrap(), Scalar::Int(i64::MAX));
    // the largest accepted rank works through the algebra
    let big = Layout::column_major(HTuple::flat(vec![1i64; MAX_LEAVES])).unwrap();
    assert_eq!(algebra::coalesce(&big).unwrap().size().unwrap(), 1);
    let r = algebra::composition(&big, &Tiler::Layout(big.clone())).unwrap();
    assert_eq!(r.size().unwrap(), 1);
}

// ---------------------------------------------------------------------------
// Regressions found by the fuzz targets and the extended property run
// (docs/fuzzing.md). Each was a wrong result, a crash or a hang.

/// Extended run, `product_variants`: a negatively strided B made the
/// reference's composition base case build negative extents,
/// `composition((2,3):(1,10), 2:-1) = (-2,-1):(-1,10)`, and
/// `logical_product((2,2):(6,1), (1,3):(-1,-1))` returned
/// `((2,2),(1,(-3,-1))):...`, a layout that Layout::new rejects and whose
/// evaluation is meaningless. Now a `value` error (shapes are positive).
#[test]
fn regression_composition_negative_extents() {
    let e = algebra::composition(&lay(&[2, 3], &[1, 10]), &t(lay1(2, -1))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value, "{e}");
    let e =
        algebra::logical_product(&lay(&[2, 2], &[6, 1]), &t(lay(&[1, 3], &[-1, -1]))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value, "{e}");
    // negative strides that keep the extents positive still work
    let r = algebra::composition(&lay1(12, 1), &t(lay1(3, -1))).unwrap();
    assert_eq!(r.to_string(), "3:-1");
}

/// Extended run, `layout_add`: an F2 mode split at a non-power-of-two point
/// is not linear, so `layout_add((1,(3,4)):(F0,(F2,F1)), (12,):(F8,))`
/// returned `(3,4):(F10,F25)`, whose value at 4 is F19 while
/// `A(4) + B(4) = F35`. Now a `value` error; power-of-two splits still add.
#[test]
fn regression_layout_add_f2_splits() {
    let a = Layout::new(
        HTuple::tuple([HTuple::leaf(1), HTuple::flat([3, 4])]),
        HTuple::tuple([
            HTuple::leaf(Scalar::F2(0)),
            HTuple::flat([Scalar::F2(2), Scalar::F2(1)]),
        ]),
    )
    .unwrap();
    let b = Layout::new(HTuple::flat([12]), HTuple::flat([Scalar::F2(8)])).unwrap();
    let e = algebra::layout_add(&a, &b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value, "{e}");
    let a = Layout::new(
        HTuple::flat([2, 4]),
        HTuple::flat([Scalar::F2(1), Scalar::F2(2)]),
    )
    .unwrap();
    let b = Layout::leaf(8, Scalar::F2(4));
    let r = algebra::layout_add(&a, &b).unwrap();
    for i in 0..8 {
        let want = a
            .eval_index(i)
            .unwrap()
            .add(&b.eval_index(i).unwrap())
            .unwrap();
        assert_eq!(r.eval_index(i).unwrap(), want, "at {i}");
    }
}

/// `algebra` fuzz target, timeout: composition with an F2-strided A checks
/// `R(c) == A(B(c))` by evaluation, up to 2^20 points, which took over 10 s
/// under the fuzzer. The bound is now 2^16 points (well under a second);
/// beyond it the composition is a `value` error.
#[test]
fn regression_f2_composition_evaluation_bound() {
    let a = Layout::new(
        HTuple::flat([512, 512]),
        HTuple::flat([Scalar::F2(1), Scalar::F2(512)]),
    )
    .unwrap();
    let r = algebra::composition(&a, &t(lay(&[256, 256], &[1, 512]))).unwrap();
    assert_eq!(r.to_string(), "(256, 256):(F1, F512)");
    let e = algebra::composition(&a, &t(lay(&[512, 256], &[1, 512]))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value, "{e}");
}

/// Hardening (this catalogue): building a 10^5-deep tuple with `Builder`
/// took ~40 s (closing a tuple rescanned all nodes after it); printing or
/// walking such a tuple recursed without bound. Closing is now O(1), depth
/// is measured without recursion and the checked constructors refuse more
/// than 64 levels before printing anything.
#[test]
fn regression_deep_tuples_are_cheap_and_refused() {
    let s = deep_shape(N);
    assert_eq!(s.leaves(), &[4]);
    assert_eq!(s.as_ref().depth(), N);
    let e = Layout::new(s, deep_stride(N)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.message().contains("64"), "{e}");
}

/// Hardening: a script could grow a value without bound through a
/// variable (`A = (A,)`, `A = A@0`, `A = make_layout(A, A)` repeated),
/// until printing it overflowed the stack or memory ran out.
#[test]
fn regression_session_values_are_bounded() {
    let mut s = notation::Session::new();
    s.eval_line("A = 1").unwrap().unwrap();
    let mut first_error = None;
    for k in 0..200 {
        if let Err(e) = s.eval_line("A = (A,)").unwrap() {
            first_error.get_or_insert((k, e));
        }
    }
    let (k, e) = first_error.expect("nesting stops");
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(k <= 2 * MAX_DEPTH, "stopped after {k} steps");
    s.eval_line("B = 1@0").unwrap().unwrap();
    let errs = (0..200)
        .filter(|_| s.eval_line("B = B@0").unwrap().is_err())
        .count();
    assert!(errs > 100);
    s.eval_line("C = 2:1").unwrap().unwrap();
    let e = (0..40)
        .find_map(|_| s.eval_line("C = make_layout(C, C)").unwrap().err())
        .expect("doubling stops");
    assert_eq!(e.kind(), ErrorKind::Value);
    // and the session still works
    assert_eq!(
        s.eval_line("rank(flatten(shape(C)))")
            .unwrap()
            .unwrap()
            .to_string(),
        "4096"
    );
}

/// Hardening: 10^5 keyword arguments took minutes (a quadratic duplicate
/// check); more than 16 are now a `parse` error.
#[test]
fn regression_keyword_arguments_are_bounded() {
    let kw: Vec<String> = (0..N).map(|i| format!("k{i}=1")).collect();
    let e = notation::eval_str(&format!("size(1, {})", kw.join(","))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Parse);
}

/// `algebra` fuzz target and extended run (`constructors`), panic:
/// make_layout_like sorted the strides with `sort_by` and answered `Equal`
/// for pairs that cannot be compared (an integer and a coordinate value);
/// that is not a total order and the standard library's sort panicked
/// ("user-provided comparison function does not correctly implement a
/// total order"). Now the first failed comparison is a `type` error.
#[test]
fn regression_make_layout_like_mixed_strides() {
    let pick = [
        Scalar::Int(1),
        Scalar::Int(2),
        Scalar::Int(3),
        Scalar::basis(1, &[0]),
        Scalar::basis(2, &[1]),
        Scalar::basis(1, &[0, 1]),
        Scalar::Int(0),
    ];
    for seed in 0..50u64 {
        let n = 9 + (seed as usize % 40);
        let d: Vec<Scalar> = (0..n)
            .map(|k| pick[(k * 7 + seed as usize * 13 + k * k) % pick.len()].clone())
            .collect();
        let l = Layout::new(HTuple::flat(vec![2i64; n]), HTuple::flat(d)).unwrap();
        if let Err(e) = algebra::make_layout_like(&l) {
            assert_eq!(e.kind(), ErrorKind::Type, "{e}");
        }
    }
}

/// Found by the prepared-statement agreement test (`tests/all/prepare.rs`),
/// panic: `logical_divide(A=4:2)` put A back into the first positional
/// slot by indexing, and there was none (index out of bounds). A by
/// keyword now works like A by position.
#[test]
fn regression_logical_divide_by_keyword() {
    let e = notation::eval_str("logical_divide(A=4:2)").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
    for src in [
        "logical_divide(B=4:2, A=8:1)",
        "logical_divide(8:1, B=4:2)",
        "logical_divide(A=8:1, B=4:2)",
    ] {
        assert_eq!(notation::eval_str(src).unwrap(), "(4, 2):(2, 1)", "{src}");
    }
    let e = notation::eval_str("logical_divide(8:1, 4:2, A=8:1)").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type, "{e}");
}

/// Extended run (`tensor_slice`, seed 0x707e7d028b5bbbe9): the offset of
/// `((1,2),1,4):((1,4),1,1)` at `((0,1), 2^63-1, -2^63)` is 3, but summing
/// its terms left to right in 64 bits overflowed at `4 + (2^63-1)`, so the
/// full coordinate failed while the slice at `(None, 2^63-1, -2^63)` read
/// the element. Offsets are now summed exactly: an overflow error only when
/// the offset itself does not fit in 64 bits.
#[test]
fn regression_offsets_are_exact_sums() {
    let max = i64::MAX;
    let min = i64::MIN;
    let l = Layout::new(
        HTuple::tuple([HTuple::flat([1i64, 2]), HTuple::leaf(1), HTuple::leaf(4)]),
        HTuple::tuple([
            ints(&[1, 4]),
            HTuple::leaf(Scalar::Int(1)),
            HTuple::leaf(Scalar::Int(1)),
        ]),
    )
    .unwrap();
    let c: Coord = HTuple::tuple([
        HTuple::flat([Some(Scalar::Int(0)), Some(Scalar::Int(1))]),
        HTuple::leaf(Some(Scalar::Int(max))),
        HTuple::leaf(Some(Scalar::Int(min))),
    ]);
    assert_eq!(l.eval(c.as_ref()).unwrap(), Scalar::Int(3));
    // by index: (2,2,2):(2^63-1, 1, -2^63) at 7 is (2^63-1) + 1 - 2^63 = 0
    let l = lay(&[2, 2, 2], &[max, 1, min]);
    assert_eq!(l.eval_index(7).unwrap(), Scalar::Int(0));
    assert_eq!(l.eval(coord(&[1, 1, 1]).as_ref()).unwrap(), Scalar::Int(0));
    // an offset that does not fit is still an overflow error
    let l = lay(&[2, 2], &[max, 1]);
    assert_eq!(l.eval_index(3).unwrap_err().kind(), ErrorKind::Overflow);
    assert_eq!(
        l.eval(coord(&[1, 1]).as_ref()).unwrap_err().kind(),
        ErrorKind::Overflow
    );
    assert_eq!(
        notation::eval_str("((2,2,2):(9223372036854775807,1,-9223372036854775808))(7)").unwrap(),
        "0"
    );
}

/// `algebra` fuzz target, panic (debug) / wrapped sum (release): the
/// composition walk evaluates A at a stride of B (`t = 1`) as a 128-bit sum
/// of digit times stride; A's digits at a negative index are near their
/// extents, so with many modes of extent and stride near 2^62 the sum left
/// 128 bits (`attempt to add with overflow`; a release build wrapped it,
/// which could land a value beyond 128 bits back inside 64 bits). Layout
/// evaluation refused sums whose partial sums left 128 bits even when the
/// total fits. Offsets are now exact sums whatever their partial sums
/// (`int::ExactSum`): an overflow error only when the value does not fit.
/// Expected values: exact big-integer arithmetic by hand (Python ints).
#[test]
fn regression_offset_sums_beyond_128_bits() {
    // the fuzzer's A (its fold): A(-287560) is
    // 170141183460469240904330794367697830755, beyond i128
    let big = 4611686018427387905; // 2^62 + 1
    let d = 4611686018427387903; // 2^62 - 1
    let s = [
        big, big, big, big, big, big, big, 6, 6, 8, big, big, big, big, big,
    ];
    let st = [907, 877, d, d, d, d, 197, d, d, d, d, d, d, d, d];
    let a = lay(&s, &st);
    let e = algebra::composition(&a, &t(lay1(1, -287560))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Overflow, "{e}");
    assert!(
        e.message()
            .starts_with("composition((4611686018427387905, ")
            && e.message()
                .ends_with(", 1:-287560): the offset overflows 64 bits (it is beyond 128 bits)"),
        "{e}"
    );
    // partial sums beyond 128 bits that cancel: every digit of -1 below the
    // last is 2^63-2, so the eight terms are +-(2^63-2)(2^63-1) and the
    // last (-1 at stride 0) adds nothing: the value is 0
    let (m, n) = (i64::MAX, -i64::MAX);
    let a = lay(&[m, m, m, m, m, m, m, m, 2], &[m, m, m, m, n, n, n, n, 0]);
    assert_eq!(a.eval_index(-1).unwrap(), Scalar::Int(0));
    // the same point as a coordinate (the idx2crd path): 0
    let c = coord(&[m - 1, m - 1, m - 1, m - 1, m - 1, m - 1, m - 1, m - 1, -1]);
    assert_eq!(a.eval(c.as_ref()).unwrap(), Scalar::Int(0));
    let r = algebra::composition(&a, &t(lay1(1, -1))).unwrap();
    assert_eq!(r.to_string(), "1:0");
    // 2^128 + 5: four terms (2^63-2)(2^63-1), two (2^63-2)*6 and -1*-21.
    // A wrapped 128-bit sum reads it as 5 (the release build answered
    // `1:5`); it is an overflow
    let a = lay(&[m, m, m, m, m, m, 2], &[m, m, m, m, 6, 6, -21]);
    let e = a.eval_index(-1).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Overflow, "{e}");
    assert!(e.message().ends_with(")(-1) overflows 64 bits"), "{e}");
    let e = algebra::composition(&a, &t(lay1(1, -1))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Overflow, "{e}");
    assert!(e.message().contains("beyond 128 bits"), "{e}");
}
