//! Tensors (`docs/tensors.md`, `docs/drawing.md`): the spec's worked
//! examples and properties of indexing, slicing, copy, fill, gemm and
//! printing.

use proptest::prelude::*;
use rcute::htuple::Builder;
use rcute::shape::{idx2crd, Coord};
use rcute::tensor::{
    clear, copy, fill, flat_coord, gemm, identity_tensor, make_identity_tensor, make_tensor,
    make_tensor_shape, print_tensor, print_tensor_body, Accessor, AccessorMut, Array,
    ImplicitAccessor, Indexed, Ptr, PtrMut, Tensor, TransformAccessor, ALL,
};
use rcute::{ErrorKind, HTuple, Layout, Scalar};

// ---------------------------------------------------------------------------
// A small literal reader for the spec's notation (test input only):
// integers, `F<n>`, `v@i@...` basis values, `None`/`_`, nested tuples.

fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | ')' | ',' | ':' => {
                if !cur.trim().is_empty() {
                    out.push(cur.trim().to_string());
                }
                cur.clear();
                out.push(ch.to_string());
            }
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn read<T>(toks: &[String], pos: &mut usize, b: &mut Builder<T>, leaf: &dyn Fn(&str) -> T) {
    if toks[*pos] == "(" {
        *pos += 1;
        b.open();
        while toks[*pos] != ")" {
            read(toks, pos, b, leaf);
            if toks[*pos] == "," {
                *pos += 1;
            }
        }
        *pos += 1;
        b.close();
    } else {
        b.leaf(leaf(&toks[*pos]));
        *pos += 1;
    }
}

fn scalar(s: &str) -> Scalar {
    if let Some(f) = s.strip_prefix('F') {
        return Scalar::F2(f.parse().unwrap());
    }
    let parts: Vec<i64> = s.split('@').map(|p| p.parse().unwrap()).collect();
    let path: Vec<usize> = parts[1..].iter().rev().map(|&p| p as usize).collect();
    Scalar::basis(parts[0], &path)
}

fn tuple<T>(toks: &[String], pos: &mut usize, leaf: &dyn Fn(&str) -> T) -> HTuple<T> {
    let mut b = Builder::new();
    read(toks, pos, &mut b, leaf);
    b.finish()
}

/// `S:D`
fn lay(s: &str) -> Layout {
    let t = tokens(s);
    let mut pos = 0;
    let shape = tuple(&t, &mut pos, &|x| x.parse::<i64>().unwrap());
    assert_eq!(t[pos], ":");
    pos += 1;
    let stride = tuple(&t, &mut pos, &scalar);
    Layout::new(shape, stride).unwrap()
}

/// A coordinate with `None` leaves.
fn crd(s: &str) -> Coord {
    let t = tokens(s);
    tuple(&t, &mut 0, &|x| {
        if x == "None" || x == "_" {
            None
        } else {
            Some(scalar(x))
        }
    })
}

fn implicit(s: &str) -> Tensor<ImplicitAccessor> {
    Tensor::from_layout(lay(s))
}

fn show<A: Accessor>(t: Tensor<A>) -> String {
    t.to_string()
}

// ---------------------------------------------------------------------------
// docs/tensors.md: accessors

#[test]
fn accessor_kinds() {
    let e = ImplicitAccessor::new(Scalar::Int(3));
    assert_eq!(e.offset(&Scalar::Int(4)).unwrap().to_string(), "{7}");
    let e = ImplicitAccessor::new(scalar("1@0"));
    assert_eq!(e.offset(&scalar("1@1")).unwrap().to_string(), "{(1, 1)}");
    let abs = |v: Scalar| match v {
        Scalar::Int(x) => x.abs(),
        _ => -1,
    };
    let t = TransformAccessor::new(ImplicitAccessor::new(Scalar::Int(0)), abs).named("abs");
    let moved = t.offset(&Scalar::Int(2)).unwrap();
    assert_eq!(moved.read(&Scalar::Int(-7)).unwrap(), 5);
    assert_eq!(moved.to_string(), "TransformAccessor({2}, abs)");
    // memory accessors reject coordinate offsets and out-of-range reads
    let a = Array::new(vec![1, 2, 3]);
    assert_eq!(a.read(&scalar("1@0")).unwrap_err().kind(), ErrorKind::Type);
    assert_eq!(
        a.read(&Scalar::Int(3)).unwrap_err().kind(),
        ErrorKind::Bounds
    );
    assert_eq!(
        a.read(&Scalar::Int(-1)).unwrap_err().kind(),
        ErrorKind::Bounds
    );
    assert_eq!(a.read(&Scalar::F2(2)).unwrap(), 3);
}

#[test]
fn make_tensor_allocates_cosize() {
    let t = make_tensor::<f64>(lay("(2,4):(2,4)")).unwrap();
    assert_eq!(t.accessor().len(), 15);
    let t = make_tensor::<f64>(lay("(4,8):(1,5)")).unwrap();
    assert_eq!(t.accessor().len(), 39);
    let t = make_tensor::<i8>(lay("1:0")).unwrap();
    assert_eq!(t.accessor().len(), 1);
    let t = make_tensor_shape::<f32>((2, (3, 4))).unwrap();
    assert_eq!(t.layout().to_string(), "(2, (3, 4)):(1, (2, 6))");
    assert_eq!(t.accessor().len(), 24);
    // negative strides, coordinate and F2 codomains are errors
    assert_eq!(
        make_tensor::<f32>(lay("(3,4):(-1,3)")).unwrap_err().kind(),
        ErrorKind::Value
    );
    assert_eq!(
        make_tensor::<f32>(lay("(4,8):(1@0,1@1)"))
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
    assert_eq!(
        make_tensor::<f32>(lay("(2,3):(F1,F9)")).unwrap_err().kind(),
        ErrorKind::Type
    );
    assert_eq!(
        make_tensor::<f32>(lay(
            "(65536,65536,65536,65536):(1,65536,4294967296,281474976710656)"
        ))
        .unwrap_err()
        .kind(),
        ErrorKind::Overflow
    );
}

// ---------------------------------------------------------------------------
// docs/tensors.md: indexing, slicing, printing

const T3: &str = "((3,2),((2,3),2)):((4,1),((2,15),100))";

#[test]
fn spec_indexing_table() {
    let t = implicit(T3);
    assert_eq!(t.at((1, 1)).unwrap(), Scalar::Int(6));
    assert_eq!(t.at(7).unwrap(), Scalar::Int(6));
    let rows = [
        ("(2,None)", "{8} o (((2, 3), 2),):(((2, 15), 100),)"),
        ("(None,5)", "{32} o ((3, 2),):((4, 1),)"),
        ("(2,((0,None),None))", "{8} o (3, 2):(15, 100)"),
        ("((None,1),(None,0))", "{1} o (3, (2, 3)):(4, (2, 15))"),
        ("((1,None),((None,0),None))", "{4} o (2, 2, 2):(1, 2, 100)"),
        (
            "None",
            "{0} o (((3, 2), ((2, 3), 2)),):(((4, 1), ((2, 15), 100)),)",
        ),
    ];
    for (c, want) in rows {
        assert_eq!(show(t.slice(crd(c)).unwrap()), want, "T[{c}]");
        match t.index(crd(c)).unwrap() {
            Indexed::Tensor(s) => assert_eq!(s.to_string(), want),
            Indexed::Value(v) => panic!("T[{c}] gave the value {v}"),
        }
    }
    assert_eq!(t.get(&[1, 0]).unwrap().to_string(), "{0} o (2, 3):(2, 15)");
    assert_eq!(t.index((1, 1)).unwrap(), Indexed::Value(Scalar::Int(6)));
    // the same with the Rust coordinate syntax
    assert_eq!(
        t.slice((2, ((0, ALL), ALL))).unwrap().to_string(),
        "{8} o (3, 2):(15, 100)"
    );
}

#[test]
fn indexing_errors() {
    let t = implicit(T3);
    // a tuple coordinate that is too short, or a tuple for a leaf shape
    assert_eq!(t.slice(crd("(None,)")).unwrap_err().kind(), ErrorKind::Rank);
    assert_eq!(
        t.at(crd("((1,2,3),0)")).unwrap_err().kind(),
        ErrorKind::Rank
    );
    assert_eq!(
        implicit("5:1").at(crd("(1,2)")).unwrap_err().kind(),
        ErrorKind::Rank
    );
    // a slicing coordinate is not an element
    assert_eq!(t.at((ALL, 1)).unwrap_err().kind(), ErrorKind::Value);
    let mut m = make_tensor_shape::<i32>((2, 3)).unwrap();
    assert_eq!(m.set((ALL, 1), 3).unwrap_err().kind(), ErrorKind::Value);
    assert_eq!(m.set((2, 2), 3).unwrap_err().kind(), ErrorKind::Bounds);
    assert_eq!(m.accessor().as_slice(), &[0; 6]);
}

#[test]
fn spec_printing() {
    assert_eq!(implicit("(2,3):(1,2)").to_string(), "{0} o (2, 3):(1, 2)");
    assert_eq!(implicit("(2,3):(1,2)").repr(), "Tensor({0}, (2, 3):(1, 2))");
    let t = Tensor::new(ImplicitAccessor::new(scalar("3@1")), lay("(4,):(1@0,)"));
    assert_eq!(t.to_string(), "{3@1} o (4,):(1@0,)");
    assert_eq!(
        format!("{:#}", implicit("(2,3):(1,2)")),
        "{0} o (2,3):(1,2)"
    );
    let a = make_tensor::<f64>(lay("(2,3):(3,1)")).unwrap();
    let s = a.to_string();
    assert!(
        s.starts_with("Array(0x") && s.ends_with(", f64) o (2, 3):(3, 1)"),
        "{s}"
    );
    assert!(a.slice((1, ALL)).unwrap().to_string().starts_with("Ptr(0x"));
}

// ---------------------------------------------------------------------------
// docs/tensors.md: identity tensors

#[test]
fn spec_identity_tensors() {
    let t = identity_tensor((3, 4)).unwrap();
    assert_eq!(t.to_string(), "{0} o (3, 4):(1@0, 1@1)");
    assert_eq!(t.at((1, 2)).unwrap().to_string(), "(1, 2)");
    assert_eq!(
        t.slice((ALL, 2)).unwrap().to_string(),
        "{2@1} o (3,):(1@0,)"
    );
    assert_eq!(
        identity_tensor((2, (3, 4)))
            .unwrap()
            .at(7)
            .unwrap()
            .to_string(),
        "(1, 1@1)"
    );
    assert_eq!(identity_tensor(5).unwrap().at(3).unwrap().to_string(), "3");
    assert_eq!(
        make_identity_tensor(((2, 3), 4)).unwrap().to_string(),
        "{0} o ((2, 3), 4):((1@0@0, 1@1@0), 1@1)"
    );
    assert_eq!(
        identity_tensor((4, 6)).unwrap().at(13).unwrap().to_string(),
        "(1, 3)"
    );
    assert_eq!(
        identity_tensor((0, 2)).unwrap_err().kind(),
        ErrorKind::Value
    );
}

#[test]
fn identity_tensor_predication() {
    // every element of the identity tensor is its own natural coordinate
    let shape = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([2i64, 4])]);
    let t = identity_tensor(&shape).unwrap();
    for i in 0..24 {
        let nat = idx2crd(HTuple::leaf(Some(Scalar::Int(i))).as_ref(), shape.as_ref()).unwrap();
        assert_eq!(t.at(i).unwrap(), Scalar::from_tuple(nat.as_ref()));
    }
}

// ---------------------------------------------------------------------------
// docs/tensors.md: flat_coord (the partitioning examples need
// zipped_divide, tested below once it is available)

#[test]
fn spec_flat_coord() {
    assert_eq!(
        flat_coord(&lay("(2,16):(1,2)"), 17).unwrap().to_string(),
        "(1, 8)"
    );
    assert_eq!(
        flat_coord(&lay("(2,16):(16,1)"), 17).unwrap().to_string(),
        "(1, 1)"
    );
    assert_eq!(flat_coord(&lay("32:1"), 17).unwrap().to_string(), "17");
    assert_eq!(
        flat_coord(&lay("((2,2),8):((1,16),2)"), 19)
            .unwrap()
            .to_string(),
        "(3, 1)"
    );
    assert_eq!(
        flat_coord(&lay("(2,4):(0,1)"), 3).unwrap_err().kind(),
        ErrorKind::Value
    );
}

// ---------------------------------------------------------------------------
// docs/tensors.md: COPY

#[test]
fn spec_copy_transpose_and_broadcast() {
    let src = Tensor::from_vec((0..6).collect::<Vec<i32>>(), lay("(2,3):(3,1)")).unwrap();
    let mut dst = make_tensor::<i32>(lay("(2,3):(1,2)")).unwrap();
    copy(&src, &mut dst).unwrap();
    assert_eq!(dst.accessor().as_slice(), &[0, 3, 1, 4, 2, 5]);
    // equal layouts: memcpy
    let mut same = make_tensor::<i32>(lay("(2,3):(3,1)")).unwrap();
    copy(&src, &mut same).unwrap();
    assert_eq!(same.accessor().as_slice(), &[0, 1, 2, 3, 4, 5]);
    // stride-0 source: broadcast
    let one = Tensor::from_vec(vec![7], lay("6:0")).unwrap();
    let mut b = make_tensor::<i32>(lay("(2,3):(3,1)")).unwrap();
    copy(&one, &mut b).unwrap();
    assert_eq!(b.accessor().as_slice(), &[7; 6]);
    // gather
    let g = Tensor::from_vec((0..10).collect::<Vec<i32>>(), lay("5:2")).unwrap();
    let mut d = make_tensor::<i32>(lay("5:1")).unwrap();
    copy(&g, &mut d).unwrap();
    assert_eq!(d.accessor().as_slice(), &[0, 2, 4, 6, 8]);
    // stride-0 destination: the last write wins
    let mut z = make_tensor::<i32>(lay("(2,3):(1,0)")).unwrap();
    copy(&src, &mut z).unwrap();
    assert_eq!(z.accessor().as_slice(), &[2, 5]);
    // an implicit source: the copy stores the offsets
    let mut o = make_tensor::<Scalar>(lay("(2,3):(3,1)")).unwrap();
    copy(&implicit("(2,3):(1,2)"), &mut o).unwrap();
    let vals: Vec<i64> = o
        .accessor()
        .as_slice()
        .iter()
        .map(|s| s.as_int().unwrap())
        .collect();
    assert_eq!(vals, vec![0, 2, 4, 1, 3, 5]);
}

#[test]
fn copy_errors_write_nothing() {
    let src = Tensor::from_vec((0..6).collect::<Vec<i32>>(), lay("(2,3):(3,1)")).unwrap();
    let mut dst = Tensor::from_vec(vec![-1; 5], lay("(2,3):(1,2)")).unwrap();
    assert_eq!(copy(&src, &mut dst).unwrap_err().kind(), ErrorKind::Bounds);
    assert_eq!(dst.accessor().as_slice(), &[-1; 5]);
    let mut wrong = make_tensor::<i32>(lay("(2,2):(1,2)")).unwrap();
    assert_eq!(copy(&src, &mut wrong).unwrap_err().kind(), ErrorKind::Value);
    // a source reaching outside its buffer
    let bad = Tensor::from_vec(vec![1; 5], lay("(2,3):(3,1)")).unwrap();
    let mut d = make_tensor::<i32>(lay("(2,3):(3,1)")).unwrap();
    assert_eq!(copy(&bad, &mut d).unwrap_err().kind(), ErrorKind::Bounds);
    assert_eq!(d.accessor().as_slice(), &[0; 6]);
    // generic path (implicit source): the destination is checked first
    let mut s = Tensor::from_vec(vec![Scalar::Int(-1); 5], lay("(2,3):(3,1)")).unwrap();
    assert_eq!(
        copy(&implicit("(2,3):(1,2)"), &mut s).unwrap_err().kind(),
        ErrorKind::Bounds
    );
    assert!(s
        .accessor()
        .as_slice()
        .iter()
        .all(|x| *x == Scalar::Int(-1)));
    // coordinate offsets cannot index memory
    let mut c = make_tensor::<Scalar>(lay("6:1")).unwrap();
    let coords = identity_tensor((2, 3)).unwrap();
    let mut cdst = Tensor::new(c.accessor_mut().view_mut(), lay("(2,3):(1@0,1@1)"));
    assert_eq!(
        copy(&coords, &mut cdst).unwrap_err().kind(),
        ErrorKind::Type
    );
}

#[test]
fn fill_and_clear() {
    let mut t = make_tensor::<i32>(lay("(3,4):(1,3)")).unwrap();
    fill(&mut t.slice_mut((ALL, 2)).unwrap(), 5).unwrap();
    assert_eq!(
        t.accessor().as_slice(),
        &[0, 0, 0, 0, 0, 0, 5, 5, 5, 0, 0, 0]
    );
    fill(&mut t.slice_mut((1, ALL)).unwrap(), 9).unwrap();
    assert_eq!(
        t.accessor().as_slice(),
        &[0, 9, 0, 0, 9, 0, 5, 9, 5, 0, 9, 0]
    );
    clear(&mut t).unwrap();
    assert_eq!(t.accessor().as_slice(), &[0; 12]);
    let mut small = Tensor::from_vec(vec![1; 11], lay("(3,4):(1,3)")).unwrap();
    assert_eq!(fill(&mut small, 2).unwrap_err().kind(), ErrorKind::Bounds);
    assert_eq!(small.accessor().as_slice(), &[1; 11]);
    // negative strides through a pointer with a base
    let mut buf = [0u8; 6];
    let mut p = Tensor::new(PtrMut::new(&mut buf, 5), lay("(2,3):(-1,-2)"));
    fill(&mut p, 4).unwrap();
    assert_eq!(buf, [4; 6]);
}

// ---------------------------------------------------------------------------
// docs/tensors.md: GEMM

#[test]
fn spec_gemm_shapes() {
    // GEMV as GEMM: C (M,1), B (1,K)
    let a = Tensor::from_vec(vec![1, 2, 3, 4, 5, 6], lay("(2,3):(1,2)")).unwrap();
    let x = Tensor::from_vec(vec![1, 1, 1], lay("(1,3):(0,1)")).unwrap();
    let mut y = Tensor::from_vec(vec![10, 20], lay("(2,1):(1,0)")).unwrap();
    gemm(&a, &x, &mut y).unwrap();
    assert_eq!(y.accessor().as_slice(), &[19, 32]);
    // dot product with a hierarchical K mode
    let u = Tensor::from_vec(vec![1, 2, 3, 4], lay("(1,(2,2)):(0,(1,2))")).unwrap();
    let v = Tensor::from_vec(vec![1, 1, 2, 2], lay("(1,(2,2)):(0,(1,2))")).unwrap();
    let mut d = Tensor::from_vec(vec![0], lay("(1,1):(0,0)")).unwrap();
    gemm(&u, &v, &mut d).unwrap();
    assert_eq!(d.accessor().as_slice(), &[1 + 2 + 6 + 8]);
    // errors, nothing written
    let mut c = Tensor::from_vec(vec![0; 4], lay("(2,2):(1,2)")).unwrap();
    let b22 = Tensor::from_vec(vec![0; 4], lay("(2,2):(1,2)")).unwrap();
    assert_eq!(gemm(&a, &b22, &mut c).unwrap_err().kind(), ErrorKind::Value);
    let mut c23 = Tensor::from_vec(vec![0; 6], lay("(2,3):(1,2)")).unwrap();
    assert_eq!(gemm(&a, &a, &mut c23).unwrap_err().kind(), ErrorKind::Value);
    let b3 = Tensor::from_vec(vec![0; 6], lay("(2,3,1):(1,2,0)")).unwrap();
    assert_eq!(gemm(&a, &b3, &mut c).unwrap_err().kind(), ErrorKind::Rank);
    let short = Tensor::from_vec(vec![1; 5], lay("(2,3):(1,2)")).unwrap();
    let mut c2 = Tensor::from_vec(vec![0; 4], lay("(2,2):(1,2)")).unwrap();
    assert_eq!(
        gemm(&a, &short, &mut c2).unwrap_err().kind(),
        ErrorKind::Bounds
    );
    assert_eq!(c2.accessor().as_slice(), &[0; 4]);
    let big = Tensor::from_vec(vec![i8::MAX; 6], lay("(2,3):(1,2)")).unwrap();
    let mut c3 = Tensor::from_vec(vec![1i8; 4], lay("(2,2):(1,2)")).unwrap();
    assert_eq!(
        gemm(&big, &big, &mut c3).unwrap_err().kind(),
        ErrorKind::Overflow
    );
    assert_eq!(c3.accessor().as_slice(), &[1; 4]);
}

#[test]
fn gemm_aliased_destination_accumulates() {
    // C has stride 0 along N: every n accumulates into the same element
    let a = Tensor::from_vec(vec![1, 2], lay("(2,1):(1,0)")).unwrap();
    let b = Tensor::from_vec(vec![1, 10, 100], lay("(3,1):(1,0)")).unwrap();
    let mut c = Tensor::from_vec(vec![0, 0], lay("(2,3):(1,0)")).unwrap();
    gemm(&a, &b, &mut c).unwrap();
    assert_eq!(c.accessor().as_slice(), &[111, 222]);
}

// ---------------------------------------------------------------------------
// docs/drawing.md: print_tensor (bodies; the header of a tensor
// is its text)

#[test]
fn spec_print_tensor() {
    let body = |l: &str| print_tensor_body(&implicit(l)).unwrap();
    assert_eq!(
        body("8:1"),
        "0     1     2     3     4     5     6     7     \n"
    );
    assert_eq!(
        body("(4,8):(1,4)"),
        "0     4     8     12    16    20    24    28    \n\
         1     5     9     13    17    21    25    29    \n\
         2     6     10    14    18    22    26    30    \n\
         3     7     11    15    19    23    27    31    \n"
    );
    assert_eq!(
        body("(2,3,2):(1,2,6)"),
        "0     2     4     \n1     3     5     \n--------  k = 1  -----------\n6     8     10    \n7     9     11    \n"
    );
    assert_eq!(
        body("(2,2,2,2):(1,2,4,8)"),
        "0     2     \n1     3     \n------  k = 1  --------\n4     6     \n5     7     \n\
         ======  p = 1  ========\n8     10    \n9     11    \n------  k = 1  --------\n12    14    \n13    15    \n"
    );
    assert_eq!(
        body("(2,3):(100000,1)"),
        "0     1     2     \n100000 100001 100002 \n"
    );
    assert_eq!(
        body("(2,3):(F1,F9)"),
        "F0    F9    F18   \nF1    F8    F19   \n"
    );
    assert_eq!(
        print_tensor(&implicit("8:1"), true).unwrap(),
        "{0} o 8:1\n0     1     2     3     4     5     6     7     \n"
    );
    // coordinate values print too
    assert_eq!(
        print_tensor(&identity_tensor((2, 3)).unwrap(), false).unwrap(),
        "0     1@1   2@1   \n1@0   (1, 1) (1, 2) \n"
    );
    // k >= 10 is padded to two characters, as lpad2 says
    let wide = print_tensor_body(&implicit("(1,1,11):(0,0,1)")).unwrap();
    assert!(wide.contains("----  k = 10 -----\n"), "{wide}");
    assert!(wide.contains("----  k = 1  -----\n"), "{wide}");
    // values of a memory tensor
    let m = Tensor::from_vec(vec![1.5f64, 2.0, 3.0, 4.0], lay("(2,2):(2,1)")).unwrap();
    assert_eq!(
        print_tensor_body(&m).unwrap(),
        "1.5   2     \n3     4     \n"
    );
    assert_eq!(
        print_tensor_body(&implicit("(2,2,2,2,2):(1,2,4,8,16)"))
            .unwrap_err()
            .kind(),
        ErrorKind::Value
    );
    assert_eq!(
        print_tensor_body(&implicit("():()")).unwrap_err().kind(),
        ErrorKind::Value
    );
}

// ---------------------------------------------------------------------------
// Properties

/// A small deterministic generator for structured random inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// Splits `n` into a random sequence of factors (each >= 1).
fn factors(r: &mut Rng, mut n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    while n > 1 && out.len() < 5 {
        let divs: Vec<i64> = (2..=n).filter(|d| n % d == 0).collect();
        let d = divs[r.below(divs.len() as u64) as usize];
        out.push(d);
        n /= d;
    }
    if n > 1 {
        out.push(n);
    }
    if r.below(4) == 0 {
        out.insert(r.below(out.len() as u64 + 1) as usize, 1);
    }
    if out.is_empty() {
        out.push(1);
    }
    out
}

/// A random hierarchy over the given leaves (shape) with random strides.
fn random_layout(r: &mut Rng, leaves: &[i64], stride_range: i64) -> Layout {
    fn build(r: &mut Rng, leaves: &[i64], b: &mut Builder<i64>, depth: usize) {
        if leaves.len() == 1 && (depth > 0 || r.below(2) == 0) {
            b.leaf(leaves[0]);
            return;
        }
        b.open();
        let mut i = 0;
        while i < leaves.len() {
            let take = if depth < 2 {
                1 + r.below((leaves.len() - i) as u64) as usize
            } else {
                1
            };
            if take == 1 {
                b.leaf(leaves[i]);
            } else {
                build(r, &leaves[i..i + take], b, depth + 1);
            }
            i += take;
        }
        b.close();
    }
    let mut b = Builder::new();
    build(r, leaves, &mut b, 0);
    let shape = b.finish();
    let strides: Vec<Scalar> = shape
        .leaves()
        .iter()
        .map(|_| Scalar::Int(r.range(-stride_range, stride_range)))
        .collect();
    let stride = HTuple::unflatten(strides, shape.as_ref()).unwrap();
    Layout::new(shape, stride).unwrap()
}

/// A random permutation of a compact layout over `leaves`.
fn random_compact(r: &mut Rng, leaves: &[i64]) -> Layout {
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, r.below(i as u64 + 1) as usize);
    }
    let mut strides = vec![0i64; leaves.len()];
    let mut acc = 1;
    for &k in &order {
        strides[k] = acc;
        acc *= leaves[k];
    }
    let shape = HTuple::flat(leaves.iter().copied());
    Layout::new(shape, HTuple::flat(strides.into_iter().map(Scalar::Int))).unwrap()
}

/// (min, max) offset of an integer layout.
fn extent(l: &Layout) -> (i64, i64) {
    let (mut lo, mut hi) = (0, 0);
    for (s, d) in l.flat_modes() {
        let e = (s - 1) * d.as_int().unwrap();
        if e < 0 {
            lo += e
        } else {
            hi += e
        }
    }
    (lo, hi)
}

fn off(l: &Layout, i: i64) -> i64 {
    l.eval_index(i).unwrap().as_int().unwrap()
}

/// Reference copy: dst[base + D(i)] = src[base + S(i)] in order.
fn reference_copy(src: &[i64], sb: i64, sl: &Layout, dst: &mut [i64], db: i64, dl: &Layout) {
    for i in 0..sl.size().unwrap() {
        dst[(db + off(dl, i)) as usize] = src[(sb + off(sl, i)) as usize];
    }
}

fn copy_case(seed: u64, shrink_dst: bool) -> Result<(), TestCaseError> {
    let mut r = Rng(seed | 1);
    let total = r.range(1, 240);
    let fs = factors(&mut r, total);
    let n: i64 = fs.iter().product();
    let sl = if r.below(3) == 0 {
        random_compact(&mut r, &fs)
    } else {
        random_layout(&mut r, &fs, 9)
    };
    let dfs = if r.below(3) == 0 {
        fs.clone()
    } else {
        factors(&mut r, n)
    };
    let dl = match r.below(3) {
        0 => random_compact(&mut r, &dfs),
        _ => random_layout(&mut r, &dfs, 9),
    };
    let (slo, shi) = extent(&sl);
    let (dlo, dhi) = extent(&dl);
    let sb = -slo + r.range(0, 3);
    let db = -dlo + r.range(0, 3);
    let src: Vec<i64> = (0..(sb + shi + 1 + r.range(0, 3)))
        .map(|x| x * 7 + 1)
        .collect();
    let mut dlen = db + dhi + 1 + r.range(0, 3);
    if shrink_dst {
        dlen = db + dhi; // one element short (or more if negative)
    }
    let init: Vec<i64> = (0..dlen.max(0)).map(|x| -x - 1).collect();
    let mut dst = init.clone();
    let st = Tensor::new(Ptr::new(&src, sb), sl.clone());
    let res = {
        let mut dt = Tensor::new(PtrMut::new(&mut dst, db), dl.clone());
        copy(&st, &mut dt)
    };
    if shrink_dst {
        prop_assert!(res.is_err(), "{sl} -> {dl} should not fit");
        prop_assert_eq!(res.unwrap_err().kind(), ErrorKind::Bounds);
        prop_assert_eq!(&dst, &init);
    } else {
        prop_assert!(res.is_ok(), "{sl} -> {dl}: {:?}", res);
        let mut want = init.clone();
        reference_copy(&src, sb, &sl, &mut want, db, &dl);
        prop_assert_eq!(&dst, &want, "{} -> {}", sl, dl);
        // the generic path (a transform source) agrees
        let tr = Tensor::new(
            TransformAccessor::new(Ptr::new(&src, sb), |x: i64| x),
            sl.clone(),
        );
        let mut dst2 = init.clone();
        let mut dt2 = Tensor::new(PtrMut::new(&mut dst2, db), dl.clone());
        copy(&tr, &mut dt2).unwrap();
        prop_assert_eq!(&dst2, &want);
    }
    Ok(())
}

/// Membership of integral index `i` of `l` in the slice at `c`.
fn in_slice(c: rcute::HRef<'_, Option<Scalar>>, s: rcute::HRef<'_, i64>, i: i64) -> bool {
    // natural coordinate of i, then compare at every fixed position of c
    let nat = idx2crd(HTuple::leaf(Some(Scalar::Int(i))).as_ref(), s).unwrap();
    fn walk(
        c: rcute::HRef<'_, Option<Scalar>>,
        s: rcute::HRef<'_, i64>,
        nat: rcute::HRef<'_, Scalar>,
    ) -> bool {
        match c.as_leaf() {
            Some(None) => true,
            Some(Some(x)) => {
                let sub: Coord = nat.to_owned().map(|v| Some(v.clone()));
                rcute::shape::crd2idx(sub.as_ref(), s).unwrap() == x.as_int().unwrap()
            }
            None => c
                .modes()
                .zip(s.modes())
                .zip(nat.modes())
                .all(|((cm, sm), nm)| walk(cm, sm, nm)),
        }
    }
    walk(c, s, nat.as_ref())
}

/// A random slicing coordinate for shape `s` (at least one `None`, in
/// range).
fn random_slice(r: &mut Rng, s: rcute::HRef<'_, i64>, top: bool) -> Coord {
    let size: i64 = s.leaves().iter().product();
    let pick = r.below(if s.is_leaf() { 2 } else { 3 });
    if !top && pick == 0 {
        return HTuple::leaf(None);
    }
    if pick == 1 || (s.is_leaf() && top) {
        if top && s.is_leaf() {
            return HTuple::leaf(None);
        }
        return HTuple::leaf(Some(Scalar::Int(r.range(0, size - 1))));
    }
    HTuple::tuple(
        s.modes()
            .map(|m| random_slice(r, m, false))
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn copy_matches_reference(seed in any::<u64>()) {
        copy_case(seed, false)?;
    }

    #[test]
    fn copy_out_of_bounds_writes_nothing(seed in any::<u64>()) {
        copy_case(seed, true)?;
    }

    #[test]
    fn slices_are_views_sharing_storage(seed in any::<u64>()) {
        let mut r = Rng(seed | 1);
        let total = r.range(1, 96);
        let fs = factors(&mut r, total);
        let l = random_layout(&mut r, &fs, 6);
        let (lo, hi) = extent(&l);
        let base = -lo;
        let len = (base + hi + 1) as usize;
        let c = random_slice(&mut r, l.shape().as_ref(), true);
        let n = l.size().unwrap();
        // which integral indices the slice selects, and their offsets
        let members: Vec<i64> = (0..n).filter(|&i| in_slice(c.as_ref(), l.shape().as_ref(), i)).collect();
        let mut buf = vec![0i64; len];
        {
            let mut t = Tensor::new(PtrMut::new(&mut buf, base), l.clone());
            let mut s = t.slice_mut(&c).unwrap();
            prop_assert_eq!(s.size().unwrap(), members.len() as i64);
            let m = s.size().unwrap();
            for j in 0..m {
                // add rather than store, so aliasing elements count twice
                let v = s.at(j).unwrap();
                s.set(j, v + 1).unwrap();
            }
        }
        let mut want = vec![0i64; len];
        for &i in &members {
            want[(base + off(&l, i)) as usize] += 1;
        }
        prop_assert_eq!(&buf, &want, "{} at {}", l, rcute::shape::DisplayCoord(c.as_ref()));
        // the implicit tensor's slice enumerates the same offsets
        let it = Tensor::from_layout(l.clone());
        let sl = it.slice(&c).unwrap();
        let mut got: Vec<i64> = sl.values().unwrap().iter().map(|v| v.as_int().unwrap()).collect();
        let mut exp: Vec<i64> = members.iter().map(|&i| off(&l, i)).collect();
        got.sort();
        exp.sort();
        prop_assert_eq!(got, exp);
    }

    #[test]
    fn gemm_matches_naive(seed in any::<u64>()) {
        let mut r = Rng(seed | 1);
        let (m, n, k, l) = (r.range(1, 4), r.range(1, 4), r.range(1, 4), r.range(1, 3));
        let rank2 = l == 1 && r.below(2) == 0;
        let dims = |a: i64, b: i64| if rank2 { vec![a, b] } else { vec![a, b, l] };
        let la = random_compact(&mut r, &dims(m, k));
        let lb = random_compact(&mut r, &dims(n, k));
        let lc = random_compact(&mut r, &dims(m, n));
        let av: Vec<i64> = (0..m * k * l).map(|_| r.range(-9, 9)).collect();
        let bv: Vec<i64> = (0..n * k * l).map(|_| r.range(-9, 9)).collect();
        let cv: Vec<i64> = (0..m * n * l).map(|_| r.range(-9, 9)).collect();
        let store = |lay: &Layout, vals: &[i64], d0: i64, d1: i64| {
            let mut t = make_tensor::<i64>(lay.clone()).unwrap();
            for z in 0..l {
                for y in 0..d1 {
                    for x in 0..d0 {
                        let v = vals[(x + d0 * (y + d1 * z)) as usize];
                        if rank2 { t.set((x, y), v).unwrap() } else { t.set((x, y, z), v).unwrap() }
                    }
                }
            }
            t
        };
        let at = store(&la, &av, m, k);
        let bt = store(&lb, &bv, n, k);
        let mut ct = store(&lc, &cv, m, n);
        gemm(&at, &bt, &mut ct).unwrap();
        for z in 0..l {
            for y in 0..n {
                for x in 0..m {
                    let mut want = cv[(x + m * (y + n * z)) as usize];
                    for kk in 0..k {
                        want += av[(x + m * (kk + k * z)) as usize] * bv[(y + n * (kk + k * z)) as usize];
                    }
                    let got = if rank2 { ct.at((x, y)).unwrap() } else { ct.at((x, y, z)).unwrap() };
                    prop_assert_eq!(got, want);
                }
            }
        }
    }

    #[test]
    fn fill_writes_exactly_the_image(seed in any::<u64>()) {
        let mut r = Rng(seed | 1);
        let total = r.range(1, 120);
        let fs = factors(&mut r, total);
        let l = random_layout(&mut r, &fs, 7);
        let (lo, hi) = extent(&l);
        let base = -lo + r.range(0, 2);
        let len = (base + hi + 1 + r.range(0, 2)) as usize;
        let mut buf = vec![0u8; len];
        let mut t = Tensor::new(PtrMut::new(&mut buf, base), l.clone());
        fill(&mut t, 1).unwrap();
        let mut want = vec![0u8; len];
        for i in 0..l.size().unwrap() {
            want[(base + off(&l, i)) as usize] = 1;
        }
        prop_assert_eq!(buf, want);
    }
}

#[test]
fn large_copies_match_reference() {
    // sizes above the parallel threshold, through several layouts
    let cases = [
        ("(512,512):(1,512)", "(512,512):(512,1)"),
        ("(512,512):(512,1)", "(512,512):(1,512)"),
        ("((16,32),(32,16)):((1,8192),(16,512))", "(512,512):(512,1)"),
        ("(1024,256):(256,1)", "((32,32),256):((1,32),1024)"),
        ("(300,700):(700,1)", "(300,700):(1,300)"),
        ("(262144,):(1,)", "(512,512):(-512,-1)"),
    ];
    for (s, d) in cases {
        let (sl, dl) = (lay(s), lay(d));
        let (slo, shi) = extent(&sl);
        let (dlo, dhi) = extent(&dl);
        let src: Vec<i64> = (0..(shi - slo + 1)).map(|x| x * 3 + 1).collect();
        let mut dst = vec![0i64; (dhi - dlo + 1) as usize];
        let mut want = dst.clone();
        reference_copy(&src, -slo, &sl, &mut want, -dlo, &dl);
        let st = Tensor::new(Ptr::new(&src, -slo), sl);
        let mut dt = Tensor::new(PtrMut::new(&mut dst, -dlo), dl);
        copy(&st, &mut dt).unwrap();
        assert!(dst == want, "{s} -> {d}");
    }
}

// ---------------------------------------------------------------------------
// docs/tensors.md: algebra on tensors keeps the accessor

#[test]
fn spec_algebra_on_tensors() {
    use rcute::Tiler;
    let t = Tensor::new(ImplicitAccessor::new(Scalar::Int(5)), lay("(2,3):(1,2)"));
    assert_eq!(t.coalesce().unwrap().to_string(), "{5} o 6:1");
    let t = implicit("24:1")
        .composition(&Tiler::Layout(lay("(4,6):(1,4)")))
        .unwrap();
    assert_eq!(t.to_string(), "{0} o (4, 6):(1, 4)");
    let t = implicit("24:1")
        .logical_divide(&Tiler::Layout(lay("4:2")))
        .unwrap();
    assert_eq!(t.to_string(), "{0} o (4, (2, 3)):(2, (1, 8))");
    let t = implicit("(8,24):(1,8)")
        .zipped_divide(&Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into()))
        .unwrap();
    assert_eq!(t.to_string(), "{0} o ((4, 8), (2, 3)):((1, 8), (4, 64))");
    // a memory tensor keeps its buffer
    let m = make_tensor::<i32>(lay("(2,3):(1,2)")).unwrap();
    let before = m.accessor().as_slice().as_ptr();
    let c = m.coalesce().unwrap();
    assert_eq!(c.layout().to_string(), "6:1");
    assert_eq!(c.accessor().as_slice().as_ptr(), before);
}

// ---------------------------------------------------------------------------
// docs/tensors.md: partitioning

fn tiler(v: &[i64]) -> rcute::Tiler {
    rcute::Tiler::Tuple(v.iter().map(|&x| rcute::Tiler::Int(x)).collect())
}

#[test]
fn spec_partitioning() {
    use rcute::tensor::{local_partition, local_tile, outer_partition};
    let d = implicit("(8,24):(1,8)");
    assert_eq!(
        local_tile(&d, &tiler(&[4, 8]), (1, 2)).unwrap().to_string(),
        "{132} o (4, 8):(1, 8)"
    );
    assert_eq!(
        local_tile(&d, &tiler(&[4, 8]), 5).unwrap().to_string(),
        "{132} o (4, 8):(1, 8)"
    );
    assert_eq!(
        outer_partition(&d, &tiler(&[4, 8]), 5).unwrap().to_string(),
        "{9} o (2, 3):(4, 64)"
    );
    let big = implicit("(16,64):(1,16)");
    assert_eq!(
        local_partition(&big, &lay("(2,16):(1,2)"), 17)
            .unwrap()
            .to_string(),
        "{129} o (8, 4):(2, 256)"
    );
    assert_eq!(
        local_partition(&big, &lay("(2,16):(16,1)"), 17)
            .unwrap()
            .to_string(),
        "{17} o (8, 4):(2, 256)"
    );
}

#[test]
fn partitioning_with_projections() {
    use rcute::tensor::{local_partition_proj, local_tile, local_tile_proj, Step};
    // C++'s  local_tile(A, make_tile(BM, BN, BK), (m, n, k), Step<_1, X, _1>)
    // picks the (BM, BK) tile of A at (m, k).
    let a = implicit("(8,12):(1,8)");
    let t = local_tile_proj(
        &a,
        &tiler(&[4, 2, 3]),
        (1, 5, 2),
        &[Step::Keep, Step::X, Step::Keep],
    )
    .unwrap();
    let direct = local_tile(&a, &tiler(&[4, 3]), (1, 2)).unwrap();
    assert_eq!(t.to_string(), direct.to_string());
    assert_eq!(t.to_string(), "{52} o (4, 3):(1, 8)");
    // local_partition with a projection drops the thread layout's mode
    let p = local_partition_proj(
        &a,
        &lay("(2,4,3):(1,2,8)"),
        5,
        &[Step::Keep, Step::X, Step::Keep],
    );
    let q = rcute::tensor::local_partition(&a, &lay("(2,3):(1,8)"), 5).unwrap();
    assert_eq!(p.unwrap().to_string(), q.to_string());
    assert_eq!(
        local_tile_proj(&a, &tiler(&[4, 3]), (1, 2), &[Step::Keep])
            .unwrap_err()
            .kind(),
        ErrorKind::Rank
    );
}

#[test]
fn thread_value_partitioning() {
    // composition(D, tv)[t, None]: thread t's values in TV order
    let d = implicit("(4,8):(8,1)");
    let tv = rcute::Tiler::Layout(lay("(8,4):(4,1)"));
    let c = d.composition(&tv).unwrap();
    let th = c.slice((3, ALL)).unwrap();
    let vals: Vec<i64> = th
        .values()
        .unwrap()
        .iter()
        .map(|v| v.as_int().unwrap())
        .collect();
    // thread 3 owns data coordinates 12..16 (column-major in (4,8)), i.e.
    // (0,3),(1,3),(2,3),(3,3) -> row-major offsets 3, 11, 19, 27
    assert_eq!(vals, vec![3, 11, 19, 27]);
}

/// Divisors of n.
fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// For a tiling shape (tile extents dividing the tensor's), the tiles
    /// of local_tile, over all tile coordinates, cover every element once;
    /// so do the partitions of local_partition over all threads.
    #[test]
    fn tiles_and_partitions_cover_exactly_once(seed in any::<u64>()) {
        use rcute::tensor::{local_partition, local_tile};
        let mut r = Rng(seed | 1);
        let (m, n) = (r.range(1, 12), r.range(1, 12));
        let dm = divisors(m);
        let dn = divisors(n);
        let (bm, bn) = (dm[r.below(dm.len() as u64) as usize], dn[r.below(dn.len() as u64) as usize]);
        let data = if r.below(2) == 0 {
            lay(&format!("({m},{n}):(1,{m})"))
        } else {
            lay(&format!("({m},{n}):({n},1)"))
        };
        let t = Tensor::from_layout(data.clone());
        let size = (m * n) as usize;
        let mut hits = vec![0u32; size];
        let tiles = (m / bm) * (n / bn);
        for c in 0..tiles {
            let tile = local_tile(&t, &tiler(&[bm, bn]), c).unwrap();
            prop_assert_eq!(tile.size().unwrap(), bm * bn);
            for v in tile.values().unwrap() {
                hits[v.as_int().unwrap() as usize] += 1;
            }
        }
        prop_assert!(hits.iter().all(|&h| h == 1), "local_tile {bm}x{bn} over {data}: {hits:?}");
        // threads: a (bm, bn) thread layout, column- or row-major
        let thr = if r.below(2) == 0 {
            lay(&format!("({bm},{bn}):(1,{bm})"))
        } else {
            lay(&format!("({bm},{bn}):({bn},1)"))
        };
        let mut hits = vec![0u32; size];
        for idx in 0..bm * bn {
            let part = local_partition(&t, &thr, idx).unwrap();
            prop_assert_eq!(part.size().unwrap(), tiles);
            for v in part.values().unwrap() {
                hits[v.as_int().unwrap() as usize] += 1;
            }
        }
        prop_assert!(hits.iter().all(|&h| h == 1), "local_partition {thr} over {data}: {hits:?}");
    }
}

// ---------------------------------------------------------------------------
// Tensors in the notation (docs/language.md: identity_tensor, make_tensor)

#[test]
fn notation_tensors() {
    use rcute::notation::eval_str;
    let ev = |s: &str| eval_str(s).unwrap();
    assert_eq!(ev("identity_tensor((3,4))"), "{0} o (3, 4):(1@0, 1@1)");
    assert_eq!(ev("make_identity_tensor((3,4))"), "{0} o (3, 4):(1@0, 1@1)");
    assert_eq!(ev("identity_tensor((3,4))(1,2)"), "(1, 2)");
    assert_eq!(ev("identity_tensor((3,4))(None,2)"), "{2@1} o (3,):(1@0,)");
    assert_eq!(ev("identity_tensor((2,(3,4)))(7)"), "(1, 1@1)");
    assert_eq!(ev("identity_tensor(5)(3)"), "3");
    // make_tensor: cosize(L) zeros in a buffer its slices share
    // printed with its length and element type, no address: the same text
    // in every run
    assert_eq!(
        ev("make_tensor((2,3):(3,1))"),
        "Array(6 x i64) o (2, 3):(3, 1)"
    );
    assert_eq!(ev("make_tensor((2,3):(3,1))(1,2)"), "0");
    assert_eq!(ev("size(make_tensor((2,3)))"), "6");
    assert_eq!(ev("make_tensor((2,3))"), "Array(6 x i64) o (2, 3):(1, 2)");
    assert_eq!(
        ev("zipped_divide(make_tensor((8,24):(1,8)), (4,8))"),
        "Array(192 x i64) o ((4, 8), (2, 3)):((1, 8), (4, 64))"
    );
    let mut s = rcute::notation::Session::new();
    let whole = s
        .eval_line("T = make_tensor((2,3):(3,1))")
        .unwrap()
        .unwrap();
    let row = s.eval_line("T(1, None)").unwrap().unwrap();
    let (whole, row) = (whole.to_string(), row.to_string());
    assert_eq!(whole, "Array(6 x i64) o (2, 3):(3, 1)");
    // the slice starts 3 elements into the same buffer
    assert_eq!(row, "Array(6 x i64)+3 o (3,):(1,)");
    assert_eq!(
        s.eval_line("T(None, 2)").unwrap().unwrap().to_string(),
        "Array(6 x i64)+2 o (2,):(3,)"
    );
    for bad in [
        "make_tensor((3,4):(-1,3))",
        "make_tensor((4,8):(1@0,1@1))",
        "make_tensor((2,3):(F1,F9))",
        "make_tensor(1000000000)",
        "make_tensor((2,3):(3,1))(7)",
    ] {
        assert!(eval_str(bad).is_err(), "{bad}");
    }
}

/// A layout whose extents and strides come from the extremes of i64.
fn extreme_layout(r: &mut Rng, rank: usize) -> Layout {
    const EXT: [i64; 6] = [1, 2, 3, 1 << 31, 1 << 62, i64::MAX];
    const STR: [i64; 9] = [
        0,
        1,
        -1,
        2,
        1 << 31,
        -(1 << 31),
        1 << 62,
        i64::MIN,
        i64::MAX,
    ];
    let shape: Vec<i64> = (0..rank)
        .map(|_| EXT[r.below(EXT.len() as u64) as usize])
        .collect();
    let stride: Vec<Scalar> = (0..rank)
        .map(|_| Scalar::Int(STR[r.below(STR.len() as u64) as usize]))
        .collect();
    Layout::new(HTuple::flat(shape), HTuple::flat(stride)).unwrap()
}

fn extreme_case(seed: u64) -> Result<(), TestCaseError> {
    let mut r = Rng(seed | 1);
    let rank = 1 + r.below(3) as usize;
    let sl = extreme_layout(&mut r, rank);
    // the destination: same shape, other strides
    let dl = {
        let other = extreme_layout(&mut r, rank);
        Layout::new(sl.shape().clone(), other.stride().to_owned()).unwrap()
    };
    let src: Vec<i32> = (0..r.below(9) as i32).collect();
    let init: Vec<i32> = (0..r.below(9) as i32).map(|x| -x).collect();
    let sb = r.range(-2, 4);
    let db = r.range(-2, 4);
    let mut dst = init.clone();
    let st = Tensor::new(Ptr::new(&src, sb), sl.clone());
    let res = copy(&st, &mut Tensor::new(PtrMut::new(&mut dst, db), dl.clone()));
    if res.is_err() {
        prop_assert_eq!(&dst, &init);
    }
    let res = fill(&mut Tensor::new(PtrMut::new(&mut dst, db), dl.clone()), 7);
    if res.is_err() {
        prop_assert_eq!(&dst, &init);
    }
    let _ = st.slice((ALL,));
    let _ = st.at(r.range(-5, 5));
    if sl.size().map(|n| n <= 64).unwrap_or(false) {
        let _ = print_tensor(&st, true);
    }
    let (m, k) = (sl.shape().leaves()[0], *sl.shape().leaves().last().unwrap());
    let work = m.checked_mul(m).and_then(|x| x.checked_mul(k));
    if rank == 2 && work.is_some_and(|w| w <= 1 << 16) {
        let mut c = init.clone();
        let cl = Layout::new(
            HTuple::flat([sl.shape().leaves()[0], sl.shape().leaves()[0]]),
            dl.stride().to_owned(),
        )
        .unwrap();
        let res = gemm(&st, &st, &mut Tensor::new(PtrMut::new(&mut c, db), cl));
        if res.is_err() {
            prop_assert_eq!(&c, &init);
        }
    }
    Ok(())
}

/// Seeds that once made `fill` loop over 2^63 elements (a size-1 leaf with
/// stride `i64::MIN` defeated the overflow guard of the fast path).
#[test]
fn extreme_regressions() {
    for seed in [
        7944834352151706244u64,
        4726762228664053497,
        6479506079653860778,
    ] {
        extreme_case(seed).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Extreme extents and strides never panic: copy, fill, gemm, slicing and
    /// printing either succeed or return an error, and an error leaves the
    /// destination untouched.
    #[test]
    fn extreme_inputs_do_not_panic(seed in any::<u64>()) {
        extreme_case(seed)?;
    }
}

#[test]
fn gemm_large_broadcast_modes() {
    // more cells than gemm tabulates (2^22): offsets and slots are computed
    // on demand; every (m, n) accumulates into the single element of C
    let m = (1i64 << 22) + 1;
    let a = Tensor::from_vec(vec![2i64], lay(&format!("({m},1):(0,0)"))).unwrap();
    let b = Tensor::from_vec(vec![3i64], lay("(1,1):(0,0)")).unwrap();
    let mut c = Tensor::from_vec(vec![1i64], lay(&format!("({m},1):(0,0)"))).unwrap();
    gemm(&a, &b, &mut c).unwrap();
    assert_eq!(c.accessor().as_slice(), &[1 + 6 * m]);
}
