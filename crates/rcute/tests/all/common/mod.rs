//! Test-side reader for the value subset of the notation used in the spec's
//! examples: integers, tuples, `_`/`None`, `E(..)`, `v@i`, `F2(n)`, `F<n>`,
//! `ArithTuple(..)`, `+ - *` on stride scalars, and layouts `S:D`.
//! (Independent of the library's notation module, so that the library's
//! functions can be tested before and apart from it.)
#![allow(dead_code)]

use rcute::htuple::Builder;
use rcute::{HRef, HTuple, Layout, Scalar};

/// A parsed value: a leaf (a stride scalar, or `None` for `_`) or a tuple.
#[derive(Clone, Debug)]
pub enum V {
    Leaf(Option<Scalar>),
    Tuple(Vec<V>),
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) {
        assert!(
            self.eat(c),
            "expected {:?} at {} in {:?}",
            c as char,
            self.i,
            std::str::from_utf8(self.s).unwrap()
        );
    }
    fn ident(&mut self) -> String {
        self.ws();
        let st = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[st..self.i])
            .unwrap()
            .to_string()
    }
    fn int(&mut self) -> i64 {
        let t = self.ident();
        if let Some(b) = t.strip_prefix("0b") {
            i64::from_str_radix(b, 2).unwrap()
        } else if let Some(h) = t.strip_prefix("0x") {
            i64::from_str_radix(h, 16).unwrap()
        } else {
            t.parse().unwrap_or_else(|_| panic!("bad integer {t:?}"))
        }
    }

    fn sum(&mut self) -> V {
        let mut x = self.term();
        loop {
            if self.eat(b'+') {
                let y = self.term();
                x = V::Leaf(Some(sc(&x).add(&sc(&y)).unwrap()));
            } else if self.peek() == Some(b'-') {
                self.i += 1;
                let y = self.term();
                x = V::Leaf(Some(sc(&x).sub(&sc(&y)).unwrap()));
            } else {
                return x;
            }
        }
    }
    fn term(&mut self) -> V {
        let mut x = self.unary();
        while self.eat(b'*') {
            let y = self.unary();
            x = V::Leaf(Some(sc(&x).mul(&sc(&y)).unwrap()));
        }
        x
    }
    fn unary(&mut self) -> V {
        if self.eat(b'-') {
            let x = self.unary();
            return V::Leaf(Some(sc(&x).neg().unwrap()));
        }
        let mut x = self.primary();
        while self.eat(b'@') {
            let neg = self.eat(b'-');
            let i = self.int();
            x = V::Leaf(Some(sc(&x).at(if neg { -i } else { i }).unwrap()));
        }
        x
    }
    fn args(&mut self) -> Vec<V> {
        self.expect(b'(');
        let mut v = Vec::new();
        if self.eat(b')') {
            return v;
        }
        loop {
            v.push(self.sum());
            if self.eat(b')') {
                return v;
            }
            self.expect(b',');
            if self.eat(b')') {
                return v;
            }
        }
    }
    fn primary(&mut self) -> V {
        match self.peek() {
            Some(b'(') => {
                self.i += 1;
                if self.eat(b')') {
                    return V::Tuple(vec![]);
                }
                let first = self.sum();
                if self.eat(b')') {
                    return first;
                }
                let mut v = vec![first];
                while self.eat(b',') {
                    if self.peek() == Some(b')') {
                        break;
                    }
                    v.push(self.sum());
                }
                self.expect(b')');
                V::Tuple(v)
            }
            Some(c) if c.is_ascii_digit() => V::Leaf(Some(Scalar::Int(self.int()))),
            _ => {
                let id = self.ident();
                match id.as_str() {
                    "_" | "None" => V::Leaf(None),
                    "E" => {
                        let path: Vec<usize> = self
                            .args()
                            .iter()
                            .map(|a| match sc(a) {
                                Scalar::Int(i) => usize::try_from(i).unwrap_or(0),
                                o => panic!("bad E index {o}"),
                            })
                            .collect();
                        V::Leaf(Some(Scalar::basis(1, &path)))
                    }
                    "F2" if self.peek() != Some(b'(') => V::Leaf(Some(Scalar::F2(2))),
                    "F2" => {
                        let a = self.args();
                        V::Leaf(Some(Scalar::F2(sc(&a[0]).as_int().unwrap())))
                    }
                    "ArithTuple" => {
                        let a = self.args();
                        if a.len() == 1 {
                            match &a[0] {
                                V::Tuple(_) => V::Leaf(Some(to_coord(&a[0]))),
                                x => x.clone(),
                            }
                        } else {
                            V::Leaf(Some(to_coord(&V::Tuple(a))))
                        }
                    }
                    f if f.starts_with('F') && f.len() > 1 => {
                        V::Leaf(Some(Scalar::F2(f[1..].parse().unwrap())))
                    }
                    other => panic!("unknown identifier {other:?}"),
                }
            }
        }
    }
}

fn sc(v: &V) -> Scalar {
    match v {
        V::Leaf(Some(s)) => s.clone(),
        V::Tuple(_) => to_coord(v),
        V::Leaf(None) => panic!("None in arithmetic"),
    }
}

fn to_coord(v: &V) -> Scalar {
    match v {
        V::Leaf(Some(s)) => s.clone(),
        V::Tuple(xs) => Scalar::coord(xs.iter().map(to_coord).collect()),
        V::Leaf(None) => panic!("None in a coordinate value"),
    }
}

/// Parses a value (no layouts).
pub fn val(src: &str) -> V {
    let mut p = P {
        s: src.as_bytes(),
        i: 0,
    };
    let v = p.sum();
    p.ws();
    assert_eq!(p.i, src.len(), "trailing text in {src:?}");
    v
}

fn build<T>(v: &V, b: &mut Builder<T>, f: &mut dyn FnMut(&Option<Scalar>) -> T) {
    match v {
        V::Leaf(x) => b.leaf(f(x)),
        V::Tuple(xs) => {
            b.open();
            for x in xs {
                build(x, b, f);
            }
            b.close();
        }
    }
}

/// A coordinate HTuple (`None` for `_`).
pub fn crd(src: &str) -> HTuple<Option<Scalar>> {
    let mut b = Builder::new();
    build(&val(src), &mut b, &mut |x| x.clone());
    b.finish()
}

/// An integer HTuple (shape).
pub fn sh(src: &str) -> HTuple<i64> {
    let mut b = Builder::new();
    build(&val(src), &mut b, &mut |x| match x {
        Some(Scalar::Int(i)) => *i,
        o => panic!("not an integer: {o:?}"),
    });
    b.finish()
}

/// A stride-scalar HTuple.
pub fn st(src: &str) -> HTuple<Scalar> {
    let mut b = Builder::new();
    build(&val(src), &mut b, &mut |x| {
        x.clone().expect("None in a stride")
    });
    b.finish()
}

/// A single stride scalar (a tuple becomes a coordinate value).
pub fn s(src: &str) -> Scalar {
    sc(&val(src))
}

fn split_colon(src: &str) -> (&str, &str) {
    let mut depth = 0i32;
    for (i, c) in src.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ':' if depth == 0 => return (&src[..i], &src[i + 1..]),
            _ => {}
        }
    }
    panic!("no ':' in layout {src:?}")
}

/// Stride HTuple read against a shape: a stride tuple at a shape leaf is one
/// coordinate value (`layout.md` 2.2).
fn stride_like(shape: HRef<'_, i64>, d: &V, b: &mut Builder<Scalar>) {
    match (shape.is_leaf(), d) {
        (true, _) => b.leaf(sc(d)),
        (false, V::Tuple(xs)) => {
            b.open();
            for (m, x) in shape.modes().zip(xs) {
                stride_like(m, x, b);
            }
            b.close();
        }
        (false, V::Leaf(_)) => panic!("stride leaf at a shape tuple"),
    }
}

/// A layout literal `S:D`.
pub fn lay(src: &str) -> Layout {
    let (a, d) = split_colon(src);
    let shape = sh(a);
    let mut b = Builder::new();
    stride_like(shape.as_ref(), &val(d), &mut b);
    Layout::new(shape, b.finish()).unwrap()
}

/// The integer-valued scalar.
pub fn int(v: i64) -> Scalar {
    Scalar::Int(v)
}
