//! Swizzled layouts as C++ CuTe defines them, `ComposedLayout<Swizzle,
//! offset, Layout>`: worked examples checked against the C++
//! headers (each row names the C++ expression that was compiled with g++
//! and printed with `cute::print`; the notation writes C++'s `make_tile`
//! and `Layout<Shape<...>>` arguments as tuples and `Layout(...)`), and
//! property tests of the definitions (slices, casts, divides, printing).

use proptest::prelude::*;
use rcute::notation::{eval_styled, eval_value, format_value, Style, Value};
use rcute::swizzle::{SwizzledInverse, SwizzledSlice};
use rcute::{HTuple, Layout, Scalar, Swizzle, SwizzledLayout, Tiler};

fn cpp(src: &str) -> String {
    match eval_styled(src, Style::Cpp) {
        Ok(s) => s,
        Err(e) => format!("error: {}", e.kind()),
    }
}

/// `S = Sw<3,3,3> o (8,64):(64,1)` (C++ `composition(Swizzle<3,3,3>{},
/// Layout<Shape<_8,_64>,Stride<_64,_1>>{})`) and its relatives, in the
/// notation.
const S: &str = "(Sw<3,3,3> o (8,64):(64,1))";

/// The motivating examples and their neighbours, printed in C++
/// style (rcute prints no static markers `_` and no zero offset).
#[test]
fn cpp_worked_examples() {
    let s343 = "(Sw<3,4,3> o (8,64):(64,1))";
    let s233 = "(Sw<2,3,3> o (8,32):(32,1))";
    let rows: Vec<(String, &str, &str)> = vec![
        // C++: logical_divide(S, make_tile(_8{},_8{}))
        //   = Sw<3,3,3> o _0 o ((_8,_1),(_8,_8)):((_64,_0),(_1,_8)); the
        //   size-1 mode's stride is rcute's (docs/operations.md), see differences.md
        (
            format!("logical_divide({S}, (8,8))"),
            "Sw<3,3,3> o ((8,1),(8,8)):((64,512),(1,8))",
            "logical_divide",
        ),
        // C++: zipped_divide(S, make_tile(_8{},_8{}))
        (
            format!("zipped_divide({S}, (8,8))"),
            "Sw<3,3,3> o ((8,8),(1,8)):((64,1),(512,8))",
            "zipped_divide",
        ),
        // C++: tiled_divide(S, make_tile(_8{},_8{})) = Sw<3,3,3> o _0 o ((_8,_8),_1,_8):((_64,_1),_0,_8)
        (
            format!("tiled_divide({S}, (8,8))"),
            "Sw<3,3,3> o ((8,8),1,8):((64,1),512,8)",
            "tiled_divide",
        ),
        // C++: flat_divide(S, make_tile(_8{},_8{})) = Sw<3,3,3> o _0 o (_8,_8,_1,_8):(_64,_1,_0,_8)
        (
            format!("flat_divide({S}, (8,8))"),
            "Sw<3,3,3> o (8,8,1,8):(64,1,512,8)",
            "flat_divide",
        ),
        // C++: right_inverse(S) = Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)
        (
            format!("right_inverse({S})"),
            "Sw<3,0,-6> o (64,8):(8,1)",
            "right_inverse",
        ),
        // C++: left_inverse(S) = Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)
        (
            format!("left_inverse({S})"),
            "Sw<3,0,-6> o (64,8):(8,1)",
            "left_inverse",
        ),
        // C++: right_inverse(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{}))
        //   = Sw<2,1,-5> o _0 o (_32,_8):(_8,_1)
        (
            format!("right_inverse({s233})"),
            "Sw<2,1,-5> o (32,8):(8,1)",
            "right_inverse",
        ),
        // C++: right_inverse(composition(Swizzle<2,0,-2>{}, Layout<Shape<_4,_4>>{})) = Sw<2,0,-2> o _0 o _16:_1
        (
            "right_inverse(Sw<2,0,-2> o (4,4):(1,4))".to_string(),
            "Sw<2,0,-2> o 16:1",
            "right_inverse",
        ),
        // C++: right_inverse(Sw<3,4,3> o (8,64):(64,1)) does not compile (the
        //   swizzle's fields do not carry through (64,8):(8,1)); rcute answers
        //   through the F2 form
        (
            format!("right_inverse({s343})"),
            "(64,2,4):(F8,F1,F130)",
            "right_inverse (F2)",
        ),
        // C++: S(1,_) = ((_8,_2,_2,_2)):((_1,-8,16,32))
        (format!("{S}(1,_)"), "((8,2,2,2)):((1,-8,16,32))", "slice"),
        // C++: S(3,_) = ((_8,_2,_2,_2)):((_1,-8,-16,32))
        (format!("{S}(3,_)"), "((8,2,2,2)):((1,-8,-16,32))", "slice"),
        // C++: S(_,1) = ((_2,_2,_2)):((72,144,288))
        (format!("{S}(_,1)"), "((2,2,2)):((72,144,288))", "slice"),
        // C++: slice_and_offset(make_coord(1,_), S) = (((_8,_2,_2,_2)):((_1,-8,16,32)),72)
        (
            format!("slice_and_offset({S}, (1,_))"),
            "(((8,2,2,2)):((1,-8,16,32)),72)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(3,_), S) = (((_8,_2,_2,_2)):((_1,-8,-16,32)),216)
        (
            format!("slice_and_offset({S}, (3,_))"),
            "(((8,2,2,2)):((1,-8,-16,32)),216)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(_,9), S) = (((_2,_2,_2)):((56,144,288)),9)
        (
            format!("slice_and_offset({S}, (_,9))"),
            "(((2,2,2)):((56,144,288)),9)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(_,_), Sw343) = (Sw<3,4,3> o _0 o (_8,_64):(_64,_1),_0)
        (
            format!("slice_and_offset({s343}, (_,_))"),
            "(Sw<3,4,3> o (8,64):(64,1),0)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(_,3), Sw343) = (((_2,_2,_2)):((_64,144,288)),3)
        (
            format!("slice_and_offset({s343}, (_,3))"),
            "(((2,2,2)):((64,144,288)),3)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(5,_), Sw343) = (((_16,_2,_2)):((_1,16,-32)),352)
        (
            format!("slice_and_offset({s343}, (5,_))"),
            "(((16,2,2)):((1,16,-32)),352)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(_,1), composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_8>,Stride<_8,_1>>{})) = ((_8):(_8),1)
        (
            "slice_and_offset(Sw<3,4,3> o (8,8):(8,1), (_,1))".to_string(),
            "((8):(8),1)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(_,1), composition(Swizzle<2,0,-2>{}, Layout<Shape<_4,_4>>{})) = (((_2,_2)):((-3,10)),4)
        (
            "slice_and_offset(Sw<2,0,-2> o (4,4):(1,4), (_,1))".to_string(),
            "(((2,2)):((-3,10)),4)",
            "slice_and_offset",
        ),
        // C++: slice_and_offset(make_coord(2,_), ...) = (((_2,_2)):((4,-8)),10)
        (
            "slice_and_offset(Sw<2,0,-2> o (4,4):(1,4), (2,_))".to_string(),
            "(((2,2)):((4,-8)),10)",
            "slice_and_offset",
        ),
        // C++ with S2 = composition(Swizzle<3,4,3>{}, Layout<Shape<Shape<_8,_8>,Shape<_8,_2>>,Stride<Stride<_64,_1>,Stride<_8,_512>>>{}):
        //   slice_and_offset(make_coord(_,make_coord(1,1)), S2) = ((((_2,_2,_2),_8)):(((-64,144,288),_1)),584)
        (
            "slice_and_offset(Sw<3,4,3> o ((8,8),(8,2)):((64,1),(8,512)), (_,(1,1)))".to_string(),
            "((((2,2,2),8)):(((-64,144,288),1)),584)",
            "slice_and_offset",
        ),
        //   slice_and_offset(make_coord(make_coord(1,1),_), S2) = ((((_2,_2,_2),_2)):(((_8,16,32),448)),65)
        (
            "slice_and_offset(Sw<3,4,3> o ((8,8),(8,2)):((64,1),(8,512)), ((1,1),_))".to_string(),
            "((((2,2,2),2)):(((8,16,32),448)),65)",
            "slice_and_offset",
        ),
        //   slice_and_offset(make_coord(make_coord(_,1),_), S2) = (Sw<3,4,3> o _0 o (_8,(_8,_2)):(_64,(_8,_512)),1)
        (
            "slice_and_offset(Sw<3,4,3> o ((8,8),(8,2)):((64,1),(8,512)), ((_,1),_))".to_string(),
            "(Sw<3,4,3> o (8,(8,2)):(64,(8,512)),1)",
            "slice_and_offset",
        ),
        // C++: upcast<2>(S) = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)
        (
            format!("upcast({S}, 2)"),
            "Sw<3,2,3> o (8,32):(32,1)",
            "upcast",
        ),
        // C++: upcast<2>(Sw<3,4,3> o (8,64):(64,1)) = Sw<3,3,3> o _0 o (_8,_32):(_32,_1)
        (
            format!("upcast({s343}, 2)"),
            "Sw<3,3,3> o (8,32):(32,1)",
            "upcast",
        ),
        // C++: upcast<32>(Sw343) = Sw<2,0,3> o _0 o (_8,_2):(_2,_1)
        (
            format!("upcast({s343}, 32)"),
            "Sw<2,0,3> o (8,2):(2,1)",
            "upcast",
        ),
        // C++: upcast<64>(Sw343) = Sw<1,0,3> o _0 o (_8,_1):(_1,_1)
        (
            format!("upcast({s343}, 64)"),
            "Sw<1,0,3> o (8,1):(1,1)",
            "upcast",
        ),
        // C++: upcast<8>(Sw233) = Sw<2,0,3> o _0 o (_8,_4):(_4,_1)
        (
            format!("upcast({s233}, 8)"),
            "Sw<2,0,3> o (8,4):(4,1)",
            "upcast",
        ),
        // C++: downcast<2>(S) = Sw<3,4,3> o _0 o (_8,_128):(_128,_1)
        (
            format!("downcast({S}, 2)"),
            "Sw<3,4,3> o (8,128):(128,1)",
            "downcast",
        ),
        // C++: downcast<4>(Sw233) = Sw<2,5,3> o _0 o (_8,_128):(_128,_1)
        (
            format!("downcast({s233}, 4)"),
            "Sw<2,5,3> o (8,128):(128,1)",
            "downcast",
        ),
        // C++: recast_layout<half_t,float>(S) = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)
        (
            format!("recast({S}, 2)"),
            "Sw<3,2,3> o (8,32):(32,1)",
            "recast",
        ),
        // C++: recast_layout<float,half_t>(S) = Sw<3,4,3> o _0 o (_8,_128):(_128,_1)
        (
            format!("recast({S}, 1/2)"),
            "Sw<3,4,3> o (8,128):(128,1)",
            "recast",
        ),
        // C++: recast_layout<float,half_t>(Sw233) = Sw<2,4,3> o _0 o (_8,_64):(_64,_1)
        (
            format!("recast({s233}, 1/2)"),
            "Sw<2,4,3> o (8,64):(64,1)",
            "recast",
        ),
        // C++: coalesce(composition(Swizzle<3,3,3>{}, Layout<Shape<_2,_4,_8>,Stride<_1,_2,_8>>{})) = Sw<3,3,3> o _0 o _64:_1
        (
            "coalesce(Sw<3,3,3> o (2,4,8):(1,2,8))".to_string(),
            "Sw<3,3,3> o 64:1",
            "coalesce",
        ),
        // C++: coalesce(S) = Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
        (
            format!("coalesce({S})"),
            "Sw<3,3,3> o (8,64):(64,1)",
            "coalesce",
        ),
        // C++: get<0>(S) = Sw<3,3,3> o _0 o _8:_64; get<1>(S) = Sw<3,3,3> o _0 o _64:_1
        (format!("{S}[0]"), "Sw<3,3,3> o 8:64", "get"),
        (format!("get({S}, 1)"), "Sw<3,3,3> o 64:1", "get"),
        // C++: size(S) = _512, rank(S) = _2, depth(S) = _1, shape(S) = (_8,_64)
        (format!("size({S})"), "512", "size"),
        (format!("rank({S})"), "2", "rank"),
        (format!("depth({S})"), "1", "depth"),
        (format!("shape({S})"), "(8,64)", "shape"),
        // C++: composition(S, Layout<Shape<_4,_8>,Stride<_8,_1>>{}) = Sw<3,3,3> o _0 o (_4,_8):(_1,_64)
        (
            format!("composition({S}, (4,8):(8,1))"),
            "Sw<3,3,3> o (4,8):(1,64)",
            "composition",
        ),
        // C++: zipped_divide(Sw233, make_tile(_4{},_8{})) = Sw<2,3,3> o _0 o ((_4,_8),(_2,_4)):((_32,_1),(_128,_8))
        (
            format!("zipped_divide({s233}, (4,8))"),
            "Sw<2,3,3> o ((4,8),(2,4)):((32,1),(128,8))",
            "zipped_divide",
        ),
        // C++: raked_product(S, Layout<Shape<_2,_3>>{}) = Sw<3,3,3> o _0 o ((_2,_8),(_3,_64)):((_512,_64),(_1024,_1))
        (
            format!("raked_product({S}, Layout((2,3)))"),
            "Sw<3,3,3> o ((2,8),(3,64)):((512,64),(1024,1))",
            "raked_product",
        ),
        // C++: blocked_product(S, Layout<Shape<_2,_3>>{}) = Sw<3,3,3> o _0 o ((_8,_2),(_64,_3)):((_64,_512),(_1,_1024))
        (
            format!("blocked_product({S}, Layout((2,3)))"),
            "Sw<3,3,3> o ((8,2),(64,3)):((64,512),(1,1024))",
            "blocked_product",
        ),
        // C++: logical_product(S, Layout<Shape<_2,_3>>{}) = Sw<3,3,3> o _0 o ((_8,_64),(_2,_3)):((_64,_1),(_512,_1024))
        (
            format!("logical_product({S}, Layout((2,3)))"),
            "Sw<3,3,3> o ((8,64),(2,3)):((64,1),(512,1024))",
            "logical_product",
        ),
        // An SM80 128x64 fp16 shared-memory tile from the 8x64 atom.
        // C++: tile_to_shape(S, Shape<_128,_64>{}) = Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))
        //   (the same as blocked_product(S, Layout<Shape<_16,_1>>{}));
        //   rcute's size-1 mode keeps the stride 8192 (docs/operations.md)
        (
            format!("blocked_product({S}, Layout((16,1)))"),
            "Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,8192))",
            "blocked_product",
        ),
        // C++: composition(Swizzle<3,3,3>{}, _64{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}) = Sw<3,3,3> o _64 o (_8,_64):(_64,_1)
        (
            "composition(Swizzle(3,3,3), 64, (8,64):(64,1))".to_string(),
            "Sw<3,3,3> o 64 o (8,64):(64,1)",
            "composition",
        ),
        // C++: SO(1,2) = 146 with SO the above
        (
            "(Sw<3,3,3> o 64 o (8,64):(64,1))(1,2)".to_string(),
            "146",
            "evaluation",
        ),
        // C++: upcast<2>(SO) = Sw<3,2,3> o _32 o (_8,_32):(_32,_1)
        (
            "upcast(Sw<3,3,3> o 64 o (8,64):(64,1), 2)".to_string(),
            "Sw<3,2,3> o 32 o (8,32):(32,1)",
            "upcast",
        ),
        // C++: coalesce(SO) = Sw<3,3,3> o _64 o (_8,_64):(_64,_1)
        (
            "coalesce(Sw<3,3,3> o 64 o (8,64):(64,1))".to_string(),
            "Sw<3,3,3> o 64 o (8,64):(64,1)",
            "coalesce",
        ),
        // C++: S(1,9) = 65, S(3,5) = 221, logical_divide(S, (8,8))(3,5) = 221
        (format!("{S}(1,9)"), "65", "evaluation"),
        (
            format!("logical_divide({S}, (8,8))(3,5)"),
            "221",
            "evaluation",
        ),
        // C++: R = right_inverse(S); R(100) = 353
        (format!("right_inverse({S})(100)"), "353", "evaluation"),
    ];
    for (src, want, what) in rows {
        assert_eq!(cpp(&src), want, "{what}: {src}");
    }
}

/// SO(1,_) in C++ is `((_8,_2,_2,_2)):((_1,8,16,32))` (XORing the offset
/// 64 with the fixed part 64 instead of adding them), which does not
/// reproduce SO(1,k); rcute keeps the whole offset inside the swizzled
/// slice (docs/differences.md).
#[test]
fn offset_slices_keep_the_values() {
    assert_eq!(
        cpp("slice_and_offset(Sw<3,3,3> o 64 o (8,64):(64,1), (1,_))"),
        "(Sw<3,3,3> o 128 o (64):(1),0)"
    );
    for k in 0..64 {
        assert_eq!(
            cpp(&format!("(Sw<3,3,3> o 64 o (8,64):(64,1))(1,_)({k})")),
            cpp(&format!("(Sw<3,3,3> o 64 o (8,64):(64,1))(1,{k})")),
        );
    }
}

/// C++ has no inverse for `Sw<3,4,3> o (8,64):(64,1)`; rcute's, through the
/// F2 form, is a two-sided inverse.
#[test]
fn f2_inverses_are_inverses() {
    let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    let s = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    for r in [s.right_inverse().unwrap(), s.left_inverse().unwrap()] {
        let SwizzledInverse::Layout(r) = r else {
            panic!("expected the F2 form")
        };
        for i in 0..512 {
            let j = match r.eval_index(i).unwrap() {
                Scalar::F2(v) | Scalar::Int(v) => v,
                other => panic!("{other}"),
            };
            assert_eq!(s.eval_index(j).unwrap(), i);
            let o = s.eval_index(i).unwrap();
            assert_eq!(r.eval_index(o).unwrap().as_int_like(), i);
        }
    }
}

trait IntLike {
    fn as_int_like(&self) -> i64;
}

impl IntLike for Scalar {
    fn as_int_like(&self) -> i64 {
        match self {
            Scalar::Int(v) | Scalar::F2(v) => *v,
            other => panic!("{other}"),
        }
    }
}

/// Bank conflicts work on every form a swizzled layout takes.
#[test]
fn bank_conflicts_of_swizzled_forms() {
    let rows = [
        // a warp reads column 0 of a 32x32 float tile (index t is (t, 0)):
        // swizzled, no conflict
        ("bank_conflicts(Sw<5,0,5> o (32,32):(32,1), 32:1, 4)", "1"),
        // the same through a divide, a coalesce, an offset and a cast
        (
            "bank_conflicts(logical_divide(Sw<5,0,5> o (32,32):(32,1), (32,32)), 32:1, 4)",
            "1",
        ),
        // ... a zipped divide, products, tile_to_shape, local_tile,
        // local_partition, a downcast and a layout composed after the swizzle
        // (bank_conflicts is rcute's; C++ has no such function: the count is
        // the wavefronts of the 32 reads, each of 4 bytes unless said)
        (
            "bank_conflicts(zipped_divide(Sw<5,0,5> o (32,32):(32,1), (32,32)), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(tile_to_shape(Sw<5,0,5> o (32,32):(32,1), (64,64)), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(blocked_product(Sw<5,0,5> o (32,32):(32,1), (2,2):(1,2)), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(local_tile(Sw<5,0,5> o (64,32):(32,1), (32,32), (1,0)), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(local_partition(Sw<5,0,5> o (32,32):(32,1), (1,32):(32,1), 3), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(downcast(Sw<5,0,5> o (32,32):(32,1), 2), 32:1, 2)",
            "1",
        ),
        (
            "bank_conflicts(composition((32,32):(32,1), Sw<5,0,5> o (32,32):(32,1)), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(composition(1024:1, Swizzle(5,0,5)), 32:32, 4)",
            "1",
        ),
        (
            "bank_conflicts(coalesce(Sw<5,0,5> o (32,32):(32,1)), 32:32, 4)",
            "1",
        ),
        (
            "bank_conflicts(Sw<5,0,5> o 32 o (32,32):(32,1), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts(upcast(Sw<5,0,5> o (32,32):(32,1), 1), 32:1, 4)",
            "1",
        ),
        // a column slice and a row slice (plain layouts after the slice)
        (
            "bank_conflicts((Sw<5,0,5> o (32,32):(32,1))(_,3), 32:1, 4)",
            "1",
        ),
        (
            "bank_conflicts((Sw<5,0,5> o (32,32):(32,1))(3,_), 32:1, 4)",
            "1",
        ),
        // unswizzled column read: a 32-way conflict
        ("bank_conflicts((32,32):(32,1), 32:1, 4)", "32"),
        ("bank_conflicts(Sw<0,0,0> o (32,32):(32,1), 32:1, 4)", "32"),
    ];
    for (src, want) in rows {
        assert_eq!(cpp(src), want, "{src}");
    }
}

/// The tuple operations, partitioning and identity swizzles on swizzled
/// layouts, each beside the C++ expression compiled against the CuTe
/// headers (g++ -std=c++17, CUTLASS 4.2 headers from scripts/cute-headers.sh)
/// with `L = Layout<Shape<_8,_64>,Stride<_64,_1>>{}` and
/// `S = composition(Swizzle<3,3,3>{}, L)`.
#[test]
fn cpp_tuple_operations_and_partitions() {
    let rows: Vec<(String, &str)> = vec![
        // C++: tile_to_shape(S, Shape<_32,_128>{})
        //   = Sw<3,3,3> o _0 o ((_8,_4),(_64,_2)):((_64,_512),(_1,_2048))
        (
            format!("tile_to_shape({S}, (32,128))"),
            "Sw<3,3,3> o ((8,4),(64,2)):((64,512),(1,2048))",
        ),
        // C++: take<0,2>(composition(Swizzle<3,3,3>{},
        //   Layout<Shape<_8,_64,_2>,Stride<_64,_1,_512>>{})) = Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
        (
            "take(Sw<3,3,3> o (8,64,2):(64,1,512), (0,2))".to_string(),
            "Sw<3,3,3> o (8,64):(64,1)",
        ),
        // C++: get<1>(S) = Sw<3,3,3> o _0 o _64:_1
        (format!("get({S}, 1)"), "Sw<3,3,3> o 64:1"),
        // C++: append(S, Layout<_2,_0>{}) prints the tuple
        //   (Sw<3,3,3> o _0 o (_8,_64):(_64,_1),_2:_0) (C++'s append<N> on a
        //   ComposedLayout needs the explicit N); append<3>:
        (format!("append({S}, 2:0)"), "Sw<3,3,3> o (8,64,2):(64,1,0)"),
        // C++: append<4>(composition(Swizzle<3,3,3>{}, Int<64>{}, L), Layout<_2,_0>{})
        //   = Sw<3,3,3> o _64 o (_8,_64,_2,_2):(_64,_1,_0,_0)
        (
            "append(Sw<3,3,3> o 64 o (8,64):(64,1), 2:0, 4)".to_string(),
            "Sw<3,3,3> o 64 o (8,64,2,2):(64,1,0,0)",
        ),
        // C++: group<1,3>(composition(Swizzle<3,3,3>{},
        //   Layout<Shape<_8,_8,_8>,Stride<_64,_1,_8>>{})) = Sw<3,3,3> o _0 o (_8,(_8,_8)):(_64,(_1,_8))
        (
            "group(Sw<3,3,3> o (8,8,8):(64,1,8), (1,3))".to_string(),
            "Sw<3,3,3> o (8,(8,8)):(64,(1,8))",
        ),
        // C++: flatten(composition(Swizzle<3,3,3>{},
        //   Layout<Shape<Shape<_8,_1>,_64>,Stride<Stride<_64,_1>,_1>>{})) = Sw<3,3,3> o _0 o (_8,_1,_64):(_64,_1,_1)
        (
            "flatten(Sw<3,3,3> o ((8,1),64):((64,1),1))".to_string(),
            "Sw<3,3,3> o (8,1,64):(64,1,1)",
        ),
        // C++: filter(Z, Shape<_1,_1,_1>{}) with Z = composition(Swizzle<3,3,3>{},
        //   Layout<Shape<_8,_2,_64>,Stride<_64,_0,_1>>{}) = Sw<3,3,3> o _0 o (_8,_1,_64):(_64,_0,_1);
        //   rcute's filter drops the size-1 mode (as on a plain layout)
        (
            "filter(Sw<3,3,3> o (8,2,64):(64,0,1))".to_string(),
            "Sw<3,3,3> o (8,64):(64,1)",
        ),
        // not in C++ (filter_zeros, select and prepend take plain layouts):
        // the operation on the inner layout
        (
            "filter_zeros(Sw<3,3,3> o (8,2,64):(64,0,1))".to_string(),
            "Sw<3,3,3> o (8,1,64):(64,0,1)",
        ),
        (format!("select({S}, (1,0))"), "Sw<3,3,3> o (64,8):(1,64)"),
        (
            format!("prepend({S}, 2:0)"),
            "Sw<3,3,3> o (2,8,64):(0,64,1)",
        ),
        // C++: nullspace(Z) = _1:_0 (a placeholder); rcute: nullspace of the inner layout
        (
            "nullspace(Sw<3,3,3> o (8,2,64):(64,0,1))".to_string(),
            "2:8",
        ),
        // C++: local_partition(make_tensor(&buf[0], S), Layout<Shape<_2,_4>,Stride<_4,_1>>{}, 5)
        //   has the layout Sw<3,3,3> o M_0|(64&64)=64 o (_4,_16):(_128,_4) at
        //   buf + 1; rcute keeps the whole offset 65 in the layout
        (
            format!("local_partition({S}, (2,4):(4,1), 5)"),
            "Sw<3,3,3> o 65 o (4,16):(128,4)",
        ),
        // C++: local_tile(make_tensor(&buf[0], S), Shape<_8,_8>{}, make_coord(0,1))
        //   is ((_2,_2,_2),_8):((56,144,288),_1) at buf + 8, the same values as
        //   the layout-level slice Sw o 8 o (8,8):(64,1) (C++ slice_and_offset on
        //   a ComposedLayout with the dynamic coordinate)
        (
            format!("local_tile({S}, (8,8), (0,1))"),
            "Sw<3,3,3> o 8 o (8,8):(64,1)",
        ),
        // C++: composition(Swizzle<0,4,3>{}, L) = (_8,_64):(_64,_1)
        (
            "composition(Swizzle(0,4,3), (8,64):(64,1))".to_string(),
            "(8,64):(64,1)",
        ),
        ("Sw<0,4,3> o (8,64):(64,1)".to_string(), "(8,64):(64,1)"),
        // C++: composition(Swizzle<0,4,3>{}, Int<5>{}, L) = Sw<0,4,3> o _5 o (_8,_64):(_64,_1)
        (
            "Sw<0,4,3> o 5 o (8,64):(64,1)".to_string(),
            "Sw<0,4,3> o 5 o (8,64):(64,1)",
        ),
    ];
    for (src, want) in rows {
        assert_eq!(cpp(&src), want, "{src}");
    }
    // the parts agree pointwise with the unswizzled partition under the swizzle
    for (part, plain) in [
        (
            format!("local_tile({S}, (8,8), (0,1))"),
            "local_tile((8,64):(64,1), (8,8), (0,1))",
        ),
        (
            format!("local_partition({S}, (2,4):(4,1), 5)"),
            "local_partition((8,64):(64,1), (2,4):(4,1), 5)",
        ),
    ] {
        for i in 0..64 {
            let got = cpp(&format!("({part})({i})"));
            let want = cpp(&format!("Swizzle(3,3,3)(({plain})({i}))"));
            assert_eq!(got, want, "{part} at {i}");
        }
    }
}

/// A plain layout after a swizzled layout (C++ `composition(Layout,
/// ComposedLayout)` = `composition(composition(A, Sw), L)`) and after a
/// swizzle (C++ `composition(Layout, Swizzle)` = `make_swizzle<A(Y),
/// A(Z)>() o A`), each beside the C++ expression compiled against the
/// CUTLASS 4.2 headers (g++ -std=c++17) and printed with `print`, with
/// `L = Layout<Shape<_8,_64>,Stride<_64,_1>>{}` and
/// `S = composition(Swizzle<3,3,3>{}, L)`.
#[test]
fn cpp_layout_after_swizzle() {
    let rows: Vec<(String, &str)> = vec![
        // C++: composition(L, S) = Sw<3,0,3> o _0 o (_8,(_8,_8)):(_8,(_64,_1))
        (
            format!("composition((8,64):(64,1), {S})"),
            "Sw<3,0,3> o (8,(8,8)):(8,(64,1))",
        ),
        // C++: composition(Layout<_512,_1>{}, S) = Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
        (
            format!("composition(512:1, {S})"),
            "Sw<3,3,3> o (8,64):(64,1)",
        ),
        // C++: composition(Layout<_512,_2>{}, S) = Sw<3,4,3> o _0 o (_8,_64):(_128,_2)
        (
            format!("composition(512:2, {S})"),
            "Sw<3,4,3> o (8,64):(128,2)",
        ),
        // C++: composition(Layout<Shape<_64,_8>,Stride<_8,_1>>{}, S) = Sw<3,0,-6> o _0 o (_8,_64):(_1,_8)
        (
            format!("composition((64,8):(8,1), {S})"),
            "Sw<3,0,-6> o (8,64):(1,8)",
        ),
        // C++: composition(Layout<Shape<_2,_256>,Stride<_256,_1>>{}, S)
        //   = Sw<3,2,3> o _0 o (_8,(_2,_32)):(_32,(_256,_1))
        (
            format!("composition((2,256):(256,1), {S})"),
            "Sw<3,2,3> o (8,(2,32)):(32,(256,1))",
        ),
        // C++: composition(L, composition(Swizzle<2,0,3>{}, Layout<Shape<_4,_8>,Stride<_8,_1>>{}))
        //   = Sw<2,0,-6> o _0 o (_4,_8):(_1,_64)
        (
            "composition((8,64):(64,1), Sw<2,0,3> o (4,8):(8,1))".to_string(),
            "Sw<2,0,-6> o (4,8):(1,64)",
        ),
        // C++: composition(L, Swizzle<3,3,3>{}) = Sw<3,0,3> o _0 o (_8,_64):(_64,_1)
        (
            "composition((8,64):(64,1), Swizzle(3,3,3))".to_string(),
            "Sw<3,0,3> o (8,64):(64,1)",
        ),
        // C++: composition(Layout<_512,_2>{}, Swizzle<3,3,3>{}) = Sw<3,4,3> o _0 o _512:_2
        (
            "composition(512:2, Swizzle(3,3,3))".to_string(),
            "Sw<3,4,3> o 512:2",
        ),
        // C++: composition(Layout<Shape<_8,_64>,Stride<_72,_1>>{}, S) compiles to
        //   Sw<3,0,3> o _0 o (_8,(_8,_8)):(_8,(_72,_1)), whose value at 8 is 73
        //   while L72(S(8)) = 72: rcute reports the wrong form
        (
            format!("composition((8,64):(72,1), {S})"),
            "error: divisibility",
        ),
        // C++: composition(Layout<_512,_3>{}, S) does not compile (make_swizzle's
        //   static_assert: the images 1344 and 168 are not bit runs)
        (format!("composition(512:3, {S})"), "error: divisibility"),
        // C++: composition(L, composition(Swizzle<3,3,3>{}, _64{}, L)) does not
        //   compile ("Require offset == 0.")
        (
            "composition((8,64):(64,1), Sw<3,3,3> o 64 o (8,64):(64,1))".to_string(),
            "error: value",
        ),
    ];
    for (src, want) in rows {
        assert_eq!(cpp(&src), want, "{src}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `composition(A, S)` for a plain `A`, when it has an answer, agrees
    /// pointwise with `A(S(i))`.
    #[test]
    fn layout_after_swizzled_agrees(s in arb_swizzled(), a in arb_layout()) {
        let s = SwizzledLayout::new(s.swizzle(), s.layout().clone()).unwrap();
        if let Ok(r) = SwizzledLayout::after_layout(&a, &s) {
            for i in 0..s.size().unwrap() {
                let want = a.eval_index(s.eval_index(i).unwrap()).unwrap().as_int_like();
                prop_assert_eq!(r.eval_index(i).unwrap(), want, "{} after {} = {}", a, s, r);
            }
        }
    }
}

/// The library API gives the notation's answers.
#[test]
fn library_api() {
    let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)].into());
    assert_eq!(
        format!("{:#}", s.logical_divide(&t).unwrap()),
        "Sw<3,3,3> o ((8,1),(8,8)):((64,512),(1,8))"
    );
    let c = HTuple::flat([Some(Scalar::Int(1)), None]);
    let (sub, off) = s.slice_and_offset(c.as_ref()).unwrap();
    assert!(matches!(sub, SwizzledSlice::Plain(_)));
    assert_eq!(off, 72);
    assert_eq!(
        format!("{:#}", s.right_inverse().unwrap()),
        "Sw<3,0,-6> o (64,8):(8,1)"
    );
    let so: SwizzledLayout = "Sw<3,3,3> o 64 o (8,64):(64,1)".parse().unwrap();
    assert_eq!(so.offset(), 64);
    let c = HTuple::flat([Some(Scalar::Int(1)), Some(Scalar::Int(2))]);
    assert_eq!(so.eval(c.as_ref()).unwrap(), 146);
    assert_eq!(so.eval_index(2).unwrap(), 216);
    assert!(so.upcast(3).is_err());
}

// ---------------------------------------------------------------- properties

/// A valid swizzle with small fields.
fn arb_swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..4, 0i64..5, 0i64..3, any::<bool>()).prop_map(|(b, m, extra, neg)| {
        let s = b + extra;
        let s = if neg && s > 0 { -s } else { s };
        Swizzle::new(b, m, s).unwrap()
    })
}

/// A rank-2 or rank-3 flat layout with power-of-two extents and strides
/// (the shared-memory layouts swizzles are used with), sometimes
/// arbitrary ones.
fn arb_layout() -> impl Strategy<Value = Layout> {
    prop::collection::vec((0u32..4, 0u32..8, -2i64..6), 2..4).prop_map(|modes| {
        let shape: Vec<i64> = modes.iter().map(|m| 1i64 << m.0).collect();
        let stride: Vec<Scalar> = modes
            .iter()
            .map(|m| {
                if m.2 <= 0 {
                    Scalar::Int(m.2 + 3)
                } else {
                    Scalar::Int(1i64 << m.1)
                }
            })
            .collect();
        Layout::new(HTuple::flat(shape), HTuple::flat(stride)).unwrap()
    })
}

fn arb_swizzled() -> impl Strategy<Value = SwizzledLayout> {
    (arb_swizzle(), 0i64..300, any::<bool>(), arb_layout()).prop_map(|(sw, off, zero, l)| {
        SwizzledLayout::with_offset(sw, if zero { 0 } else { off }, l).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A slice of a swizzled layout agrees pointwise with the unsliced one:
    /// `S(c[k]) == sub(k) + offset`.
    #[test]
    fn slices_agree_with_the_layout(s in arb_swizzled(), pick in 0usize..3, fix in 0i64..64) {
        let r = s.rank();
        let i = pick % r;
        let mut c: Vec<Option<Scalar>> = vec![None; r];
        let ext = s.layout().shape().as_ref().modes().nth(i).unwrap().as_leaf().copied().unwrap();
        c[i] = Some(Scalar::Int(fix % ext));
        let coord = HTuple::flat(c.clone());
        let (sub, off) = s.slice_and_offset(coord.as_ref()).unwrap();
        let n = match &sub {
            SwizzledSlice::Swizzled(x) => x.size().unwrap(),
            SwizzledSlice::Plain(x) => x.size().unwrap(),
        };
        for k in 0..n {
            let got = match &sub {
                SwizzledSlice::Swizzled(x) => x.eval_index(k).unwrap(),
                SwizzledSlice::Plain(x) => x.eval_index(k).unwrap().as_int_like(),
            } + off;
            // the full coordinate: k spread over the kept modes
            let kept: Vec<i64> = (0..r).filter(|&j| j != i).map(|j| {
                s.layout().shape().as_ref().modes().nth(j).unwrap().as_leaf().copied().unwrap()
            }).collect();
            let mut rest = k;
            let mut full = c.clone();
            let mut q = 0;
            for (j, slot) in full.iter_mut().enumerate() {
                if j != i {
                    *slot = Some(Scalar::Int(rest % kept[q]));
                    rest /= kept[q];
                    q += 1;
                }
            }
            let want = s.eval(HTuple::flat(full).as_ref()).unwrap();
            prop_assert_eq!(got, want, "{} at {:?}, k = {}: {}", s, c, k, sub);
        }
    }

    /// `upcast(downcast(S, n), n)` is `S` again, value for value.
    #[test]
    fn upcast_of_downcast_agrees(s in arb_swizzled(), k in 0u32..4) {
        let n = 1i64 << k;
        if let Ok(d) = s.downcast(n) {
            let u = d.upcast(n).unwrap();
            prop_assert_eq!(u.size().unwrap(), s.size().unwrap());
            for i in 0..s.size().unwrap() {
                prop_assert_eq!(u.eval_index(i).unwrap(), s.eval_index(i).unwrap(), "{} -> {} -> {}", s, d, u);
            }
        }
    }

    /// The divides of a swizzled layout are the swizzle applied to the
    /// divides of its layout.
    #[test]
    fn divides_are_swizzled_divides(s in arb_swizzled(), t0 in 0u32..3, t1 in 0u32..3) {
        let t = Tiler::Tuple(vec![Tiler::Int(1 << t0), Tiler::Int(1 << t1)].into());
        type Div = fn(&Layout, &rcute::TilerRef<'_>) -> rcute::Result<Layout>;
        type SwDiv = fn(&SwizzledLayout, &rcute::TilerRef<'_>) -> rcute::Result<SwizzledLayout>;
        let divs: [(Div, SwDiv); 4] = [
            (rcute::algebra::logical_divide, SwizzledLayout::logical_divide),
            (rcute::algebra::zipped_divide, SwizzledLayout::zipped_divide),
            (rcute::algebra::tiled_divide, SwizzledLayout::tiled_divide),
            (rcute::algebra::flat_divide, SwizzledLayout::flat_divide),
        ];
        for (plain, swz) in divs {
            match (plain(s.layout(), &t), swz(&s, &t)) {
                (Ok(p), Ok(q)) => {
                    prop_assert_eq!(q.layout(), &p);
                    for i in 0..p.size().unwrap() {
                        let v = p.eval_index(i).unwrap().as_int_like();
                        prop_assert_eq!(q.eval_index(i).unwrap(), s.swizzle().apply(s.offset() + v).unwrap());
                    }
                }
                (Err(a), Err(b)) => prop_assert_eq!(a.kind(), b.kind()),
                (a, b) => prop_assert!(false, "{:?} vs {:?}", a.map(|x| x.to_string()), b.map(|x| x.to_string())),
            }
        }
    }

    /// Every printed form of a swizzled layout (default, repr, C++; with
    /// and without an offset), of its swizzle and of its layout reads back
    /// as an equal value.
    #[test]
    fn printed_forms_read_back(s in arb_swizzled()) {
        let values = [
            Value::Swizzled(s.clone()),
            Value::Swizzle(s.swizzle()),
            Value::Layout(s.layout().clone()),
            Value::Tuple(vec![Value::Swizzled(s.clone()), Value::Int(s.offset()), Value::Swizzle(s.swizzle())]),
        ];
        for v in values {
            for style in [Style::Str, Style::Repr, Style::Cpp] {
                let text = format_value(&v, style);
                let back = eval_value(&text);
                prop_assert!(back.is_ok(), "{:?}: {} does not read back: {:?}", style, text, back.map(|x| x.to_string()));
                let back = back.unwrap();
                // an identity swizzle with offset 0 reads back as C++'s
                // composition(Swizzle<0,M,S>{}, _0, L): the plain layout L
                let want = if s.swizzle().is_identity() && s.offset() == 0 {
                    format_value(&v, Style::Repr).replace(
                        &format_value(&Value::Swizzled(s.clone()), Style::Repr),
                        &format_value(&Value::Layout(s.layout().clone()), Style::Repr),
                    )
                } else {
                    format_value(&v, Style::Repr)
                };
                prop_assert_eq!(format_value(&back, Style::Repr), want, "{:?}: {}", style, text);
            }
        }
        // C++'s own print, with the offset and static markers
        let cpp_print = format!(
            "Sw<{},{},{}> o _{} o {}",
            s.swizzle().bits(), s.swizzle().base(), s.swizzle().shift(), s.offset(),
            format!("{:#}", s.layout())
                .replace('(', "(_")
                .replace(',', ",_")
                .replace(':', ":_")
                .replace("_(", "(")
        );
        let back = eval_value(&cpp_print);
        prop_assert!(back.is_ok(), "{}: {:?}", cpp_print, back.map(|x| x.to_string()));
        let want = if s.swizzle().is_identity() && s.offset() == 0 {
            s.layout().to_string()
        } else {
            s.to_string()
        };
        prop_assert_eq!(back.unwrap().to_string(), want, "{}", cpp_print);
    }
}
