//! The C++ CuTe names of the notation: `make_layout`'s three
//! forms, `make_shape`/`make_stride`/`make_coord`/`make_tile`, the
//! three-argument `idx2crd`/`crd2idx`, `get<I...>`, `append`/`prepend`,
//! `group`, `tile_unzip`, `tile_to_shape`, `domain_distribute`,
//! `local_tile`/`local_partition`, and the edge cases found beside them
//! (empty layouts, a tuple tiler on a leaf shape, cosize with negative
//! strides, out-of-range swizzles and basis indices).
//!
//! Each row gives the C++ expression that was compiled against the CuTe
//! headers of CUTLASS 4.2 (g++ -std=c++17, `using namespace cute`) and
//! printed with `print`; the notation's answer is the same up to the print
//! style (`_` markers, 1-tuples printed `(x,)`), except where a row says
//! otherwise.

use rcute::notation::eval_str;
use rcute::ErrorKind;

/// `(notation, expected, C++ expression)`.
fn check(rows: &[(&str, &str, &str)]) {
    for (expr, want, cpp) in rows {
        let got = eval_str(expr).unwrap_or_else(|e| panic!("{expr} (C++: {cpp}): {e}"));
        assert_eq!(&got, want, "{expr} (C++: {cpp})");
    }
}

fn err(expr: &str) -> ErrorKind {
    match eval_str(expr) {
        Ok(v) => panic!("{expr} gave {v}, expected an error"),
        Err(e) => e.kind(),
    }
}

#[test]
fn make_layout_forms() {
    check(&[
        ("make_layout((4,8),(8,1))", "(4, 8):(8, 1)", "make_layout(make_shape(4,8), make_stride(8,1)) = (4,8):(8,1)"),
        ("make_layout((4,(2,3)))", "(4, (2, 3)):(1, (4, 8))", "make_layout(make_shape(4,make_shape(2,3))) = (4,(2,3)):(_1,(4,8))"),
        ("make_layout(8)", "8:1", "make_layout(8) = 8:_1"),
        ("make_layout(3:1, (5,1):(7,2), 2:42)", "(3, (5, 1), 2):(1, (7, 2), 42)", "make_layout(make_layout(3,1), make_layout(make_shape(5,1),make_stride(7,2)), make_layout(2,42))"),
        ("make_layout(3:1)", "(3,):(1,)", "make_layout(make_layout(3,1)) = (3):(1)"),
        ("make_layout()", "():()", "make_layout(make_shape(), make_stride()) = ():()"),
        ("make_layout(make_layout(), 4:1)", "((), 4):((), 1)", "make_layout(make_layout(make_shape(),make_stride()), make_layout(4,1)) = ((),4):((),1)"),
        ("make_layout(make_shape(4,8), make_stride(8,1))", "(4, 8):(8, 1)", "make_layout(make_shape(4,8), make_stride(8,1))"),
    ]);
    assert_eq!(err("make_layout((4,8), 3:1)"), ErrorKind::Type);
    assert_eq!(err("make_layout(3:1, (4,8))"), ErrorKind::Type);
    assert_eq!(err("make_layout((4,0))"), ErrorKind::Value);
}

#[test]
fn make_tuple_names() {
    check(&[
        ("make_shape(4)", "(4,)", "make_shape(4) = (4)"),
        ("make_shape()", "()", "make_shape() = ()"),
        (
            "make_shape(4, (2, 3))",
            "(4, (2, 3))",
            "make_shape(4, make_shape(2,3))",
        ),
        ("make_stride(8, 1)", "(8, 1)", "make_stride(8,1)"),
        ("make_tile(4,8)", "(4, 8)", "make_tile(4,8) = (4,8)"),
        ("make_coord(1,_)", "(1, None)", "make_coord(1,_) = (1,_)"),
        (
            "zipped_divide((12,32):(1,12), make_tile(4, 8))",
            "((4, 8), (3, 4)):((1, 12), (4, 96))",
            "zipped_divide(make_layout(make_shape(12,32)), make_tile(4,8))",
        ),
    ]);
    assert_eq!(err("make_shape(4, None)"), ErrorKind::Type);
    assert_eq!(err("make_stride(4:1)"), ErrorKind::Type);
    assert_eq!(err("make_tile(F2(3))"), ErrorKind::Type);
}

#[test]
fn three_argument_idx2crd_and_crd2idx() {
    check(&[
        ("idx2crd(7,(3,8),(8,1))", "(0, 7)", "idx2crd(7, make_shape(3,8), make_stride(8,1)) = (0,7)"),
        ("idx2crd(17,(3,(2,4)),(1,(3,6)))", "(2, (1, 2))", "idx2crd(17, make_shape(3,make_shape(2,4)), make_stride(1,make_stride(3,6))) = (2,(1,2))"),
        ("idx2crd(17,(3,(2,4)),1)", "(2, (1, 2))", "idx2crd(17, make_shape(3,make_shape(2,4)), 1) = (2,(1,2))"),
        ("idx2crd(17,(3,(2,4)),2)", "(2, (0, 1))", "idx2crd(17, make_shape(3,make_shape(2,4)), 2) = (2,(0,1))"),
        ("idx2crd(100,(3,4),(1,3))", "(1, 1)", "idx2crd(100, make_shape(3,4), make_stride(1,3)) = (1,1)"),
        ("idx2crd(-1,(3,4),(1,3))", "(-1, 0)", "idx2crd(-1, make_shape(3,4), make_stride(1,3)) = (-1,0)"),
        ("idx2crd((5,7),(3,(2,4)),(1,(3,6)))", "(2, (0, 1))", "idx2crd(make_coord(5,7), make_shape(3,make_shape(2,4)), make_stride(1,make_stride(3,6))) = (2,(0,1))"),
        ("idx2crd(7,1,0)", "0", "idx2crd(7, 1, 0) = 0 (extent 1)"),
        ("crd2idx((1,2),(3,8),(8,1))", "10", "crd2idx(make_coord(1,2), make_shape(3,8), make_stride(8,1)) = 10"),
        ("crd2idx(5,(3,8),(8,1))", "17", "crd2idx(5, make_shape(3,8), make_stride(8,1)) = 17"),
        ("crd2idx(29,(3,8),(8,1))", "25", "crd2idx(29, make_shape(3,8), make_stride(8,1)) = 25"),
        ("crd2idx((1,5),(3,(2,4)),(1,(3,6)))", "16", "crd2idx(make_coord(1,5), make_shape(3,make_shape(2,4)), make_stride(1,make_stride(3,6))) = 16"),
        // the two-argument forms keep their meaning
        ("idx2crd(16, (3,(2,3)))", "(1, (1, 2))", "idx2crd(16, make_shape(3,make_shape(2,3)))"),
        ("crd2idx((1,(1,2)), (3,(2,3)))", "16", "crd2idx(make_coord(1,make_coord(1,2)), make_shape(3,make_shape(2,3)))"),
    ]);
    // C++: a floating point exception (division by the stride 0 / modulo 0)
    assert_eq!(err("idx2crd(7,3,0)"), ErrorKind::Value);
    assert_eq!(err("idx2crd(7,(3,0),(1,3))"), ErrorKind::Value);
    assert_eq!(err("idx2crd((1,2),3,1)"), ErrorKind::Rank);
    assert_eq!(err("idx2crd(E(1),(3,4),(1,3))"), ErrorKind::Type);
}

#[test]
fn get_select_take() {
    check(&[
        ("get(((6,2),5):((8,2),1), 0, 1)", "2:2", "get<0,1>(make_layout(make_shape(make_shape(6,2),5), make_stride(make_stride(8,2),1))) = 2:2"),
        ("get[0](((6,2),5):((8,2),1), 1)", "2:2", "get<0,1>(...)"),
        ("get((1,(2,3)), 1, 0)", "2", "get<1,0>(make_tuple(1,make_tuple(2,3))) = 2"),
        // select/take give tuples of modes (docs/operations.md, `select`); make_layout of
        // them is C++'s layout
        ("make_layout(select(((6,2),5):((8,2),1), (1,0)))", "(5, (6, 2)):(1, (8, 2))", "select<1,0>(...) = (5,(6,2)):(1,(8,2))"),
        ("make_layout(take(((6,2),5,3):((8,2),1,7), (1,3)))", "(5, 3):(1, 7)", "take<1,3>(...) = (5,3):(1,7)"),
    ]);
    assert_eq!(err("get((1,2), 0, 0)"), ErrorKind::Type);
    assert_eq!(err("get((1,2), 5)"), ErrorKind::Bounds);
}

#[test]
fn append_prepend_group() {
    check(&[
        (
            "append((1,2),3)",
            "(1, 2, 3)",
            "append(make_shape(1,2), 3) = (1,2,3)",
        ),
        (
            "append((1,2),(3,4))",
            "(1, 2, (3, 4))",
            "append(make_shape(1,2), make_shape(3,4)) = (1,2,(3,4))",
        ),
        (
            "append((1,2),0,4)",
            "(1, 2, 0, 0)",
            "append<4>(make_shape(1,2), 0) = (1,2,0,0)",
        ),
        (
            "append((1,2),0,2)",
            "(1, 2)",
            "append<2>(make_shape(1,2), 0) = (1,2)",
        ),
        ("append(5,3)", "(5, 3)", "append(5, 3) = (5,3)"),
        ("append(5,0,3)", "(5, 0, 0)", "append<3>(5, 0) = (5,0,0)"),
        (
            "append(8:1, 4:8)",
            "(8, 4):(1, 8)",
            "append(make_layout(8,1), make_layout(4,8)) = (8,4):(1,8)",
        ),
        (
            "append((8,2):(1,8), 1:0, 3)",
            "(8, 2, 1):(1, 8, 0)",
            "append<3>(make_layout(make_shape(8,2),make_stride(1,8))) = (8,2,_1):(1,8,_0)",
        ),
        (
            "append((8,2):(1,8), 4:16)",
            "(8, 2, 4):(1, 8, 16)",
            "append(make_layout(make_shape(8,2),make_stride(1,8)), make_layout(4,16))",
        ),
        (
            "prepend((1,2),3)",
            "(3, 1, 2)",
            "prepend(make_shape(1,2), 3) = (3,1,2)",
        ),
        (
            "prepend((1,2),0,4)",
            "(0, 0, 1, 2)",
            "prepend<4>(make_shape(1,2), 0) = (0,0,1,2)",
        ),
        (
            "prepend(8:1,4:8)",
            "(4, 8):(8, 1)",
            "prepend(make_layout(8,1), make_layout(4,8)) = (4,8):(8,1)",
        ),
        (
            "prepend(8:1, 1:0, 3)",
            "(1, 1, 8):(0, 0, 1)",
            "prepend<3>(make_layout(8,1)) = (_1,_1,8):(_0,_0,1)",
        ),
        (
            "group((1,2,3,4),(1,3))",
            "(1, (2, 3), 4)",
            "group<1,3>(make_shape(1,2,3,4)) = (1,(2,3),4)",
        ),
        (
            "group((1,2,3,4),(0,4))",
            "((1, 2, 3, 4),)",
            "group<0,4>(make_shape(1,2,3,4)) = ((1,2,3,4))",
        ),
        (
            "group((1,2,3,4),(1,-1))",
            "(1, (2, 3, 4))",
            "group<1,-1>(make_shape(1,2,3,4)) = (1,(2,3,4))",
        ),
        (
            "group((1,2,3,4),(2,2))",
            "(1, 2, 3, 4)",
            "group<2,2>(make_shape(1,2,3,4)) = (1,2,3,4)",
        ),
        (
            "group[1,3]((2,3,4,5):(1,2,6,24))",
            "(2, (3, 4), 5):(1, (2, 6), 24)",
            "group<1,3>(make_layout(make_shape(2,3,4,5))) = (2,(3,4),5):(_1,(2,6),24)",
        ),
        (
            "group(8:1,(0,1))",
            "((8,),):((1,),)",
            "group<0,1>(make_layout(8,1)) = ((8)):((1))",
        ),
    ]);
    assert_eq!(err("append((1,2,3),0,2)"), ErrorKind::Rank);
    assert_eq!(err("append(8:1, 4)"), ErrorKind::Type);
    assert_eq!(err("append((1,2),0,-1)"), ErrorKind::Value);
    assert_eq!(err("prepend((1,2),0,1000000)"), ErrorKind::Value);
    assert_eq!(err("group((1,2,3),(2,1))"), ErrorKind::Bounds);
    assert_eq!(err("group((1,2,3),(0,4))"), ErrorKind::Bounds);
    assert_eq!(err("group((1,2,3),(1,))"), ErrorKind::Value);
}

#[test]
fn tile_unzip_tile_to_shape_domain_distribute() {
    check(&[
        ("tile_unzip(logical_divide((12,32):(1,12), (4,8)), (4,8))", "((4, 8), (3, 4)):((1, 12), (4, 96))", "tile_unzip(logical_divide(A,t), t), A = make_layout(make_shape(12,32), make_stride(1,12)), t = make_tile(4,8)"),
        ("tile_unzip(logical_divide((12,32,5):(1,12,384), (4,8)), (4,8))", "((4, 8), (3, 4, 5)):((1, 12), (4, 96, 384))", "same with A = (12,32,5):(1,12,384)"),
        ("tile_unzip(logical_divide((12,32):(1,12), 4:2), 4:2)", "(4, (2, 48)):(2, (1, 8))", "tile_unzip(logical_divide(A, t), t), A = Layout<Shape<_12,_32>,Stride<_1,_12>>{}, t = make_layout(_4{},_2{}) = (_4,(_2,_48)):(_2,(_1,_8)) (with a dynamic A, C++ prints ((4,1),((2,1),(2,32))):((2,12),((1,12),(8,12))), of size 512, not 384)"),
        ("tile_unzip(((2,3),(4,5)):((1,2),(6,24)), (1,1))", "((2, 4), (3, 5)):((1, 6), (2, 24))", "tile_unzip(make_layout(make_shape(make_shape(2,3),make_shape(4,5)), ...), make_tile(1,1))"),
        ("tile_unzip(((2,3),(4,5),7):((1,2),(6,24),120), (1,1))", "((2, 4), (3, 5, 7)):((1, 6), (2, 24, 120))", "same with a third mode 7:120"),
        ("zipped_divide((4,8):(1,4), ())", "((), (4, 8)):((), (1, 4))", "zipped_divide(make_layout(make_shape(4,8)), make_tile()) = ((),(4,8)):((),(1,4))"),
        ("domain_distribute((15,14), 6)", "(3, 2):(1, 15)", "domain_distribute(Shape<_15,_14>{}, Int<6>{}) = (_3,_2):(_1,_15)"),
        ("domain_distribute((15,(3,5),2), 6)", "(3, 2):(1, 225)", "domain_distribute(Shape<_15,Shape<_3,_5>,_2>{}, Int<6>{}) = (_3,_2):(_1,_225)"),
        ("domain_distribute((4,8):(8,1), 16)", "16:1", "domain_distribute(Layout<Shape<_4,_8>,Stride<_8,_1>>{}, Int<16>{}) = _16:_1"),
        ("domain_distribute((4,8), 64)", "32:1", "domain_distribute(Shape<_4,_8>{}, Int<64>{}) = _32:_1"),
        ("domain_distribute((4,8), 7)", "1:0", "domain_distribute(Shape<_4,_8>{}, Int<7>{}) = _1:_0"),
        ("domain_distribute(12, 8)", "4:1", "domain_distribute(Int<12>{}, Int<8>{}) = _4:_1"),
        ("tile_to_shape((8,8):(8,1), (32,64))", "((8, 4), (8, 8)):((8, 64), (1, 256))", "tile_to_shape(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, Shape<_32,_64>{})"),
        ("tile_to_shape((8,8):(8,1), (32,64), (2,1))", "((8, 4), (8, 8)):((8, 512), (1, 64))", "... , Step<_2,_1>{}) = ((_8,_4),(_8,_8)):((_8,_512),(_1,_64))"),
        ("tile_to_shape((8,8):(8,1), (32,64,3))", "((8, 4), (8, 8), (1, 3)):((8, 64), (1, 256), (0, 2048))", "tile_to_shape(..., Shape<_32,_64,_3>{})"),
        ("tile_to_shape(8:1, (32,4))", "((8, 4), (1, 4)):((1, 8), (0, 32))", "tile_to_shape(Layout<_8,_1>{}, Shape<_32,_4>{})"),
        ("tile_to_shape((8,8):(8,1), ((16,2),64))", "((8, 4), (8, 8)):((8, 64), (1, 256))", "tile_to_shape(..., Shape<Shape<_16,_2>,_64>{})"),
        // C++: Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0)); the
        // size-1 mode's stride differs (rcute's blocked_product), the same function
        ("tile_to_shape(composition(Swizzle(3,3,3), (8,64):(64,1)), (128,64))", "SW_3_3_3 o ((8, 16), (64, 1)):((64, 512), (1, 8192))", "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), Shape<_128,_64>{})"),
    ]);
    // C++: "Mismatched ranks" (a compile error)
    assert_eq!(
        err("tile_unzip(((2,6),(4,8)):((1,2),(12,48)), ((1,1),1))"),
        ErrorKind::Rank
    );
    // C++: "block shape does not divide the target shape" (a compile error)
    assert_eq!(
        err("tile_to_shape((8,8):(8,1), (36,64))"),
        ErrorKind::Divisibility
    );
    assert_eq!(
        err("tile_to_shape((8,8,2):(8,1,64), (32,64))"),
        ErrorKind::Rank
    );
    assert_eq!(err("domain_distribute((4,8), 0)"), ErrorKind::Value);
}

#[test]
fn local_tile_and_local_partition() {
    // C++: make_tensor(make_inttuple_iter(0), make_layout(...)) printed as
    // ArithTuple<offset> o layout
    check(&[
        ("local_tile((8,24):(1,8), (4,8), (1,2))", "{132} o (4, 8):(1, 8)", "local_tile(t(8,24), make_tile(4,8), make_coord(1,2)) = ArithTuple132 o (4,8):(_1,8)"),
        ("local_tile((8,24):(1,8), (4,8), 5)", "{132} o (4, 8):(1, 8)", "local_tile(t(8,24), make_tile(4,8), 5) = ArithTuple132 o (4,8):(_1,8)"),
        ("local_tile((8,12):(1,8), (4,2,3), (1,5,2), (1,None,1))", "{52} o (4, 3):(1, 8)", "local_tile(t(8,12), make_tile(4,2,3), make_coord(1,5,2), Step<_1,X,_1>{}) = ArithTuple52 o (4,3):(_1,8)"),
        ("local_partition((16,64):(1,16), (2,16):(1,2), 17)", "{129} o (8, 4):(2, 256)", "local_partition(t(16,64), make_layout(make_shape(2,16)), 17) = ArithTuple129 o (8,4):(2,256)"),
        ("local_partition((16,64):(1,16), (2,16):(16,1), 17)", "{17} o (8, 4):(2, 256)", "local_partition(t(16,64), make_layout(make_shape(2,16),make_stride(16,1)), 17) = ArithTuple17 o (8,4):(2,256)"),
        ("local_partition((16,64):(1,16), (2,3,16):(1,32,2), 17, (1,_,1))", "{129} o (8, 4):(2, 256)", "local_partition(t(16,64), make_layout(make_shape(2,3,16),make_stride(1,32,2)), 17, Step<_1,X,_1>{})"),
        ("local_tile(make_tensor((8,24)), (4,8), (1,2))", "Array(192 x i64)+132 o (4, 8):(1, 8)", "local_tile on a memory tensor"),
        ("local_tile(identity_tensor((8,24)), (4,8), (1,2))", "{(4, 16)} o (4, 8):(1@0, 1@1)", "local_tile(make_identity_tensor(make_shape(8,24)), make_tile(4,8), make_coord(1,2))"),
    ]);
    assert_eq!(err("local_tile(3, (4,8), (1,2))"), ErrorKind::Type);
    assert_eq!(
        err("local_tile((8,24):(1,8), (4,8), (1,2), 1)"),
        ErrorKind::Type
    );
    assert_eq!(
        err("local_tile((8,24):(1,8), (4,8), (1,2), (1,None,1))"),
        ErrorKind::Rank
    );
    assert_eq!(
        err("local_partition((16,64):(1,16), (2,16):(0,2), 1)"),
        ErrorKind::Value
    );
    assert_eq!(
        err("local_partition((16,64):(1,16), (2,16), 1)"),
        ErrorKind::Type
    );
}

#[test]
fn edge_cases() {
    check(&[
        // empty layouts
        ("composition(8:2, ():())", "():()", "(C++ does not compile composition with an empty B)"),
        ("composition((4,8):(1,4), (4,()):(1,()))", "(4, ()):(1, ())", "(an empty mode of B stays empty)"),
        ("logical_product(4:1, ():())", "(4, ()):(1, ())", "make_layout(make_layout(4,1), ():()) = (4,()):(1,())"),
        ("size(make_layout())", "1", "size(make_layout(make_shape(), make_stride())) = _1"),
        ("cosize(make_layout())", "1", "cosize(make_layout(make_shape(), make_stride())) = _1"),
        // a tuple tiler of one mode on a leaf shape reads it as rank-1
        ("zipped_divide(12:1, (12,))", "((12,), (1,)):((1,), (12,))", "zipped_divide(make_layout(12,1), make_tile(12)) = ((12),(1)):((1),(12))"),
        ("zipped_divide[2]((6,5,2):(1,6,30), (2,))", "(6, 5, ((2,), (1,))):(1, 6, ((30,), (60,)))", "logical_divide(make_layout(make_shape(6,5,2),make_stride(1,6,30)), make_tile(_,_,make_tile(2))) = (6,5,((2,1))):(1,6,((30,60)))"),
        // C++ ((1),(8)):((0),(1)): the size-1 stride differs
        ("zipped_divide(8:1, (1,))", "((1,), (8,)):((1,), (1,))", "zipped_divide(make_layout(8,1), make_tile(1))"),
        // cosize/coshape: the extent of the image, as C++
        ("cosize(8:-1)", "8", "cosize(make_layout(8,-1)) = 8"),
        ("coshape(8:-1)", "8", "coshape(make_layout(8,-1)) = 8"),
        ("cosize((24,(2,1,4)):(0,(0,6,-3)))", "10", "cosize(make_layout(make_shape(24,make_shape(2,1,4)),make_stride(0,make_stride(0,6,-3)))) = 10"),
        ("cosize((4,3):(-1,4))", "12", "cosize(make_layout(make_shape(4,3),make_stride(-1,4))) = 12"),
        ("cosize((4,3):(-2,-3))", "13", "cosize(make_layout(make_shape(4,3),make_stride(-2,-3))) = 13"),
        ("coshape((4,3):(1@0,-1@1))", "(4, 3)", "(coordinate strides: per axis)"),
        ("Swizzle(3,57,3)", "SW_3_57_3", "(the largest B + M + |S|: 63)"),
    ]);
    assert_eq!(err("zipped_divide(12:1, (4,3))"), ErrorKind::Rank);
    // the conformance vectors (derived/tiled_divide, derived/flat_divide)
    // keep these a type error; C++ answers ((12),(1)):((1),(12)) for both
    assert_eq!(err("tiled_divide(12:1, (12,))"), ErrorKind::Type);
    assert_eq!(err("flat_divide(12:1, (12,))"), ErrorKind::Type);
    for bad in [
        "Swizzle(40,40,40)",
        "Swizzle(3,58,3)",
        "Swizzle(1,1000,1)",
        "Swizzle(2,61,-2)",
        "idx2crd(7, (3,0))",
        "E(-1)",
        "E(1,-1)",
        "ScaledBasis(3, -2)",
        "F2(-1)",
    ] {
        let e = eval_str(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Value, "{bad}");
    }
}
