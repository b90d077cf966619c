//! Symbolic integers (`rcute::sym`): worked examples (hand-derived) and
//! the substitution property — whenever a symbolic operation succeeds,
//! substituting admissible values into its result gives the concrete
//! operation on the substituted operands — plus the soundness of the
//! divisibility and order proofs.

use proptest::prelude::*;
use rcute::sym::{Facts, SymInt};
use rcute::ErrorKind;

fn nk(div_n: i64, min_n: i64, div_k: i64, min_k: i64) -> Facts {
    let mut f = Facts::new();
    f.assume_divisible("N", div_n).unwrap();
    f.assume_at_least("N", min_n).unwrap();
    f.assume_divisible("K", div_k).unwrap();
    f.assume_at_least("K", min_k).unwrap();
    f
}

fn sym(f: &Facts, n: &str) -> SymInt {
    SymInt::symbol(f, n).unwrap()
}

#[test]
fn worked_examples() {
    // hand-derived, following the printing rule of the module docs
    let f = nk(16, 1, 1, 1);
    let (n, k) = (sym(&f, "N"), sym(&f, "K"));
    // N*K/16 is exact when 16 | N
    let q = n.mul(&k).unwrap().floor_div(&SymInt::from(16)).unwrap();
    assert_eq!(q.to_string(), "N*K/16");
    assert_eq!(q.eval(&[("N", 48), ("K", 5)]).unwrap(), 15);
    // (N + 5) // 16 = N/16 and (N + 5) % 16 = 5
    let p = n.add(&SymInt::from(5)).unwrap();
    let (d, m) = p.divmod(&SymInt::from(16)).unwrap();
    assert_eq!(
        (d.to_string(), m.to_string()),
        ("N/16".to_string(), "5".to_string())
    );
    // K has no divisor: K // 4 and K % 4 stay symbolic
    let (d, m) = k.divmod(&SymInt::from(4)).unwrap();
    assert_eq!(
        (d.to_string(), m.to_string()),
        ("K//4".to_string(), "K % 4".to_string())
    );
    assert_eq!(d.eval(&[("K", 11)]).unwrap(), 2);
    assert_eq!(m.eval(&[("K", 11)]).unwrap(), 3);
    // 2*N*K / N is exactly 2*K
    let e = n.mul(&k).unwrap().mul(&SymInt::from(2)).unwrap();
    assert_eq!(e.floor_div(&n).unwrap().to_string(), "2*K");
    // order: N < N*N needs N >= 2, which 16 | N gives; K < K*K does not hold for K = 1
    assert_eq!(n.lt(&n.mul(&n).unwrap()), Some(true));
    assert_eq!(k.lt(&k.mul(&k).unwrap()), None);
    // N < 3*N always; 2*N + 1 is positive
    assert_eq!(n.lt(&n.mul(&SymInt::from(3)).unwrap()), Some(true));
    // inadmissible values are refused, naming the fact
    let e = q.eval(&[("N", 40), ("K", 1)]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.message().contains("N % 16 == 0"), "{}", e.message());
    // an undeclared symbol is an error that says how to declare it
    let e = SymInt::symbol(&f, "M").unwrap_err();
    assert!(e.message().contains("assume M"), "{}", e.message());
    // division by zero and by a symbolic value not proven non-zero
    assert!(n.floor_div(&SymInt::from(0)).is_err());
    assert!(n.floor_div(&n.sub(&k).unwrap()).is_err());
}

#[test]
fn bounds_are_errors_not_panics() {
    let f = nk(1, 1, 1, 1);
    let n = sym(&f, "N");
    let big = SymInt::from(i64::MAX);
    assert_eq!(big.add(&big).unwrap_err().kind(), ErrorKind::Overflow);
    assert_eq!(
        n.mul(&big).unwrap().mul(&big).unwrap_err().kind(),
        ErrorKind::Overflow
    );
    // degree bound
    let mut p = n.clone();
    let mut err = None;
    for _ in 0..80 {
        match p.mul(&n) {
            Ok(q) => p = q,
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    assert_eq!(err.map(|e| e.kind()), Some(ErrorKind::Overflow));
    let mut g = Facts::new();
    assert!(g.declare("1x").is_err());
    assert!(g.assume_divisible("N", -4).is_err());
    assert!(g.assume_divisible("N", i64::MAX).is_ok());
    assert_eq!(
        g.assume_at_least("N", i64::MAX).unwrap_err().kind(),
        ErrorKind::Overflow
    );
}

/// A random expression over N, K and small constants.
#[derive(Clone, Debug)]
enum Expr {
    N,
    K,
    C(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, i64),
    Mod(Box<Expr>, i64),
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![Just(Expr::N), Just(Expr::K), (-12i64..13).prop_map(Expr::C)];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let d = prop_oneof![(1i64..17), (-8i64..0)];
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), d.clone()).prop_map(|(a, d)| Expr::Div(Box::new(a), d)),
            (inner, d).prop_map(|(a, d)| Expr::Mod(Box::new(a), d)),
        ]
    })
}

/// The symbolic value (None when an operation overflowed).
fn symbolic(e: &Expr, f: &Facts) -> Option<SymInt> {
    let r = match e {
        Expr::N => Ok(sym(f, "N")),
        Expr::K => Ok(sym(f, "K")),
        Expr::C(c) => Ok(SymInt::from(*c)),
        Expr::Add(a, b) => symbolic(a, f)?.add(&symbolic(b, f)?),
        Expr::Sub(a, b) => symbolic(a, f)?.sub(&symbolic(b, f)?),
        Expr::Mul(a, b) => symbolic(a, f)?.mul(&symbolic(b, f)?),
        Expr::Div(a, d) => symbolic(a, f)?.floor_div(&SymInt::from(*d)),
        Expr::Mod(a, d) => symbolic(a, f)?.modulo(&SymInt::from(*d)),
    };
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Overflow, "{}", e.message());
            None
        }
    }
}

/// The concrete value (None beyond 64 bits).
fn concrete(e: &Expr, n: i64, k: i64) -> Option<i64> {
    Some(match e {
        Expr::N => n,
        Expr::K => k,
        Expr::C(c) => *c,
        Expr::Add(a, b) => concrete(a, n, k)?.checked_add(concrete(b, n, k)?)?,
        Expr::Sub(a, b) => concrete(a, n, k)?.checked_sub(concrete(b, n, k)?)?,
        Expr::Mul(a, b) => concrete(a, n, k)?.checked_mul(concrete(b, n, k)?)?,
        Expr::Div(a, d) => concrete(a, n, k)?.pipe_floor_div(*d)?,
        Expr::Mod(a, d) => concrete(a, n, k)?.pipe_floor_mod(*d)?,
    })
}

trait FloorOps: Sized {
    fn pipe_floor_div(self, d: i64) -> Option<i64>;
    fn pipe_floor_mod(self, d: i64) -> Option<i64>;
}

impl FloorOps for i64 {
    fn pipe_floor_div(self, d: i64) -> Option<i64> {
        let q = self.checked_div(d)?;
        Some(if (self % d != 0) && ((self < 0) != (d < 0)) {
            q - 1
        } else {
            q
        })
    }
    fn pipe_floor_mod(self, d: i64) -> Option<i64> {
        let q = self.pipe_floor_div(d)?;
        self.checked_sub(q.checked_mul(d)?)
    }
}

fn facts_strategy() -> impl Strategy<Value = (i64, i64, i64, i64)> {
    (
        prop::sample::select(vec![1i64, 2, 4, 16]),
        1i64..65,
        prop::sample::select(vec![1i64, 3, 8]),
        1i64..11,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Substituting admissible values commutes with every operation.
    #[test]
    fn substitution_property(e in expr(), (dn, mn, dk, mk) in facts_strategy(),
                             tn in 0i64..12, tk in 0i64..12) {
        let f = nk(dn, mn, dk, mk);
        let (n, k) = (f.fact("N").unwrap(), f.fact("K").unwrap());
        let (vn, vk) = (n.min + n.divisor * tn, k.min + k.divisor * tk);
        if let (Some(s), Some(c)) = (symbolic(&e, &f), concrete(&e, vn, vk)) {
            match s.eval(&[("N", vn), ("K", vk)]) {
                Ok(v) => prop_assert_eq!(v, c, "{} at N={}, K={}", s, vn, vk),
                Err(err) => prop_assert_eq!(err.kind(), ErrorKind::Overflow),
            }
        }
    }

    /// The proofs are sound: what is proven holds at every admissible value tried.
    #[test]
    fn proofs_are_sound(e in expr(), (dn, mn, dk, mk) in facts_strategy(), d in 1i64..33,
                        tn in 0i64..12, tk in 0i64..12) {
        let f = nk(dn, mn, dk, mk);
        let (n, k) = (f.fact("N").unwrap(), f.fact("K").unwrap());
        let (vn, vk) = (n.min + n.divisor * tn, k.min + k.divisor * tk);
        if let (Some(s), Some(c)) = (symbolic(&e, &f), concrete(&e, vn, vk)) {
            if s.divisible_by(d) {
                prop_assert_eq!(c % d, 0, "{} proven divisible by {}", s, d);
            }
            match s.proven_positive() {
                Some(true) => prop_assert!(c > 0, "{} proven positive, is {}", s, c),
                Some(false) => prop_assert!(c <= 0, "{} proven not positive, is {}", s, c),
                None => {}
            }
        }
    }
}
