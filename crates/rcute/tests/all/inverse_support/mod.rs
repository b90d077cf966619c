//! Test support for the inverse / layout_add / recast / common tests: a tiny
//! reader for layout literals as the spec tables write them
//! (`(4,(2,3)):(1@0,(F2,-3))`, `E(1,0)`, `3*E(1)`, `F9`), and small
//! generators.
#![allow(dead_code)]

use rcute::{HTuple, Layout, Scalar};

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i] == b' ' {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> u8 {
        self.ws();
        *self.s.get(self.i).unwrap_or(&0)
    }
    fn eat(&mut self, c: u8) {
        assert_eq!(self.peek(), c, "expected {} at {}", c as char, self.i);
        self.i += 1;
    }
    fn int(&mut self) -> i64 {
        self.ws();
        let st = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[st..self.i])
            .unwrap()
            .parse()
            .unwrap()
    }
    fn shape(&mut self) -> HTuple<i64> {
        if self.peek() == b'(' {
            self.eat(b'(');
            let mut v = Vec::new();
            while self.peek() != b')' {
                v.push(self.shape());
                if self.peek() == b',' {
                    self.eat(b',');
                }
            }
            self.eat(b')');
            HTuple::tuple(v)
        } else {
            HTuple::leaf(self.int())
        }
    }
    fn scalar(&mut self) -> Scalar {
        match self.peek() {
            b'F' => {
                self.i += 1;
                Scalar::F2(self.int())
            }
            b'E' => {
                self.i += 1;
                self.basis_e(1)
            }
            _ => {
                let v = self.int();
                match self.peek() {
                    b'@' => {
                        let mut path = Vec::new();
                        while self.peek() == b'@' {
                            self.eat(b'@');
                            path.push(self.int() as usize);
                        }
                        path.reverse();
                        Scalar::basis(v, &path)
                    }
                    b'*' => {
                        self.eat(b'*');
                        self.eat(b'E');
                        self.basis_e(v)
                    }
                    _ => Scalar::Int(v),
                }
            }
        }
    }
    fn basis_e(&mut self, v: i64) -> Scalar {
        self.eat(b'(');
        let mut path = Vec::new();
        while self.peek() != b')' {
            path.push(self.int() as usize);
            if self.peek() == b',' {
                self.eat(b',');
            }
        }
        self.eat(b')');
        Scalar::basis(v, &path)
    }
    fn stride(&mut self) -> HTuple<Scalar> {
        if self.peek() == b'(' {
            self.eat(b'(');
            let mut v = Vec::new();
            while self.peek() != b')' {
                v.push(self.stride());
                if self.peek() == b',' {
                    self.eat(b',');
                }
            }
            self.eat(b')');
            HTuple::tuple(v)
        } else {
            HTuple::leaf(self.scalar())
        }
    }
}

/// Reads `S:D`, or a bare shape `S` (column-major).
pub fn l(text: &str) -> Layout {
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
    };
    let s = p.shape();
    if p.peek() == b':' {
        p.eat(b':');
        let d = p.stride();
        assert_eq!(p.peek(), 0, "trailing input in {text}");
        Layout::new(s, d).unwrap()
    } else {
        Layout::column_major(s).unwrap()
    }
}

/// Reads a shape.
pub fn sh(text: &str) -> HTuple<i64> {
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
    };
    p.shape()
}

/// The error kind name of a result.
pub fn kind<T: std::fmt::Debug>(r: rcute::Result<T>) -> &'static str {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.kind().name(),
    }
}

/// Builds a layout from flat lists (shape tuple of the given leaves).
pub fn flat_layout(s: &[i64], d: &[Scalar]) -> Layout {
    Layout::new(
        HTuple::flat(s.iter().copied()),
        HTuple::flat(d.iter().cloned()),
    )
    .unwrap()
}

/// Integer strides as scalars.
pub fn ints(d: &[i64]) -> Vec<Scalar> {
    d.iter().map(|&x| Scalar::Int(x)).collect()
}

/// The integer value of an integer scalar.
pub fn as_i(x: &Scalar) -> i64 {
    match x {
        Scalar::Int(v) | Scalar::F2(v) => *v,
        other => panic!("not an integer: {other}"),
    }
}
