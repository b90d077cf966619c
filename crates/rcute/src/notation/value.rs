//! The dynamic values of the notation (`docs/language.md`, "Values") and their
//! conversions to the library's typed values: shapes, strides, coordinates,
//! tilers and recast scales.

use crate::algebra::Scale;
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::int;
use crate::layout::{Layout, SymLayout};
use crate::shape::Coord;
use crate::stride::Scalar;
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tensor::{ImplicitAccessor, SharedArray, Tensor};
use crate::tiler::Tiler;

/// A value of the notation.
///
/// Tuples are trees of values (`Value::Tuple`), so a tuple may hold
/// layouts, `None`, swizzles, ... (tilers, `slice_and_offset` pairs). An
/// integer is always `Value::Int`, never `Value::Scalar(Scalar::Int(_))`
/// (use [`Value::from_scalar`] to normalise).
///
/// ```
/// use rcute::notation::Value;
/// let v = Value::Tuple(vec![Value::Int(4), Value::Int(8)]);
/// assert_eq!(v.to_shape().unwrap().to_string(), "(4, 8)");
/// assert_eq!(v.to_string(), "(4, 8)");
/// ```
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A symbolic integer: a polynomial in symbols declared with `assume`
    /// (`docs/language.md`, "Symbols"), never a constant (a symbolic
    /// result that does not depend on a symbol is an [`Value::Int`]: see
    /// [`Value::from_sym`]).
    Sym(crate::sym::SymInt),
    /// A fact about a symbol, the value of an `assume` statement (printed as
    /// the notation states it: `N % 16 == 0`, `N >= 64`).
    Fact(String),
    /// A non-integer stride scalar: an F2 value or a coordinate value.
    Scalar(Scalar),
    /// `None` / `_`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// A layout `S:D`.
    Layout(Layout),
    /// A layout with symbols (`docs/language.md`, "Symbols"): shape and
    /// stride leaves are symbolic integers, at least one of them not a
    /// constant (a layout with symbols whose leaves are all constants is a
    /// [`Value::Layout`]: see [`Value::from_sym_layout`]). Boxed: a layout
    /// with symbols is large, and every value is as large as its largest
    /// variant.
    SymLayout(Box<SymLayout>),
    /// A swizzle functor `Swizzle(B, M, S)`.
    Swizzle(Swizzle),
    /// A swizzled layout `Sw o L`.
    Swizzled(SwizzledLayout),
    /// A fraction `num/den` (reduced, `den > 1`), used as a recast scale.
    Fraction(i64, i64),
    /// A tuple of values.
    Tuple(Vec<Value>),
    /// A list of values (printed with square brackets, e.g. `basis_repr`).
    List(Vec<Value>),
    /// A tensor over an implicit accessor (`docs/tensors.md`): an identity
    /// tensor or a slice of one, printed `{0} o (4, 8):(1@0, 1@1)`.
    Tensor(Tensor<ImplicitAccessor>),
    /// A memory tensor `make_tensor(L)` (`docs/tensors.md`): `cosize(L)`
    /// zero-initialised 64-bit integers in a shared buffer, printed
    /// `Array(6 x i64) o L` (length and element type, no address); its
    /// slices share the buffer (`Array(6 x i64)+3 o L'` for one starting at
    /// element 3).
    Array(Tensor<SharedArray<i64>>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<Layout> for Value {
    fn from(l: Layout) -> Self {
        Value::Layout(l)
    }
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Self {
        Value::from_scalar(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl Value {
    /// The value of a stride scalar (`Scalar::Int` becomes `Value::Int`).
    ///
    /// ```
    /// use rcute::{notation::Value, Scalar};
    /// assert!(matches!(Value::from_scalar(Scalar::Int(3)), Value::Int(3)));
    /// assert_eq!(Value::from_scalar(Scalar::F2(9)).to_string(), "F9");
    /// ```
    pub fn from_scalar(s: Scalar) -> Value {
        match s {
            Scalar::Int(v) => Value::Int(v),
            s => Value::Scalar(s),
        }
    }

    /// The tuple value of an HTuple, leaves converted by `f`.
    ///
    /// ```
    /// use rcute::{notation::Value, HTuple};
    /// let t = HTuple::tuple([HTuple::leaf(1i64), HTuple::flat([2i64])]);
    /// assert_eq!(Value::from_htuple(&t, |&x| Value::Int(x * 10)).to_string(), "(10, (20,))");
    /// ```
    pub fn from_htuple<'a, T: 'a>(
        t: impl Into<crate::HRef<'a, T>>,
        mut f: impl FnMut(&T) -> Value,
    ) -> Value {
        fn rec<T>(r: crate::HRef<'_, T>, f: &mut dyn FnMut(&T) -> Value) -> Value {
            match r.as_leaf() {
                Some(x) => f(x),
                None => Value::Tuple(r.modes().map(|m| rec(m, f)).collect()),
            }
        }
        rec(t.into(), &mut f)
    }

    /// The tuple value of a shape.
    ///
    /// ```
    /// use rcute::{notation::Value, HTuple};
    /// assert_eq!(Value::from_shape(&HTuple::flat([4i64, 8])).to_string(), "(4, 8)");
    /// ```
    pub fn from_shape<'a>(t: impl Into<crate::HRef<'a, i64>>) -> Value {
        Value::from_htuple(t, |&v| Value::Int(v))
    }

    /// The tuple value of a stride.
    ///
    /// ```
    /// use rcute::{notation::Value, HTuple, Scalar};
    /// let d = HTuple::flat([Scalar::Int(1), Scalar::basis(1, &[1])]);
    /// assert_eq!(Value::from_stride(&d).to_string(), "(1, 1@1)");
    /// ```
    pub fn from_stride<'a>(t: impl Into<crate::HRef<'a, Scalar>>) -> Value {
        Value::from_htuple(t, |s| Value::from_scalar(s.clone()))
    }

    /// A short name of the value's kind, for error messages.
    ///
    /// ```
    /// assert_eq!(rcute::notation::Value::None.kind_name(), "None");
    /// ```
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "integer",
            Value::Sym(_) => "symbolic integer",
            Value::Fact(_) => "fact",
            Value::Scalar(Scalar::F2(_)) => "F2 value",
            Value::Scalar(_) => "coordinate value",
            Value::None => "None",
            Value::Bool(_) => "boolean",
            Value::Layout(_) => "layout",
            Value::SymLayout(_) => "layout with symbols",
            Value::Swizzle(_) => "swizzle",
            Value::Swizzled(_) => "swizzled layout",
            Value::Fraction(..) => "fraction",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Tensor(_) | Value::Array(_) => "tensor",
        }
    }

    /// The value of a symbolic integer: an [`Value::Int`] when it does not
    /// depend on any symbol, a [`Value::Sym`] otherwise.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// use rcute::sym::SymInt;
    /// assert!(matches!(Value::from_sym(SymInt::from(4)), Value::Int(4)));
    /// ```
    pub fn from_sym(s: crate::sym::SymInt) -> Value {
        match s.as_const() {
            Some(v) => Value::Int(v),
            None => Value::Sym(s),
        }
    }

    /// The value of a layout with symbols: a [`Value::Layout`] when no leaf
    /// depends on a symbol, a [`Value::SymLayout`] otherwise.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// let l = rcute::Layout::new((4, 8), (1, 4)).unwrap().to_sym().unwrap();
    /// assert!(matches!(Value::from_sym_layout(l), Value::Layout(_)));
    /// ```
    pub fn from_sym_layout(l: SymLayout) -> Value {
        match l.to_concrete() {
            Some(c) => Value::Layout(c),
            None => Value::SymLayout(Box::new(l)),
        }
    }

    /// The value as a symbolic integer, for an integer or a symbolic
    /// integer (`None` for anything else).
    ///
    /// ```
    /// use rcute::notation::Value;
    /// assert_eq!(Value::Int(3).as_sym().unwrap().to_string(), "3");
    /// assert!(Value::None.as_sym().is_none());
    /// ```
    pub fn as_sym(&self) -> Option<crate::sym::SymInt> {
        match self {
            Value::Int(v) => Some(crate::sym::SymInt::from(*v)),
            Value::Sym(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// True for a tuple.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// assert!(Value::Tuple(vec![]).is_tuple());
    /// assert!(!Value::Int(1).is_tuple());
    /// ```
    pub fn is_tuple(&self) -> bool {
        matches!(self, Value::Tuple(_))
    }

    /// The integer, or a `type` error naming `what`.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// assert_eq!(Value::Int(5).to_int("n").unwrap(), 5);
    /// assert!(Value::None.to_int("n").is_err());
    /// ```
    pub fn to_int(&self, what: &str) -> Result<i64> {
        match self {
            Value::Int(v) => Ok(*v),
            v => Err(Error::type_(format!(
                "{what}: expected an integer, got the {} {v}",
                v.kind_name()
            ))),
        }
    }

    /// The stride scalar of an integer, F2 or coordinate value; a `type`
    /// error for any other value.
    ///
    /// ```
    /// use rcute::{notation::Value, Scalar};
    /// assert_eq!(Value::Int(5).to_scalar("x").unwrap(), Scalar::Int(5));
    /// assert!(Value::Tuple(vec![]).to_scalar("x").is_err());
    /// ```
    pub fn to_scalar(&self, what: &str) -> Result<Scalar> {
        match self {
            Value::Int(v) => Ok(Scalar::Int(*v)),
            Value::Scalar(s) => Ok(s.clone()),
            v => Err(Error::type_(format!(
                "{what}: expected a stride scalar, got the {} {v}",
                v.kind_name()
            ))),
        }
    }

    /// A scalar, or a tuple read as a coordinate value (`ArithTuple` of the
    /// tuple's structure, `docs/language.md`, "Strides"). Errors: `type` for leaves that
    /// are not stride scalars.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// let t = Value::Tuple(vec![Value::Int(0), Value::Int(5)]);
    /// assert_eq!(t.to_coord_value("x").unwrap().to_string(), "5@1");
    /// ```
    pub fn to_coord_value(&self, what: &str) -> Result<Scalar> {
        fn rec(v: &Value, what: &str, depth: usize) -> Result<Scalar> {
            check_depth(depth, what)?;
            match v {
                Value::Tuple(items) => Ok(Scalar::coord(
                    items
                        .iter()
                        .map(|x| rec(x, what, depth + 1))
                        .collect::<Result<_>>()?,
                )),
                v => v.to_scalar(what),
            }
        }
        rec(self, what, 0)
    }

    /// The shape HTuple of an integer or a tuple of integers; a `type`
    /// error for other leaves.
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// assert_eq!(eval_value("(3,(2,4))").unwrap().to_shape().unwrap().to_string(), "(3, (2, 4))");
    /// assert!(eval_value("(3,None)").unwrap().to_shape().is_err());
    /// ```
    pub fn to_shape(&self) -> Result<HTuple<i64>> {
        self.to_htuple("shape", &mut |v| match v {
            Value::Int(x) => Ok(*x),
            Value::Sym(x) => Err(Error::type_(format!(
                "shape: the symbolic integer {x} where this operation needs a concrete \
                 integer (symbolic leaves are accepted by the arithmetic, layout literals, \
                 Layout(S, D), size, product, idx2crd and crd2idx; \
                 `subs(..., {}=...)` substitutes a value)",
                x.symbols().first().map_or("N", |(n, _)| n.as_str())
            ))),
            v => Err(Error::type_(format!(
                "shape: expected integer leaves, got the {} {v}",
                v.kind_name()
            ))),
        })
    }

    /// The shape as a tuple of symbolic integers (integer or symbolic
    /// leaves), for the operations that accept symbolic shapes.
    ///
    /// ```
    /// use rcute::notation::{Session, Value};
    /// let mut s = Session::new();
    /// s.eval_line("assume N").unwrap().unwrap();
    /// let v = s.eval_line("(4, (N, 2))").unwrap().unwrap();
    /// assert_eq!(v.to_sym_shape().unwrap().to_string(), "(4, (N, 2))");
    /// ```
    pub fn to_sym_shape(&self) -> Result<HTuple<crate::sym::SymInt>> {
        self.to_htuple("shape", &mut |v| {
            v.as_sym().ok_or_else(|| {
                Error::type_(format!(
                    "shape: expected integer leaves, got the {} {v}",
                    v.kind_name()
                ))
            })
        })
    }

    /// True when a symbolic integer is in the value (at any depth).
    ///
    /// ```
    /// use rcute::notation::Value;
    /// assert!(!Value::Tuple(vec![Value::Int(1)]).has_sym());
    /// ```
    pub fn has_sym(&self) -> bool {
        fn rec(v: &Value, depth: usize) -> bool {
            match v {
                Value::Sym(_) => true,
                Value::Tuple(items) | Value::List(items) if depth < MAX_VALUE_DEPTH => {
                    items.iter().any(|x| rec(x, depth + 1))
                }
                _ => false,
            }
        }
        rec(self, 0)
    }

    /// Like [`Value::to_shape`], but a layout, swizzled layout or tensor
    /// gives its shape.
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// assert_eq!(eval_value("(4,8):(8,1)").unwrap().to_shape_of().unwrap().to_string(), "(4, 8)");
    /// ```
    pub fn to_shape_of(&self) -> Result<HTuple<i64>> {
        match self {
            Value::Layout(l) => Ok(l.shape().clone()),
            Value::Swizzled(s) => Ok(s.layout.shape().clone()),
            Value::Tensor(t) => Ok(t.shape().clone()),
            Value::Array(t) => Ok(t.shape().clone()),
            v => v.to_shape(),
        }
    }

    /// The stride HTuple of a scalar or a tuple of scalars (tuples stay
    /// tuples; see [`Value::to_layout_stride`] for the literal rule).
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// let d = eval_value("(1, (F2(3), 1@0))").unwrap().to_stride().unwrap();
    /// assert_eq!(d.to_string(), "(1, (F3, 1@0))");
    /// ```
    pub fn to_stride(&self) -> Result<HTuple<Scalar>> {
        self.to_htuple("stride", &mut |v| v.to_scalar("stride"))
    }

    /// The coordinate HTuple (integer/scalar/`None` leaves).
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// let c = eval_value("(1, (_, 2))").unwrap().to_coord().unwrap();
    /// assert_eq!(rcute::shape::DisplayCoord(c.as_ref()).to_string(), "(1, (None, 2))");
    /// ```
    pub fn to_coord(&self) -> Result<Coord> {
        self.to_htuple("coordinate", &mut |v| match v {
            Value::None => Ok(None),
            v => Ok(Some(v.to_scalar("coordinate")?)),
        })
    }

    /// True when some leaf of the value is `None`.
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// assert!(eval_value("(1, (_, 2))").unwrap().contains_none());
    /// assert!(!eval_value("(1, 2)").unwrap().contains_none());
    /// ```
    pub fn contains_none(&self) -> bool {
        match self {
            Value::None => true,
            Value::Tuple(items) => items.iter().any(|x| x.contains_none()),
            _ => false,
        }
    }

    /// The HTuple with leaves converted by `f` (tuples are the tree).
    /// Errors: those of `f`; `value` past the nesting bound.
    ///
    /// ```
    /// use rcute::notation::{eval_value, Value};
    /// let v = eval_value("(1, (2, 3))").unwrap();
    /// let t = v.to_htuple("x", &mut |x| x.to_int("x")).unwrap();
    /// assert_eq!(t.leaves(), &[1, 2, 3]);
    /// ```
    pub fn to_htuple<T>(
        &self,
        what: &str,
        f: &mut dyn FnMut(&Value) -> Result<T>,
    ) -> Result<HTuple<T>> {
        fn rec<T>(
            v: &Value,
            b: &mut Builder<T>,
            what: &str,
            f: &mut dyn FnMut(&Value) -> Result<T>,
            depth: usize,
        ) -> Result<()> {
            check_depth(depth, what)?;
            match v {
                Value::Tuple(items) => {
                    b.open();
                    for x in items {
                        rec(x, b, what, f, depth + 1)?;
                    }
                    b.close();
                }
                v => b.leaf(f(v)?),
            }
            Ok(())
        }
        let mut b = Builder::new();
        rec(self, &mut b, what, f, 0)?;
        Ok(b.finish())
    }

    /// The stride of the literal `S:D` for the shape `shape` (`docs/language.md`, "Layouts"
    /// 2.2): a stride tuple at a *leaf* position of the shape is one
    /// coordinate value; at a tuple position it is a sub-stride of the same
    /// rank. Errors: `congruence` when a scalar stands where the shape has
    /// a tuple or the ranks differ.
    ///
    /// ```
    /// use rcute::notation::eval_value;
    /// let s = eval_value("(4, 8)").unwrap().to_shape().unwrap();
    /// let d = eval_value("((1, 2), 3)").unwrap().to_layout_stride(&s).unwrap();
    /// assert_eq!(d.leaves().len(), 2); // (1, 2) is one coordinate value
    /// assert!(eval_value("(1,)").unwrap().to_layout_stride(&s).is_err());
    /// ```
    pub fn to_layout_stride(&self, shape: &HTuple<i64>) -> Result<HTuple<Scalar>> {
        self.stride_for(shape.as_ref(), |_, d| d.to_coord_value("layout stride"))
    }

    /// This value read as the stride of a layout literal `S:D` of shape
    /// `shape`: a tuple where the shape has a tuple (of the same rank), and
    /// at each leaf of the shape `leaf(extent, value)` (a tuple there is a
    /// coordinate stride, if `leaf` reads one).
    ///
    /// Errors: `congruence` where the profiles differ; `value` beyond the
    /// depth limit; those of `leaf`.
    pub(crate) fn stride_for<T: std::fmt::Display, U>(
        &self,
        shape: HRef<'_, T>,
        mut leaf: impl FnMut(&T, &Value) -> Result<U>,
    ) -> Result<HTuple<U>> {
        fn rec<T: std::fmt::Display, U>(
            s: HRef<'_, T>,
            d: &Value,
            b: &mut Builder<U>,
            leaf: &mut dyn FnMut(&T, &Value) -> Result<U>,
            depth: usize,
        ) -> Result<()> {
            check_depth(depth, "layout")?;
            if let Some(x) = s.as_leaf() {
                b.leaf(leaf(x, d)?);
                return Ok(());
            }
            match d {
                Value::Tuple(items) if items.len() == s.rank() => {
                    b.open();
                    for (sm, dm) in s.modes().zip(items) {
                        rec(sm, dm, b, leaf, depth + 1)?;
                    }
                    b.close();
                    Ok(())
                }
                _ => Err(Error::congruence(format!(
                    "layout: shape {s} and stride {d} are not congruent"
                ))),
            }
        }
        let mut b = Builder::new();
        rec(shape, self, &mut b, &mut leaf, 0)?;
        Ok(b.finish())
    }

    /// The tiler of a value: a layout, an integer, `None` or a tuple of
    /// tilers (`docs/language.md`, "Tilers"). Errors: `type` for other leaves.
    ///
    /// ```
    /// use rcute::{notation::eval_value, Tiler};
    /// let t = eval_value("(4:1, None)").unwrap().to_tiler().unwrap();
    /// assert!(matches!(t, Tiler::Tuple(ref v) if v.len() == 2 && v[1] == Tiler::None));
    /// ```
    pub fn to_tiler(&self) -> Result<Tiler> {
        fn rec(v: &Value, depth: usize) -> Result<Tiler> {
            check_depth(depth, "tiler")?;
            match v {
                Value::None => Ok(Tiler::None),
                Value::Int(n) => Ok(Tiler::Int(*n)),
                Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
                Value::Tuple(items) => Ok(Tiler::Tuple(
                    items
                        .iter()
                        .map(|x| rec(x, depth + 1))
                        .collect::<Result<_>>()?,
                )),
                v => Err(Error::type_(format!(
                    "tiler: expected a layout, an integer, None or a tuple, got the {} {v}",
                    v.kind_name()
                ))),
            }
        }
        rec(self, 0)
    }

    /// [`Value::to_tiler`] consuming the value: a layout (or integer, or
    /// `None`) is moved into the tiler instead of copied. Errors: those of
    /// [`Value::to_tiler`].
    ///
    /// ```
    /// use rcute::{notation::eval_value, Tiler};
    /// let t = eval_value("4:2").unwrap().into_tiler().unwrap();
    /// assert!(matches!(t, Tiler::Layout(ref l) if l.to_string() == "4:2"));
    /// ```
    pub fn into_tiler(self) -> Result<Tiler> {
        match self {
            Value::None => Ok(Tiler::None),
            Value::Int(n) => Ok(Tiler::Int(n)),
            Value::Layout(l) => Ok(Tiler::Layout(l)),
            v => v.to_tiler(),
        }
    }

    /// The value of a tiler.
    ///
    /// ```
    /// use rcute::{notation::Value, Tiler};
    /// let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::None].into());
    /// assert_eq!(Value::from_tiler(&t).to_string(), "(4, None)");
    /// ```
    pub fn from_tiler(t: &Tiler) -> Value {
        match t {
            Tiler::None => Value::None,
            Tiler::Int(n) => Value::Int(*n),
            Tiler::Layout(l) => Value::Layout(l.clone()),
            crate::tiler::TilerRef::Borrowed(l) => Value::Layout((*l).clone()),
            Tiler::Tuple(v) => Value::Tuple(v.iter().map(Value::from_tiler).collect()),
        }
    }

    /// A recast scale: an integer, a fraction, or a tuple of scales
    /// (`docs/operations.md`). Errors: `type` for anything else.
    ///
    /// ```
    /// use rcute::{algebra::Scale, notation::eval_value};
    /// assert_eq!(eval_value("1/2").unwrap().to_scale().unwrap(), Scale::Ratio { num: 1, den: 2 });
    /// ```
    pub fn to_scale(&self) -> Result<Scale> {
        fn rec(v: &Value, depth: usize) -> Result<Scale> {
            check_depth(depth, "recast scale")?;
            match v {
                Value::Int(n) => Ok(Scale::Ratio { num: *n, den: 1 }),
                Value::Fraction(n, d) => Ok(Scale::Ratio { num: *n, den: *d }),
                Value::Tuple(items) => Ok(Scale::Tuple(
                    items
                        .iter()
                        .map(|x| rec(x, depth + 1))
                        .collect::<Result<_>>()?,
                )),
                v => Err(Error::type_(format!(
                    "recast: the scale must be an integer, a fraction or a tuple, got the {} {v}",
                    v.kind_name()
                ))),
            }
        }
        rec(self, 0)
    }

    /// The fraction `num/den` in lowest terms (an integer when `den`
    /// divides `num`). A zero denominator is a `value` error.
    ///
    /// ```
    /// use rcute::notation::Value;
    /// assert_eq!(Value::fraction(2, 4).unwrap().to_string(), "1/2");
    /// assert_eq!(Value::fraction(4, -2).unwrap().to_string(), "-2");
    /// ```
    pub fn fraction(num: i64, den: i64) -> Result<Value> {
        if den == 0 {
            return Err(Error::value(format!("division by zero: {num} / 0")));
        }
        let g = int::gcd(num, den);
        let (mut n, mut d) = (int::floor_div(num, g)?, int::floor_div(den, g)?);
        if d < 0 {
            n = int::neg(n)?;
            d = int::neg(d)?;
        }
        if d == 1 {
            Ok(Value::Int(n))
        } else {
            Ok(Value::Fraction(n, d))
        }
    }
}

/// The most parts (tuple elements, layout leaves, coordinate children) one
/// value of the notation may have.
pub const MAX_VALUE_PARTS: usize = 1 << 16;

/// The deepest nesting of tuples and coordinate values one value may have.
pub const MAX_VALUE_DEPTH: usize = 128;

/// Checks that `v` stays within [`MAX_VALUE_PARTS`] and
/// [`MAX_VALUE_DEPTH`], so that values built up through variables cannot
/// exhaust memory or the stack. Errors: `value`.
///
/// ```
/// use rcute::notation::{value::check_size, Value};
/// let mut v = Value::Int(1);
/// assert!(check_size(&v).is_ok());
/// for _ in 0..200 {
///     v = Value::Tuple(vec![v]);
/// }
/// assert!(check_size(&v).is_err());
/// ```
pub fn check_size(v: &Value) -> Result<()> {
    match v {
        // one part, no nesting: always within the bounds
        Value::Int(_) | Value::None | Value::Bool(_) => return Ok(()),
        Value::Layout(l) if small_int_layout(l) => return Ok(()),
        _ => {}
    }
    let mut budget = MAX_VALUE_PARTS;
    measure(v, 0, &mut budget)
}

/// A layout that [`measure`] accepts without walking it: at most 64
/// leaves (far below [`MAX_VALUE_PARTS`] and `MAX_LEAVES`), at most
/// [`MAX_VALUE_DEPTH`] node bytes (its depth cannot exceed their number)
/// and integer strides only (one part each).
#[inline]
fn small_int_layout(l: &Layout) -> bool {
    l.shape().leaves().len() <= 64
        && l.shape().as_ref().node_bytes().len() <= MAX_VALUE_DEPTH
        && l.has_integer_strides()
}

/// The number of parts of `v` as [`check_size`] counts them (same errors).
/// The evaluator adds them up over the operands of one call or tuple, so
/// that `(A, A, ..., A)` cannot exhaust memory before the result is
/// checked.
///
/// ```
/// use rcute::notation::{value::value_parts, Value};
/// assert_eq!(value_parts(&Value::Tuple(vec![Value::Int(1), Value::Int(2)])).unwrap(), 3);
/// ```
pub fn value_parts(v: &Value) -> Result<usize> {
    let mut budget = MAX_VALUE_PARTS;
    measure(v, 0, &mut budget)?;
    Ok(MAX_VALUE_PARTS - budget)
}

fn spend(budget: &mut usize, n: usize) -> Result<()> {
    *budget = budget.checked_sub(n).ok_or_else(|| {
        Error::value(format!(
            "value too large: more than {MAX_VALUE_PARTS} parts"
        ))
    })?;
    Ok(())
}

fn too_deep() -> Error {
    Error::value(format!("value nested deeper than {MAX_VALUE_DEPTH} levels"))
}

fn measure(v: &Value, depth: usize, budget: &mut usize) -> Result<()> {
    if depth > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    spend(budget, 1)?;
    match v {
        Value::Tuple(items) | Value::List(items) => {
            for x in items {
                measure(x, depth + 1, budget)?;
            }
            Ok(())
        }
        Value::Scalar(s) => measure_scalar(s, depth, budget),
        Value::Layout(l) => measure_layout(l, depth, budget),
        Value::SymLayout(l) => measure_sym_layout(l, depth, budget),
        Value::Swizzled(s) => measure_layout(&s.layout, depth, budget),
        Value::Tensor(t) => {
            measure_scalar(t.accessor().base(), depth, budget)?;
            measure_layout(t.layout(), depth, budget)
        }
        Value::Array(t) => measure_layout(t.layout(), depth, budget),
        _ => Ok(()),
    }
}

fn measure_layout(l: &Layout, depth: usize, budget: &mut usize) -> Result<()> {
    measure_shape(l.shape().as_ref(), depth, budget)?;
    for d in l.stride().leaves() {
        measure_scalar(d, depth + 1, budget)?;
    }
    Ok(())
}

/// [`measure_layout`] of a layout with symbols: one part per leaf (its
/// strides are integers).
fn measure_sym_layout(l: &SymLayout, depth: usize, budget: &mut usize) -> Result<()> {
    measure_shape(l.shape().as_ref(), depth, budget)
}

/// The parts of a layout's shape: one per leaf, within the checked
/// constructors' bound on leaves (docs/limits.md: the algebra is quadratic
/// in the number of modes) and nested within the value depth left.
fn measure_shape<T>(s: HRef<'_, T>, depth: usize, budget: &mut usize) -> Result<()> {
    let n = s.leaves().len();
    if n > crate::htuple::MAX_LEAVES {
        return Err(Error::value(format!(
            "a layout with {n} leaves, more than the limit of {}",
            crate::htuple::MAX_LEAVES
        )));
    }
    spend(budget, n)?;
    // (measure is only called with depth <= MAX_VALUE_DEPTH)
    if !s.depth_within(MAX_VALUE_DEPTH.saturating_sub(depth)) {
        return Err(too_deep());
    }
    Ok(())
}

fn measure_scalar(s: &Scalar, depth: usize, budget: &mut usize) -> Result<()> {
    if depth > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    if let Scalar::Coord(c) = s {
        spend(budget, c.children().len())?;
        for x in c.children() {
            measure_scalar(x, depth + 1, budget)?;
        }
    }
    Ok(())
}

/// The nesting bound of every recursive walk over values.
pub(crate) fn check_depth(depth: usize, what: &str) -> Result<()> {
    if depth > MAX_DEPTH {
        Err(Error::value(format!(
            "{what}: nesting deeper than {MAX_DEPTH} levels"
        )))
    } else {
        Ok(())
    }
}

/// Equality of two values (`docs/language.md`: `==` compares any two values):
/// stride scalars by their algebra's equality (a tuple compared with a
/// coordinate value is read as one), layouts structurally, tuples
/// elementwise. Values of unrelated kinds are unequal.
///
/// ```
/// use rcute::notation::{values_equal, Value};
/// assert!(values_equal(&Value::Int(3), &Value::Int(3)));
/// assert!(!values_equal(&Value::Int(3), &Value::None));
/// ```
pub fn values_equal(a: &Value, b: &Value) -> bool {
    fn rec(a: &Value, b: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        use Value::*;
        match (a, b) {
            (Int(x), Int(y)) => x == y,
            (Sym(x), Sym(y)) => x == y,
            (Fact(x), Fact(y)) => x == y,
            (Int(_) | Scalar(_), Int(_) | Scalar(_)) => {
                let x = a.to_scalar("==");
                let y = b.to_scalar("==");
                matches!((x, y), (Ok(x), Ok(y)) if x == y)
            }
            (Scalar(crate::Scalar::Coord(_)), Tuple(_))
            | (Tuple(_), Scalar(crate::Scalar::Coord(_))) => {
                let x = a.to_coord_value("==");
                let y = b.to_coord_value("==");
                matches!((x, y), (Ok(x), Ok(y)) if x == y)
            }
            (None, None) => true,
            (Bool(x), Bool(y)) => x == y,
            (Layout(x), Layout(y)) => x == y,
            (SymLayout(x), SymLayout(y)) => x == y,
            (Swizzle(x), Swizzle(y)) => x == y,
            (Swizzled(x), Swizzled(y)) => x == y,
            (Tensor(x), Tensor(y)) => x == y,
            (Array(x), Array(y)) => x == y,
            (Fraction(a1, b1), Fraction(a2, b2)) => a1 == a2 && b1 == b2,
            (Tuple(x), Tuple(y)) | (List(x), List(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| rec(p, q, depth + 1))
            }
            _ => false,
        }
    }
    rec(a, b, 0)
}
