//! Swizzles (`docs/language.md`, "Swizzles"): the `Swizzle(B, M, S)` functor on integers,
//! swizzled layouts (C++ `ComposedLayout<Swizzle, 0, Layout>`), a swizzle as
//! an F2-stride layout, conversion of a swizzled layout to an equivalent
//! F2-stride layout, and shared-memory bank-conflict analysis.

use std::collections::BTreeSet;
use std::fmt;

use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::{int, Error, Layout, Result, Scalar, Tiler, TilerRef};

/// The swizzle functor `Swizzle(B, M, S)` (`docs/language.md`, "Swizzles"; C++
/// `cute::Swizzle<B, M, S>`).
///
/// `bits` (`B`) is the width of the two bit fields, `base` (`M`) the number
/// of low bits left alone and `shift` (`S`) the signed distance between the
/// source and the target field. Build it with [`Swizzle::new`], which
/// validates the parameters; two swizzles are equal when their parameters
/// are.
///
/// Printing: `{}` gives `SW_B_M_S`, `{:#}` gives C++'s `Sw<B,M,S>`, and
/// [`Swizzle::repr`] gives `Swizzle(B,M,S)`.
///
/// ```
/// use rcute::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// assert_eq!(sw.apply(1000).unwrap(), 920);
/// assert_eq!(sw.to_string(), "SW_3_4_3");
/// assert_eq!(format!("{sw:#}"), "Sw<3,4,3>");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    // number of bits in the mask (`B`)
    pub(crate) bits: i64,
    // number of least-significant bits kept constant (`M`)
    pub(crate) base: i64,
    // shift distance of the mask (`S`, may be negative)
    pub(crate) shift: i64,
}

/// The largest bit position (exclusive) the fields of a swizzle may reach for
/// [`Swizzle::apply`] to evaluate it exactly in 128-bit arithmetic.
const WIDE_BITS: i64 = 126;

impl Swizzle {
    /// `Swizzle(B, M, S)`, validated as `docs/language.md`, "Swizzles" says: valid
    /// exactly when `B >= 0`, `M >= 0` and `|S| >= B` (the two bit fields do
    /// not overlap; `B = 0`, the identity, is always valid).
    ///
    /// Errors: `value` for `B < 0`, `M < 0`, or overlapping fields
    /// `|S| < B` (rcute rejects `S >= 0` with `S < B` too, like C++ CuTe and
    /// unlike the reference).
    ///
    /// ```
    /// use rcute::{ErrorKind, Swizzle};
    /// assert!(Swizzle::new(2, 0, -2).is_ok());
    /// assert!(Swizzle::new(0, 4, 0).is_ok());
    /// assert_eq!(Swizzle::new(3, 0, 1).unwrap_err().kind(), ErrorKind::Value);
    /// assert_eq!(Swizzle::new(2, -1, 3).unwrap_err().kind(), ErrorKind::Value);
    /// assert_eq!(Swizzle::new(40, 40, 40).unwrap_err().kind(), ErrorKind::Value);
    /// assert!(Swizzle::new(3, 57, 3).is_ok());
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        // the message is formatted only on failure
        let name = || format!("Swizzle({bits}, {base}, {shift})");
        if bits < 0 {
            return Err(Error::value(format!(
                "{name}: the number of bits B must be non-negative",
                name = name()
            )));
        }
        if base < 0 {
            return Err(Error::value(format!(
                "{name}: the base M must be non-negative",
                name = name()
            )));
        }
        if shift.unsigned_abs() < bits.unsigned_abs() {
            return Err(Error::value(format!(
                "{name}: the bit fields overlap (|S| < B)",
                name = name()
            )));
        }
        let sw = Swizzle { bits, base, shift };
        if bits > 0 {
            // the masks must fit in the 63 value bits of a 64-bit offset
            let top = sw.top().ok().filter(|&t| t <= 63);
            if top.is_none() {
                return Err(Error::value(format!(
                    "{name}: the masks reach bit M + |S| + B - 1 = {}, beyond the 63 value bits \
                     of a 64-bit offset (M + |S| + B must be at most 63)",
                    (i128::from(base) + i128::from(shift.unsigned_abs()) + i128::from(bits) - 1),
                    name = name()
                )));
            }
        }
        Ok(sw)
    }

    /// `B`, the number of bits in each of the two masks.
    ///
    /// ```
    /// let sw = rcute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!((sw.bits(), sw.base(), sw.shift()), (3, 4, 3));
    /// ```
    #[inline]
    pub fn bits(&self) -> i64 {
        self.bits
    }

    /// `M`, the number of least-significant bits the swizzle keeps.
    #[inline]
    pub fn base(&self) -> i64 {
        self.base
    }

    /// `S`, the distance (may be negative) from the mask that is read to the
    /// mask that is flipped.
    #[inline]
    pub fn shift(&self) -> i64 {
        self.shift
    }

    /// True for `B = 0`, the identity swizzle.
    ///
    /// ```
    /// assert!(rcute::Swizzle::new(0, 4, 3).unwrap().is_identity());
    /// ```
    pub fn is_identity(&self) -> bool {
        self.bits == 0
    }

    /// The lowest bit of the source field, `M + max(0, S)`.
    fn source_lo(&self) -> Result<i64> {
        int::add(self.base, self.shift.max(0))
    }

    /// The lowest bit of the target field, `M - min(0, S)`.
    fn target_lo(&self) -> Result<i64> {
        int::sub(self.base, self.shift.min(0))
    }

    /// The bit position just above both fields, `M + |S| + B`.
    fn top(&self) -> Result<i64> {
        let abs_shift = i64::try_from(self.shift.unsigned_abs())
            .map_err(|_| Error::overflow(format!("{self}: |S| overflows 64 bits")))?;
        int::add(int::add(self.base, abs_shift)?, self.bits)
    }

    /// One past the highest bit of the target field, `M - min(0, S) + B`.
    fn target_hi(&self) -> Result<i64> {
        int::add(self.target_lo()?, self.bits)
    }

    /// Rejects negative `B` / `M` (possible through the public fields),
    /// which would make the shifts meaningless.
    fn check_fields(&self) -> Result<()> {
        if self.bits < 0 || self.base < 0 {
            return Err(Error::value(format!(
                "{self}: B and M must be non-negative"
            )));
        }
        Ok(())
    }

    fn mask_at(&self, lo: i64, what: &str) -> Result<i64> {
        self.check_fields()?;
        if self.bits == 0 {
            return Ok(0);
        }
        let hi = int::add(lo, self.bits)?;
        if hi > 63 {
            return Err(Error::overflow(format!(
                "{self}: the {what} mask reaches bit {hi}, beyond 64 bits"
            )));
        }
        // hi <= 63, so the mask fits in 63 bits and is non-negative
        Ok((((1u64 << self.bits) - 1) << lo) as i64)
    }

    /// `yyy_msk = (2^B - 1) << (M + max(0, S))`, the source field
    /// (`docs/language.md`, "Swizzles"). Errors: `overflow` when the mask does not
    /// fit in 63 bits.
    ///
    /// ```
    /// let sw = rcute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.yyy_mask().unwrap(), 896);
    /// ```
    pub fn yyy_mask(&self) -> Result<i64> {
        self.mask_at(self.source_lo()?, "source")
    }

    /// `zzz_msk = (2^B - 1) << (M - min(0, S))`, the target field
    /// (`docs/language.md`, "Swizzles"). Errors: `overflow` when the mask does not
    /// fit in 63 bits.
    ///
    /// ```
    /// let sw = rcute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.zzz_mask().unwrap(), 112);
    /// ```
    pub fn zzz_mask(&self) -> Result<i64> {
        self.mask_at(self.target_lo()?, "target")
    }

    /// The swizzle applied to an offset: `x XOR shiftr(x AND yyy_msk, S)`
    /// (`docs/language.md`, "Swizzles"; C++ `Swizzle::operator()`), with `x` read as
    /// an infinite two's-complement integer.
    ///
    /// Errors: `overflow` when the result leaves the signed 64-bit range, or
    /// when the fields reach beyond bit 126 and `x` has a set source bit
    /// (such swizzles are not evaluated); `value` for a negative `B` or `M`
    /// set through the public fields.
    ///
    /// ```
    /// use rcute::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.apply(255).unwrap(), 239);
    /// assert_eq!(sw.apply(-1).unwrap(), -113);
    /// assert_eq!(Swizzle::new(2, 0, -2).unwrap().apply(1).unwrap(), 5);
    /// assert_eq!(Swizzle::new(0, 4, 3).unwrap().apply(123).unwrap(), 123);
    /// ```
    pub fn apply(&self, x: i64) -> Result<i64> {
        self.check_fields()?;
        if self.bits == 0 {
            return Ok(x);
        }
        let src_lo = self.source_lo()?;
        let top = self.top();
        match top {
            Ok(top) if top <= WIDE_BITS => {
                let xw = x as i128;
                let field: i128 = ((1i128 << self.bits) - 1) << src_lo;
                let src = xw & field;
                let moved = if self.shift >= 0 {
                    src >> self.shift
                } else {
                    src << (-self.shift)
                };
                i64::try_from(xw ^ moved).map_err(|_| {
                    Error::overflow(format!("{self}({x}) = {} overflows 64 bits", xw ^ moved))
                })
            }
            _ => {
                // A non-negative x has no set bit at or above bit 63.
                if x >= 0 && src_lo >= 63 {
                    Ok(x)
                } else {
                    Err(Error::overflow(format!(
                        "{self}({x}): the bit fields reach beyond bit {WIDE_BITS}"
                    )))
                }
            }
        }
    }

    /// The repr style `Swizzle(B,M,S)` (no spaces, `docs/language.md`, "Swizzles").
    ///
    /// ```
    /// assert_eq!(rcute::Swizzle::new(3, 4, -3).unwrap().repr(), "Swizzle(3,4,-3)");
    /// ```
    pub fn repr(&self) -> String {
        format!("Swizzle({},{},{})", self.bits, self.base, self.shift)
    }

    /// The swizzle as an F2-stride layout on `n` bits (
    /// `docs/operations.md`): `coalesce((2, ..., 2) : (F(Sw(2^0)), ..., F(Sw(2^(n-1)))))`,
    /// which agrees with the swizzle on every `x < 2^n`. Consecutive bits
    /// whose images are consecutive shifts merge into one mode; a single
    /// mode is returned as a leaf, and `n = 0` gives `1:0`.
    ///
    /// Not a PyCuTe function (the spec names it `swizzle_layout`).
    ///
    /// Errors: `value` for `n < 0` or `n > 63`; `overflow` from
    /// [`Swizzle::apply`].
    ///
    /// ```
    /// use rcute::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.to_f2_layout(10).unwrap().to_string(), "(128, 8):(F1, F144)");
    /// let sw = Swizzle::new(2, 4, -3).unwrap();
    /// assert_eq!(sw.to_f2_layout(8).unwrap().to_string(), "(16, 4, 4):(F1, F144, F64)");
    /// ```
    pub fn to_f2_layout(&self, n: i64) -> Result<Layout> {
        if !(0..=63).contains(&n) {
            return Err(Error::value(format!(
                "swizzle_layout({self}, {n}): the number of bits must be in 0..=63"
            )));
        }
        let mut pieces = Vec::with_capacity(n as usize);
        for b in 0..n {
            pieces.push((2i64, self.apply(1i64 << b)?));
        }
        Ok(pieces_to_layout(coalesce_f2_pieces(pieces)?))
    }
}

/// `swizzle_layout(Sw, n)` (`docs/operations.md`): see
/// [`Swizzle::to_f2_layout`].
///
/// ```
/// use rcute::{Swizzle, swizzle::swizzle_layout};
/// let sw = Swizzle::new(1, 0, 1).unwrap();
/// assert_eq!(swizzle_layout(&sw, 4).unwrap().to_string(), "(2, 2, 4):(F1, F3, F4)");
/// ```
pub fn swizzle_layout(sw: &Swizzle, n: i64) -> Result<Layout> {
    sw.to_f2_layout(n)
}

impl fmt::Display for Swizzle {
    /// `SW_B_M_S`; `{:#}` gives the C++ style `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
        } else {
            write!(f, "SW_{}_{}_{}", self.bits, self.base, self.shift)
        }
    }
}

/// Merges consecutive `(extent, F2 stride)` pieces as F2 coalescing does
/// (`sa * da == db` with `sa` a power of two) and drops extent-1 pieces.
fn coalesce_f2_pieces(pieces: Vec<(i64, i64)>) -> Result<Vec<(i64, i64)>> {
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(pieces.len());
    for (s, d) in pieces {
        if s == 1 {
            continue;
        }
        if let Some(last) = out.last_mut() {
            let (ls, ld) = *last;
            if ls > 0 && ls & (ls - 1) == 0 && crate::f2::clmul(ld, ls).ok() == Some(d) {
                last.0 = int::mul(ls, s)?;
                continue;
            }
        }
        out.push((s, d));
    }
    Ok(out)
}

/// A layout from flat F2 pieces: `1:0` for none, a leaf for one, a flat
/// tuple otherwise.
fn pieces_to_layout(pieces: Vec<(i64, i64)>) -> Layout {
    match pieces.as_slice() {
        [] => Layout::leaf(1, Scalar::Int(0)),
        [(s, d)] => Layout::leaf(*s, Scalar::F2(*d)),
        _ => Layout::from_parts(
            HTuple::flat(pieces.iter().map(|p| p.0)),
            HTuple::flat(pieces.iter().map(|p| Scalar::F2(p.1))),
        ),
    }
}

/// A swizzled layout `Sw o offset o L` (`docs/language.md`, "Swizzles"; C++
/// `ComposedLayout<Swizzle, offset, Layout>`): the swizzle applied to the
/// offsets `offset + L(c)` of an integer-strided layout. Its domain (shape,
/// size, rank, depth, modes) is that of `L`. The offset is 0 unless the
/// value came from a slice (C++'s `slice_and_offset` of a composed layout)
/// or was written with one (`Sw<3,3,3> o 64 o (8,64):(64,1)`).
///
/// Printing: `{}` gives `SW_3_4_3 o (8, 8):(8, 1)`, `{:#}` gives
/// `Sw<3,4,3> o (8,8):(8,1)`; a non-zero offset is printed between them,
/// `SW_3_4_3 o 64 o (8, 8):(8, 1)`, as C++ prints it.
///
/// ```
/// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
/// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
/// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
/// assert_eq!(sl.eval_index(2).unwrap(), 144);
/// assert_eq!(sl.to_string(), "SW_3_4_3 o (8, 64):(64, 1)");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SwizzledLayout {
    // the swizzle applied to the layout's offsets
    pub(crate) swizzle: Swizzle,
    // the offset added to the layout's offsets before the swizzle
    pub(crate) offset: i64,
    // the layout (integer strides: checked by the constructors)
    pub(crate) layout: Layout,
}

impl SwizzledLayout {
    /// `composition(Sw, L)`: the swizzled layout "`Sw` after `L`"
    /// (`docs/language.md`, "Swizzles").
    ///
    /// Errors: `type` when `L` has a coordinate or F2 stride (the swizzle
    /// acts on integer offsets only).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Scalar, Swizzle, SwizzledLayout};
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// let f2 = Layout::new(HTuple::leaf(8), HTuple::leaf(Scalar::F2(1))).unwrap();
    /// assert!(SwizzledLayout::new(sw, f2).is_err());
    /// ```
    pub fn new(swizzle: Swizzle, layout: Layout) -> Result<SwizzledLayout> {
        if !layout.has_integer_strides() {
            return Err(Error::type_(format!(
                "composition({swizzle}, {layout}): a swizzle applies to integer offsets only, \
                 the layout has non-integer strides"
            )));
        }
        Ok(SwizzledLayout {
            swizzle,
            offset: 0,
            layout,
        })
    }

    /// `composition(Sw, offset, L)`: the swizzled layout "`Sw` after
    /// `offset + L`" (C++ `composition(Swizzle, offset, Layout)`), whose
    /// value at `c` is `Sw(offset + L(c))`.
    ///
    /// Errors: those of [`SwizzledLayout::new`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::with_offset(Swizzle::new(3, 3, 3).unwrap(), 64, l).unwrap();
    /// assert_eq!(sl.to_string(), "SW_3_3_3 o 64 o (8, 64):(64, 1)");
    /// assert_eq!(sl.eval_index(2).unwrap(), 216); // Sw(64 + 128)
    /// ```
    pub fn with_offset(swizzle: Swizzle, offset: i64, layout: Layout) -> Result<SwizzledLayout> {
        let mut r = SwizzledLayout::new(swizzle, layout)?;
        r.offset = offset;
        Ok(r)
    }

    /// `Sw o offset o f(L)`: the same swizzle and offset around a new inner
    /// layout (how C++ applies most layout operations to a composed
    /// layout).
    pub(crate) fn with_inner(&self, layout: Layout) -> Result<SwizzledLayout> {
        SwizzledLayout::with_offset(self.swizzle, self.offset, layout)
    }

    /// The swizzle `Sw` of `Sw o offset o L`.
    ///
    /// ```
    /// use rcute::{Layout, Swizzle, SwizzledLayout};
    /// let l: Layout = "(8,64):(64,1)".parse().unwrap();
    /// let sl = SwizzledLayout::with_offset(Swizzle::new(3, 3, 3).unwrap(), 64, l.clone()).unwrap();
    /// assert_eq!(sl.swizzle(), Swizzle::new(3, 3, 3).unwrap());
    /// assert_eq!(sl.offset(), 64);
    /// assert_eq!(sl.layout(), &l);
    /// ```
    #[inline]
    pub fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The offset added to the inner layout's values before the swizzle.
    #[inline]
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The inner layout `L` (integer strides).
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shape of `Sw o L`: that of the inner layout `L` (C++ defines a
    /// composed layout's domain by its inner layout; `docs/language.md`, "Swizzles").
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.shape().to_string(), "(8, 64)");
    /// ```
    pub fn shape(&self) -> &crate::Shape {
        self.layout.shape()
    }

    /// `size(Sw o L) = size(L)` (`docs/language.md`, "Swizzles"). Errors: `overflow`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.size().unwrap(), 512);
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.layout.size()
    }

    /// `rank(Sw o L) = rank(L)` (`docs/language.md`, "Swizzles").
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// `depth(Sw o L) = depth(L)` (`docs/language.md`, "Swizzles"). Errors: those of
    /// [`Layout::depth`] (`value` for `():()`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.depth().unwrap(), 1);
    /// ```
    pub fn depth(&self) -> Result<usize> {
        self.layout.depth()
    }

    /// Mode `i` of the swizzled layout: `Sw o L[i]` (C++ `get<i>` of a
    /// composed layout). Errors: those of [`Layout::mode`] (`bounds`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.mode(0).unwrap().to_string(), "SW_3_4_3 o 8:64");
    /// assert!(sl.mode(2).is_err());
    /// ```
    pub fn mode(&self, i: i64) -> Result<SwizzledLayout> {
        self.with_inner(self.layout.mode(i)?)
    }

    fn offset_of(&self, v: Scalar) -> Result<i64> {
        match v {
            Scalar::Int(o) => self.swizzle.apply(int::add(self.offset, o)?),
            other => Err(Error::type_(format!(
                "{self}: the inner layout gave {other}, not an integer offset"
            ))),
        }
    }

    /// `(Sw o L)(i) = Sw(L(i))` for an integral coordinate `i` (any integer,
    /// as [`Layout::eval_index`]). Errors: those of `L(i)` and of
    /// [`Swizzle::apply`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 8])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.eval_index(41).unwrap(), 13);
    /// ```
    pub fn eval_index(&self, i: i64) -> Result<i64> {
        self.offset_of(self.layout.eval_index(i)?)
    }

    /// `(Sw o L)(c) = Sw(L(c))` for any coordinate `L` accepts (integral,
    /// flat, natural, out of range; `docs/language.md`, "Swizzles"). Errors: those
    /// of `L(c)` (e.g. `rank` for a coordinate of the wrong length) and of
    /// [`Swizzle::apply`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Scalar, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// let c = HTuple::flat([Some(Scalar::Int(3)), Some(Scalar::Int(0))]);
    /// assert_eq!(sl.eval(c.as_ref()).unwrap(), 208);
    /// ```
    pub fn eval(&self, c: HRef<'_, Option<Scalar>>) -> Result<i64> {
        self.offset_of(self.layout.eval(c)?)
    }

    /// `composition(Sw o L, B) = Sw o composition(L, B)` (
    /// `docs/language.md`, "Swizzles"; C++ composes into the inner layout).
    /// Errors: those of [`crate::algebra::composition()`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// let r = sl.compose(&Tiler::Int(8)).unwrap();
    /// assert_eq!(r.to_string(), "SW_3_4_3 o 8:64");
    /// assert_eq!(r.eval_index(2).unwrap(), 144);
    /// ```
    pub fn compose(&self, b: &Tiler) -> Result<SwizzledLayout> {
        self.with_inner(crate::algebra::composition(&self.layout, b)?)
    }

    /// `composition(A, Sw o L)`: a plain layout `A` after a swizzled layout
    /// with offset 0, as C++'s `composition(Layout, ComposedLayout)` builds
    /// it, `Sw' o composition(A, L)`, where `Sw'` is the swizzle whose bit
    /// fields are the images under `A` of `Sw`'s (C++
    /// `composition(Layout, Swizzle)`: `make_swizzle<A(Y), A(Z)>`), so that
    /// `A ∘ Sw = Sw' ∘ A`.
    ///
    /// C++ assumes without checking that `A` carries the swizzle through;
    /// rcute checks the answer by evaluation at every index of `L` (up to
    /// 65536 of them) and reports an error rather than a wrong layout.
    ///
    /// Errors: `value` for a non-zero offset (C++ requires `_0` too) and
    /// for an `L` too large to check; `type` for non-integer strides;
    /// `divisibility` when the images of the fields are not two bit runs
    /// of one length, or `Sw' o composition(A, L)` differs from `A ∘ Sw ∘ L`;
    /// those of [`crate::algebra::composition()`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // C++: composition(Layout<_512,_2>{}, composition(Swizzle<3,3,3>{},
    /// //   Layout<Shape<_8,_64>,Stride<_64,_1>>{})) = Sw<3,4,3> o _0 o (_8,_64):(_128,_2)
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let a = Layout::new(512, 2).unwrap();
    /// let r = SwizzledLayout::after_layout(&a, &s).unwrap();
    /// assert_eq!(format!("{r:#}"), "Sw<3,4,3> o (8,64):(128,2)");
    /// ```
    pub fn after_layout(a: &Layout, s: &SwizzledLayout) -> Result<SwizzledLayout> {
        let name = || format!("composition({a}, {s})");
        if s.offset != 0 {
            return Err(Error::value(format!(
                "{}: a layout composes after a swizzled layout only with the offset 0 \
                 (C++ requires `_0` too)",
                name()
            )));
        }
        let sw = Self::carried_swizzle(a, &s.swizzle, &name)?;
        let r = SwizzledLayout::new(
            sw,
            crate::algebra::composition(a, &Tiler::from(s.layout.clone()))?,
        )?;
        Self::check_after(&r, s.size()?, &name, |i| {
            match a.eval_index(s.eval_index(i)?)? {
                Scalar::Int(v) => Ok(v),
                other => Err(Error::type_(format!("{}: the value {other}", name()))),
            }
        })?;
        Ok(r)
    }

    /// `composition(A, Sw)`: a plain layout after a swizzle, C++'s
    /// `composition(Layout, Swizzle)`, the swizzled layout `Sw' o A` with
    /// `Sw'`'s fields the images of `Sw`'s under `A` (see
    /// [`SwizzledLayout::after_layout`], whose checks and errors apply,
    /// over the indices of `A`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // C++: composition(Layout<Shape<_8,_64>,Stride<_64,_1>>{}, Swizzle<3,3,3>{})
    /// //   = Sw<3,0,3> o _0 o (_8,_64):(_64,_1)
    /// let a = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let r = SwizzledLayout::layout_after_swizzle(&a, &Swizzle::new(3, 3, 3).unwrap()).unwrap();
    /// assert_eq!(format!("{r:#}"), "Sw<3,0,3> o (8,64):(64,1)");
    /// ```
    pub fn layout_after_swizzle(a: &Layout, sw: &Swizzle) -> Result<SwizzledLayout> {
        let name = || format!("composition({a}, {sw})");
        let r = SwizzledLayout::new(Self::carried_swizzle(a, sw, &name)?, a.clone())?;
        Self::check_after(&r, a.size()?, &name, |i| {
            match a.eval_index(sw.apply(i)?)? {
                Scalar::Int(v) => Ok(v),
                other => Err(Error::type_(format!("{}: the value {other}", name()))),
            }
        })?;
        Ok(r)
    }

    /// The swizzle `Sw'` with `A ∘ Sw = Sw' ∘ A`: the fields' images under
    /// `A` (C++ `make_swizzle<A(Y), A(Z)>`).
    fn carried_swizzle(a: &Layout, sw: &Swizzle, name: &dyn Fn() -> String) -> Result<Swizzle> {
        if !a.has_integer_strides() {
            return Err(Error::type_(format!(
                "{}: the layout after a swizzle needs integer strides",
                name()
            )));
        }
        let img = |m: i64| -> Result<i64> {
            match a.eval_index(m)? {
                Scalar::Int(v) => Ok(v),
                other => Err(Error::type_(format!("{}: the value {other}", name()))),
            }
        };
        let (y, z) = (img(sw.yyy_mask()?)?, img(sw.zzz_mask()?)?);
        Swizzle::from_masks(y, z).ok_or_else(|| {
            Error::divisibility(format!(
                "{}: the layout maps the swizzle's bit fields {} and {} to {y} and {z}, \
                 which are not two bit runs of one length, so no swizzle follows the layout",
                name(),
                sw.yyy_mask().unwrap_or(0),
                sw.zzz_mask().unwrap_or(0)
            ))
        })
    }

    /// Checks `r(i) == want(i)` for every `i < n`.
    fn check_after(
        r: &SwizzledLayout,
        n: i64,
        name: &dyn Fn() -> String,
        want: impl Fn(i64) -> Result<i64>,
    ) -> Result<()> {
        let Some(points) = Self::checked_points(n) else {
            return Err(Error::value(format!(
                "{}: {n} values are more than rcute checks ({CHECK_BUDGET}) for a layout \
                 composed after a swizzle",
                name()
            )));
        };
        for i in points {
            let (got, w) = (r.eval_index(i)?, want(i)?);
            if got != w {
                return Err(Error::divisibility(format!(
                    "{}: no swizzled layout reproduces it: C++'s form {r:#} gives {got} at {i}, \
                     the composition {w}",
                    name()
                )));
            }
        }
        Ok(())
    }

    /// The repr style: the notation that rebuilds the value,
    /// `composition(Swizzle(3,4,3), Layout((8, 8), (8, 1)))` (the notation
    /// does not fix this form).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 8])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.repr(), "composition(Swizzle(3,4,3), Layout((8, 8), (8, 1)))");
    /// ```
    pub fn repr(&self) -> String {
        if self.offset == 0 {
            format!(
                "composition({}, {})",
                self.swizzle.repr(),
                self.layout.repr()
            )
        } else {
            format!(
                "composition({}, {}, {})",
                self.swizzle.repr(),
                self.offset,
                self.layout.repr()
            )
        }
    }

    /// `cosize(Sw o L)`: the largest offset `Sw(L(c))` over `L`'s domain,
    /// plus one (the issue's definition; for an identity swizzle it is
    /// `max L(c) + 1`).
    ///
    /// Only offsets within `2^(hi+1)` of `max L(c)` can be largest, where
    /// `hi` is one past the target field (the swizzle changes no other
    /// bit); those offsets are enumerated exactly.
    ///
    /// Errors: `overflow`; `value` when more than about four million
    /// candidate offsets would have to be examined.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // offsets 0..63; Sw(3,0,3) maps 56 + 7 = 63 -> 56 and 56 -> 63.
    /// let l = Layout::column_major(HTuple::leaf(63)).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 0, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.cosize().unwrap(), 64);
    /// ```
    pub fn cosize(&self) -> Result<i64> {
        let mut modes: Vec<(i64, i64)> = Vec::new();
        for (s, d) in self.layout.flat_modes() {
            let d = match d {
                Scalar::Int(d) => *d,
                other => {
                    return Err(Error::type_(format!(
                        "cosize({self}): the stride {other} is not an integer"
                    )))
                }
            };
            if s > 1 && d != 0 {
                modes.push((s, d));
            }
        }
        // largest plain offset
        let mut hi: i64 = self.offset;
        for &(s, d) in &modes {
            let span = int::mul(s - 1, d)?;
            if span > 0 {
                hi = int::add(hi, span)?;
            }
        }
        if self.swizzle.is_identity() {
            return int::add(hi, 1);
        }
        let window_bits = int::add(self.swizzle.target_hi()?, 1)?;
        let lo = if window_bits >= 62 {
            i64::MIN
        } else {
            hi.saturating_sub(1i64 << window_bits).saturating_add(1)
        };
        let offsets = offsets_in_window(
            &mut modes,
            lo.saturating_sub(self.offset),
            &self.to_string(),
        )?;
        let mut best: Option<i64> = None;
        for y in offsets {
            let v = self.swizzle.apply(int::add(y, self.offset)?)?;
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        match best {
            Some(b) => int::add(b, 1),
            None => Err(Error::value(format!(
                "cosize({self}): no offset found (internal error)"
            ))),
        }
    }

    /// Converts `Sw o L` into an F2-stride layout `R` with
    /// `R(c) = Sw(L(c))` for every coordinate `c` of `L` (
    /// `docs/language.md`, "Swizzles"), when one of `L`'s form exists.
    ///
    /// `R` has `L`'s profile, except that a leaf mode `s:2^e` whose image
    /// is not a carry-less multiple (`Sw(c*2^e) != c * F(Sw(2^e))` for some
    /// `c < s`) is split into factors of 2 with strides `F(Sw(2^(e+b)))`,
    /// then coalesced; a single piece stays a leaf. Stride-0 modes keep the
    /// integer stride 0 and a size-1 mode `1:d` becomes `1:F(Sw(d))` (as
    /// composition gives them). The
    /// result equals `composition(swizzle_layout(Sw, n), L)` for a large
    /// enough `n`.
    ///
    /// Errors (`divisibility`): a stride that is neither 0 nor a
    /// non-negative power of two; modes whose bit ranges
    /// `[e, e + bitlen(s - 1))` overlap (integer addition would carry); a
    /// mode that must be split but whose extent is not divisible by 2.
    /// `overflow` from [`Swizzle::apply`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let sl = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(sl.to_f2_layout().unwrap().to_string(), "((2, 4), 64):((F64, F144), F1)");
    /// ```
    pub fn to_f2_layout(&self) -> Result<Layout> {
        if self.offset != 0 {
            return Err(Error::value(format!(
                "{self} has no F2-stride form: its offset {} is not 0 (an F2 layout maps \
                 the origin to 0)",
                self.offset
            )));
        }
        // carry-freeness: powers of two and disjoint bit ranges
        let mut ranges: Vec<(i64, i64)> = Vec::new();
        for (s, d) in self.layout.flat_modes() {
            let d = match d {
                Scalar::Int(d) => *d,
                other => {
                    return Err(Error::type_(format!(
                        "{self}: the stride {other} is not an integer"
                    )))
                }
            };
            if s == 1 || d == 0 {
                continue;
            }
            if d < 0 || d & (d - 1) != 0 {
                return Err(Error::divisibility(format!(
                    "{self} has no F2-stride form: the stride {d} is not a power of two"
                )));
            }
            let e = i64::from(d.trailing_zeros());
            let w = i64::from(64 - (s - 1).leading_zeros());
            ranges.push((e, int::add(e, w)?));
        }
        ranges.sort_unstable();
        for pair in ranges.windows(2) {
            if let [a, b] = pair {
                if b.0 < a.1 {
                    return Err(Error::divisibility(format!(
                        "{self} has no F2-stride form: modes share the offset bits \
                         {}..{} (integer addition would carry)",
                        b.0,
                        a.1.min(b.1)
                    )));
                }
            }
        }
        let mut bs = Builder::new();
        let mut bd = Builder::new();
        convert_rec(
            self,
            self.layout.shape().as_ref(),
            self.layout.stride(),
            &mut bs,
            &mut bd,
            0,
        )?;
        Ok(Layout::from_parts(bs.finish(), bd.finish()))
    }
}

fn convert_rec(
    sl: &SwizzledLayout,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
    bs: &mut Builder<i64>,
    bd: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("swizzled layout nested too deep"));
    }
    match (s.as_leaf(), d.as_leaf()) {
        (Some(&s), Some(d)) => {
            let d = d.as_int().unwrap_or(0);
            if d == 0 {
                bs.leaf(s);
                bd.leaf(Scalar::Int(0));
                return Ok(());
            }
            if s == 1 {
                // the single offset Sw(d), as composition's `1 : A(d)`
                bs.leaf(1);
                bd.leaf(Scalar::F2(sl.swizzle.apply(d)?));
                return Ok(());
            }
            let pieces = coalesce_f2_pieces(split_mode(sl, s, d)?)?;
            let l = pieces_to_layout(pieces);
            bs.push_owned(l.shape().clone());
            bd.push_owned(l.stride().to_owned());
            Ok(())
        }
        _ => {
            bs.open();
            bd.open();
            for (sm, dm) in s.modes_with(d.leaves()) {
                convert_rec(sl, sm, dm, bs, bd, depth + 1)?;
            }
            bs.close();
            bd.close();
            Ok(())
        }
    }
}

/// C++'s composition of the linear swizzle layout (the bit pieces
/// `(lowest bit, width, stride)` below bit `top`, then `2^top` per unit
/// above) with one slice `s : d`, leaf by leaf, keeping the profile and
/// without merging pieces. `false` when a stride is not 0 or a power of
/// two, or an extent does not split at the piece boundaries.
fn decay_rec(
    pieces: &[(i64, i64, i64)],
    top: i64,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
    bs: &mut Builder<i64>,
    bd: &mut Builder<Scalar>,
    depth: usize,
) -> Result<bool> {
    if depth > MAX_DEPTH {
        return Ok(false);
    }
    match (s.as_leaf(), d.as_leaf()) {
        (Some(&s), Some(d)) => {
            let d = match d {
                Scalar::Int(d) => *d,
                _ => return Ok(false),
            };
            if d == 0 || s == 1 {
                bs.leaf(s);
                bd.leaf(Scalar::Int(0));
                return Ok(true);
            }
            if d < 0 || d & (d - 1) != 0 {
                return Ok(false);
            }
            let mut bit = i64::from(d.trailing_zeros());
            let mut rest = s;
            let mut out: Vec<(i64, i64)> = Vec::new();
            while rest > 1 {
                let (avail, stride) = if bit >= top {
                    if bit > 62 {
                        return Ok(false);
                    }
                    (i64::MAX, 1i64 << bit)
                } else {
                    let Some(&(lo, w, st)) = pieces
                        .iter()
                        .find(|p| p.1 > 0 && p.0 <= bit && bit < p.0 + p.1)
                    else {
                        return Ok(false);
                    };
                    let within = bit - lo;
                    (1i64 << (w - within), int::mul(st, 1i64 << within)?)
                };
                if rest <= avail {
                    if avail != i64::MAX && avail % rest != 0 {
                        return Ok(false);
                    }
                    out.push((rest, stride));
                    rest = 1;
                } else {
                    if rest % avail != 0 {
                        return Ok(false);
                    }
                    out.push((avail, stride));
                    rest /= avail;
                    bit += i64::from(avail.trailing_zeros());
                }
            }
            match out.as_slice() {
                [(s, d)] => {
                    bs.leaf(*s);
                    bd.leaf(Scalar::Int(*d));
                }
                _ => {
                    bs.open();
                    bd.open();
                    for (s, d) in out {
                        bs.leaf(s);
                        bd.leaf(Scalar::Int(d));
                    }
                    bs.close();
                    bd.close();
                }
            }
            Ok(true)
        }
        _ => {
            bs.open();
            bd.open();
            for (sm, dm) in s.modes_with(d.leaves()) {
                if !decay_rec(pieces, top, sm, dm, bs, bd, depth + 1)? {
                    return Ok(false);
                }
            }
            bs.close();
            bd.close();
            Ok(true)
        }
    }
}

/// The F2 pieces of one carry-free mode `s : d` (`d` a power of two): the
/// whole extent when it is a carry-less multiple, otherwise a factor 2 is
/// split off and the rest examined again.
fn split_mode(sl: &SwizzledLayout, s: i64, d: i64) -> Result<Vec<(i64, i64)>> {
    let sw = &sl.swizzle;
    let mut pieces = Vec::new();
    let mut e = i64::from(d.trailing_zeros());
    let mut rem = s;
    while rem > 1 {
        let width = i64::from(64 - (rem - 1).leading_zeros());
        if int::add(e, width)? > 63 {
            return Err(Error::overflow(format!(
                "{sl}: the offsets of the mode {s}:{d} exceed 63 bits"
            )));
        }
        let base = sw.apply(1i64 << e)?;
        let mut fits = true;
        for b in 1..width {
            let img = sw.apply(1i64 << (e + b))?;
            if crate::f2::clmul(base, 1i64 << b).ok() != Some(img) {
                fits = false;
                break;
            }
        }
        if fits {
            pieces.push((rem, base));
            break;
        }
        if rem % 2 != 0 {
            return Err(Error::divisibility(format!(
                "{sl} has no F2-stride form: the mode {s}:{d} must be split at bit {e}, \
                 but its remaining extent {rem} is odd"
            )));
        }
        pieces.push((2, base));
        rem /= 2;
        e += 1;
    }
    Ok(pieces)
}

/// The distinct offsets `sum c_k d_k` (`0 <= c_k < s_k`) that lie in
/// `[lo, max]`, where `max` is the largest offset. Modes are visited by
/// decreasing `|d|`; partial sums that cannot reach `lo` are pruned.
fn offsets_in_window(modes: &mut [(i64, i64)], lo: i64, what: &str) -> Result<BTreeSet<i64>> {
    const BUDGET: i64 = 1 << 22;
    modes.sort_unstable_by_key(|&(_, d)| std::cmp::Reverse(d.unsigned_abs()));
    // rest_max[k]: the largest sum the modes k.. can add
    let mut rest_max = vec![0i64; modes.len() + 1];
    for k in (0..modes.len()).rev() {
        let (s, d) = modes[k];
        rest_max[k] = int::add(rest_max[k + 1], int::mul(s - 1, d)?.max(0))?;
    }
    let mut work: i64 = 0;
    let mut cur: BTreeSet<i64> = BTreeSet::new();
    cur.insert(0);
    for (k, &(s, d)) in modes.iter().enumerate() {
        let need = lo.saturating_sub(rest_max[k + 1]); // partial sums must reach this
        let mut next = BTreeSet::new();
        for &p in &cur {
            // c in [0, s) with p + c*d >= need
            let (c0, c1) = if d > 0 {
                let c0 = if p >= need {
                    0
                } else {
                    int::ceil_div(int::sub(need, p)?, d)?
                };
                (c0, s - 1)
            } else {
                // d < 0: p + c*d >= need  <=>  c <= (p - need) / |d|
                let c1 = if p < need {
                    -1
                } else {
                    int::floor_div(int::sub(p, need)?, int::neg(d)?)?.min(s - 1)
                };
                (0, c1)
            };
            if c0 > c1 {
                continue;
            }
            work = work.saturating_add(c1 - c0 + 1);
            if work > BUDGET {
                return Err(Error::value(format!(
                    "cosize({what}): too many candidate offsets to examine \
                     (more than {BUDGET})"
                )));
            }
            for c in c0..=c1 {
                next.insert(int::add(p, int::mul(c, d)?)?);
            }
        }
        cur = next;
    }
    Ok(cur)
}

impl fmt::Display for SwizzledLayout {
    /// `SW_B_M_S o <L>`; `{:#}` gives `Sw<B,M,S> o <L in C++ style>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{:#} o ", self.swizzle)?;
            if self.offset != 0 {
                write!(f, "{} o ", self.offset)?;
            }
            write!(f, "{:#}", self.layout)
        } else {
            write!(f, "{} o ", self.swizzle)?;
            if self.offset != 0 {
                write!(f, "{} o ", self.offset)?;
            }
            write!(f, "{}", self.layout)
        }
    }
}

/// A shared-memory layout for [`bank_conflicts`] (`docs/operations.md`):
/// a plain layout (integer or F2 strides) or a swizzled layout. Both
/// `&Layout` and `&SwizzledLayout` convert into it.
///
/// ```
/// use rcute::{Layout, HTuple};
/// use rcute::swizzle::SmemLayout;
/// let l = Layout::row_major(HTuple::flat([32, 32])).unwrap();
/// let s: SmemLayout<'_> = (&l).into();
/// assert_eq!(s.to_string(), "(32, 32):(32, 1)");
/// ```
#[derive(Clone, Copy, Debug)]
pub enum SmemLayout<'a> {
    /// A layout with integer or F2 strides (an F2 offset counts as its
    /// integer value).
    Layout(&'a Layout),
    /// A swizzled layout `Sw o L`.
    Swizzled(&'a SwizzledLayout),
}

impl<'a> From<&'a Layout> for SmemLayout<'a> {
    fn from(l: &'a Layout) -> Self {
        SmemLayout::Layout(l)
    }
}

impl<'a> From<&'a SwizzledLayout> for SmemLayout<'a> {
    fn from(l: &'a SwizzledLayout) -> Self {
        SmemLayout::Swizzled(l)
    }
}

impl fmt::Display for SmemLayout<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmemLayout::Layout(l) => fmt::Display::fmt(l, f),
            SmemLayout::Swizzled(l) => fmt::Display::fmt(l, f),
        }
    }
}

impl SmemLayout<'_> {
    /// The element offset of the element `e` (an index or coordinate of the
    /// layout's domain).
    fn offset(&self, e: &Scalar) -> Result<i64> {
        let c = HTuple::leaf(Some(e.clone()));
        match self {
            SmemLayout::Swizzled(l) => l.eval(c.as_ref()),
            SmemLayout::Layout(l) => match l.eval(c.as_ref())? {
                Scalar::Int(o) | Scalar::F2(o) => Ok(o),
                other => Err(Error::type_(format!(
                    "bank_conflicts: the shared-memory layout {l} gives the coordinate \
                     {other}, not an offset"
                ))),
            },
        }
    }
}

/// Number of shared-memory banks (`docs/operations.md`).
///
/// ```
/// assert_eq!(rcute::swizzle::NUM_BANKS, 32);
/// ```
pub const NUM_BANKS: usize = 32;
/// Width of one bank word in bytes (`docs/operations.md`).
///
/// ```
/// assert_eq!(rcute::swizzle::BANK_BYTES, 4);
/// ```
pub const BANK_BYTES: i64 = 4;
/// Number of threads in a warp: [`bank_conflicts`] examines this many.
///
/// ```
/// assert_eq!(rcute::swizzle::WARP_SIZE, 32);
/// ```
pub const WARP_SIZE: i64 = 32;
/// The largest element size [`bank_conflicts`] accepts, in bytes.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::swizzle::{bank_conflicts, MAX_ELEM_BYTES};
/// let l = Layout::new(HTuple::leaf(32), HTuple::leaf(Scalar::Int(1))).unwrap();
/// assert!(bank_conflicts(&l, &l, MAX_ELEM_BYTES).is_ok());
/// assert!(bank_conflicts(&l, &l, MAX_ELEM_BYTES + 1).is_err());
/// ```
pub const MAX_ELEM_BYTES: i64 = 1024;

/// The result of [`bank_conflicts`] (`docs/operations.md`): the pass count
/// and the number of distinct words each bank serves.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::swizzle::bank_conflicts;
/// // 32 threads read every second float: banks 0, 2, ..., 30 serve 2 words each
/// let smem = Layout::new(HTuple::leaf(64), HTuple::leaf(Scalar::Int(1))).unwrap();
/// let access = Layout::new(HTuple::leaf(32), HTuple::leaf(Scalar::Int(2))).unwrap();
/// let r = bank_conflicts(&smem, &access, 4).unwrap();
/// assert_eq!(r.passes, 2);
/// assert_eq!((r.per_bank[0], r.per_bank[1]), (2, 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankConflicts {
    /// The number of passes the request needs: the largest entry of
    /// `per_bank` (1 = conflict-free, `k` = a `k`-way conflict).
    pub passes: i64,
    /// For each bank, the number of distinct 4-byte words requested from it.
    pub per_bank: [i64; NUM_BANKS],
}

/// Bank-conflict analysis of one warp's shared-memory request
/// (`docs/operations.md`).
///
/// `smem` (a `&Layout`, a `&SwizzledLayout` or a [`SmemLayout`]) maps an
/// element (index or coordinate) to its element offset;
/// `access` maps thread `t` to the element it reads (`smem`'s index, or a
/// coordinate value such as `t@0`); elements are `elem_bytes` bytes. Threads
/// `0 .. min(size(access), 32)` (one warp) take part. Element offset `o`
/// occupies bytes `[o*e, o*e + e)`; the 4-byte word `w` lies in bank
/// `w mod 32`. Each bank serves its distinct words one per pass (requests
/// for the same word are broadcast), so the pass count is the largest
/// number of distinct words of one bank. For `e` = 1, 2, 4 an element lies
/// in the single word `floor(o*e/4)`, which is section 9's formula; a wider
/// element counts every word it covers.
///
/// Errors: `value` for `elem_bytes` outside `1..=1024`; `type` when `smem`
/// gives coordinates rather than offsets; errors of evaluating `access` or
/// `smem`; `overflow`.
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, Swizzle, SwizzledLayout};
/// use rcute::swizzle::bank_conflicts;
/// // a row-major 32x32 tile of floats; the warp reads column 0
/// let tile = Layout::row_major(HTuple::flat([32, 32])).unwrap();
/// let column = Layout::new(HTuple::leaf(32), HTuple::leaf(Scalar::Int(1))).unwrap();
/// assert_eq!(bank_conflicts(&tile, &column, 4).unwrap().passes, 32);
/// let sw = SwizzledLayout::new(Swizzle::new(5, 0, 5).unwrap(), tile).unwrap();
/// let r = bank_conflicts(&sw, &column, 4).unwrap();
/// assert_eq!(r.passes, 1);
/// assert_eq!(r.per_bank, [1; 32]);
/// ```
pub fn bank_conflicts<'a>(
    smem: impl Into<SmemLayout<'a>>,
    access: &Layout,
    elem_bytes: i64,
) -> Result<BankConflicts> {
    let smem: SmemLayout<'a> = smem.into();
    if !(1..=MAX_ELEM_BYTES).contains(&elem_bytes) {
        return Err(Error::value(format!(
            "bank_conflicts({smem}, {access}, {elem_bytes}): the element size must be \
             1..={MAX_ELEM_BYTES} bytes"
        )));
    }
    let threads = access.size()?.min(WARP_SIZE);
    let mut words: BTreeSet<i64> = BTreeSet::new();
    for t in 0..threads {
        let e = match access.eval_index(t)? {
            Scalar::F2(n) => Scalar::Int(n),
            e => e,
        };
        let o = smem.offset(&e)?;
        let first = int::mul(o, elem_bytes)?;
        let last = int::add(first, elem_bytes - 1)?;
        let (w0, w1) = (
            int::floor_div(first, BANK_BYTES)?,
            int::floor_div(last, BANK_BYTES)?,
        );
        for w in w0..=w1 {
            words.insert(w);
        }
    }
    let mut per_bank = [0i64; NUM_BANKS];
    for w in words {
        let b = int::floor_mod(w, NUM_BANKS as i64)?;
        if let Some(slot) = per_bank.get_mut(b as usize) {
            *slot += 1;
        }
    }
    let passes = per_bank.iter().copied().max().unwrap_or(0);
    Ok(BankConflicts { passes, per_bank })
}

/// The result of slicing a swizzled layout ([`SwizzledLayout::slice_and_offset`]):
/// a swizzled layout, or a plain layout when the swizzle acts on the
/// sliced modes as an integer layout does (C++ then returns a normal
/// layout).
#[derive(Clone, Debug, PartialEq)]
pub enum SwizzledSlice {
    /// The slice is itself a swizzled layout `Sw o offset o sub`.
    Swizzled(SwizzledLayout),
    /// The swizzle is linear on the slice: a plain integer layout.
    Plain(Layout),
}

impl fmt::Display for SwizzledSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwizzledSlice::Swizzled(s) => fmt::Display::fmt(s, f),
            SwizzledSlice::Plain(l) => fmt::Display::fmt(l, f),
        }
    }
}

/// The most points the swizzled-layout operations evaluate to check a
/// candidate answer against the definition.
const CHECK_BUDGET: i64 = 1 << 16;

/// The base-2 logarithm of a power of two `n >= 1`, or a `value` error
/// naming `op`.
fn log2_exact(n: i64, op: &str) -> Result<i64> {
    if n < 1 || n & (n - 1) != 0 {
        return Err(Error::value(format!(
            "{op}: the factor {n} of a swizzled layout must be a power of two"
        )));
    }
    Ok(i64::from(n.trailing_zeros()))
}

impl Swizzle {
    /// C++ `upcast<N>(Swizzle<B,M,S>)`: the swizzle for elements `N` times
    /// larger: `M` drops by `log2 N`; when that goes below 0 the bits below
    /// the new element are lost too, `Swizzle(max(B + M - log2 N, 0), 0, S)`.
    ///
    /// Errors: `value` unless `N` is a power of two.
    ///
    /// ```
    /// let sw = rcute::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.upcast(2).unwrap().to_string(), "SW_3_3_3");
    /// assert_eq!(sw.upcast(64).unwrap().to_string(), "SW_1_0_3");
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Swizzle> {
        let k = log2_exact(n, "upcast")?;
        let m = self.base - k;
        if m >= 0 {
            Swizzle::new(self.bits, m, self.shift)
        } else {
            Swizzle::new((self.bits + m).max(0), 0, self.shift)
        }
    }

    /// C++ `downcast<N>(Swizzle<B,M,S>)`: `Swizzle(B, M + log2 N, S)`.
    ///
    /// Errors: `value` unless `N` is a power of two.
    ///
    /// ```
    /// let sw = rcute::Swizzle::new(3, 3, 3).unwrap();
    /// assert_eq!(sw.downcast(2).unwrap().to_string(), "SW_3_4_3");
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Swizzle> {
        let k = log2_exact(n, "downcast")?;
        Swizzle::new(self.bits, int::add(self.base, k)?, self.shift)
    }

    /// The swizzle whose source field is the bit run `y` and whose target
    /// field is the bit run `z` (C++ `make_swizzle<Y, Z>`), when both are
    /// runs of the same length that do not overlap; `None` otherwise.
    fn from_masks(y: i64, z: i64) -> Option<Swizzle> {
        if y == 0 && z == 0 {
            return Swizzle::new(0, 0, 0).ok();
        }
        let run = |m: i64| -> Option<(i64, i64)> {
            if m <= 0 {
                return None;
            }
            let lo = i64::from(m.trailing_zeros());
            let w = i64::from((m >> lo).trailing_ones());
            ((m >> lo) == (1i64 << w) - 1).then_some((lo, w))
        };
        let (ylo, yw) = run(y)?;
        let (zlo, zw) = run(z)?;
        if yw != zw {
            return None;
        }
        Swizzle::new(yw, ylo.min(zlo), ylo - zlo).ok()
    }
}

impl SwizzledLayout {
    /// Every value `f(k)`, `k < size`, for the checks below; `None` when
    /// there are more than [`CHECK_BUDGET`].
    fn checked_points(size: i64) -> Option<std::ops::Range<i64>> {
        (size <= CHECK_BUDGET).then_some(0..size)
    }

    /// `slice_and_offset(c, Sw o offset o L)` as C++ computes it for a
    /// swizzle (`cute/swizzle_layout.hpp`): the sub-layout of the modes `c`
    /// marks `_` and an integer offset, with
    /// `self(c[k]) == sub(k) + offset` for every `k` of the sub-layout.
    ///
    /// * When the sliced modes reach both a bit of the swizzle's source
    ///   field and the matching bit of its target field, the slice is the
    ///   swizzled layout `Sw o t o sub` and the offset carries the bits of
    ///   the fixed part outside the swizzle's fields.
    /// * Otherwise the swizzle acts on the slice as an integer layout
    ///   does, and the slice is that plain layout (C++: a "normal" layout).
    /// * When neither form reproduces the values (e.g. the fixed offset and
    ///   the sliced modes share bits, where C++'s answer would be wrong),
    ///   rcute returns `Sw o (offset + L(c0)) o sub` with offset 0, which
    ///   always agrees (C++'s generic `ComposedLayout` rule).
    ///
    /// Errors: those of [`crate::algebra::slice_and_offset`] on `L`;
    /// `overflow`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Scalar, Swizzle, SwizzledLayout};
    /// // C++: slice_and_offset(make_coord(1,_), composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let c = HTuple::flat([Some(Scalar::Int(1)), None]);
    /// let (sub, off) = s.slice_and_offset(c.as_ref()).unwrap();
    /// assert_eq!(format!("{sub:#}"), "((8,2,2,2)):((1,-8,16,32))");
    /// assert_eq!(off, 72);
    /// ```
    pub fn slice_and_offset(&self, c: HRef<'_, Option<Scalar>>) -> Result<(SwizzledSlice, i64)> {
        let (sub, d) = crate::algebra::slice_and_offset(&self.layout, c)?;
        let d = match d {
            Scalar::Int(d) => d,
            other => {
                return Err(Error::type_(format!(
                    "slice of {self}: the fixed part gives {other}, not an integer offset"
                )))
            }
        };
        let generic = || -> Result<(SwizzledSlice, i64)> {
            Ok((
                SwizzledSlice::Swizzled(SwizzledLayout::with_offset(
                    self.swizzle,
                    int::add(self.offset, d)?,
                    sub.clone(),
                )?),
                0,
            ))
        };
        if c.as_leaf().is_some() || self.swizzle.is_identity() {
            return generic();
        }
        match self.cpp_slice(c, &sub, d)? {
            Some(r) if self.slice_agrees(&r, &sub, d)? => Ok(r),
            _ => generic(),
        }
    }

    /// C++'s answer for the slice `sub` whose fixed part is at `d`, when
    /// its conditions can be evaluated (`None` otherwise).
    fn cpp_slice(
        &self,
        c: HRef<'_, Option<Scalar>>,
        sub: &Layout,
        d: i64,
    ) -> Result<Option<(SwizzledSlice, i64)>> {
        let sw = self.swizzle;
        let (y, z) = (sw.yyy_mask()?, sw.zzz_mask()?);
        let zy = y | z;
        if d < 0 {
            return Ok(None);
        }
        let t_zy = self.offset ^ (d & zy);
        let t_anti = d & !zy;
        // the field bits the sliced modes reach
        let Some(points) = Self::checked_points(sub.size()?) else {
            return Ok(None);
        };
        let mut active = 0i64;
        for k in points {
            match sub.eval_index(k)? {
                Scalar::Int(v) if v >= 0 => active |= v & zy,
                _ => return Ok(None),
            }
        }
        let y_act = active & y;
        let z_act = active & z;
        let y_as_z = if sw.shift >= 0 {
            y_act >> sw.shift
        } else {
            y_act << (-sw.shift)
        };
        if y_as_z & z_act != 0 {
            // the swizzle mixes bits of the slice: it stays a swizzled layout
            return Ok(Some((
                SwizzledSlice::Swizzled(SwizzledLayout::with_offset(sw, t_zy, sub.clone())?),
                t_anti,
            )));
        }
        // linear on the slice: the swizzle as an integer layout on its bits,
        // (2^M, 2 x B, 2^(|S|-B), 2 x B, rest) over the bits
        // [0, M), the lower field, the gap, the upper field, the rest
        let (b, m) = (sw.bits, sw.base);
        let abs_s = sw.shift.abs();
        let (zlo, ylo) = (sw.target_lo()?, sw.source_lo()?);
        if sw.top()? > 62 {
            return Ok(None);
        }
        // The field bits the fixed coordinate can set: C++ knows the other
        // bits of the offset at compile time (the coordinate is a run-time
        // value, the layout static), and merges only pieces whose strides
        // are known (its `coalesce` of the left-hand side).
        let diced = Layout::from_parts(
            crate::algebra::slice::dice_(c, self.layout.shape().as_ref())?,
            crate::algebra::slice::dice_(c, self.layout.stride())?,
        );
        let mut dynamic = 0i64;
        for (s, d) in diced.flat_modes() {
            if let Scalar::Int(d) = d {
                let span = int::mul(s - 1, d.abs())?;
                if span > 0 {
                    let lo = if *d != 0 && d & (d - 1) == 0 {
                        i64::from(d.trailing_zeros())
                    } else {
                        0
                    };
                    let hi = i64::from(64 - span.leading_zeros());
                    if hi > lo && hi <= 62 {
                        dynamic |= ((1i64 << hi) - 1) & !((1i64 << lo) - 1);
                    } else if hi > 62 {
                        dynamic |= !((1i64 << lo.min(62)) - 1);
                    }
                }
            }
        }
        dynamic &= zy;
        // (lowest bit, bit width, stride of the lowest bit, stride known)
        let mut pieces: Vec<(i64, i64, i64, bool)> = vec![(0, m, 1, true)];
        let field = |lo: i64, pieces: &mut Vec<(i64, i64, i64, bool)>| {
            for i in 0..b {
                let (p, zb, yb) = (1i64 << (lo + i), 1i64 << (zlo + i), 1i64 << (ylo + i));
                let (v, known) = if lo == zlo {
                    // a target bit: it counts down when its source bit is set
                    (if t_zy & yb == 0 { p } else { -p }, dynamic & yb == 0)
                } else {
                    // a source bit also sets its target bit
                    (
                        if t_zy & zb == 0 { yb + zb } else { yb - zb },
                        dynamic & zb == 0,
                    )
                };
                pieces.push((lo + i, 1, v, known));
            }
        };
        let (lo1, lo2) = if zlo < ylo { (zlo, ylo) } else { (ylo, zlo) };
        field(lo1, &mut pieces);
        pieces.push((m + b, abs_s - b, 1i64 << (m + b), true));
        field(lo2, &mut pieces);
        let top = m + b + abs_s;
        // C++'s coalesce of the known pieces
        let mut merged: Vec<(i64, i64, i64)> = Vec::new();
        let mut known_last = false;
        for (lo, w, st, known) in pieces {
            if w == 0 {
                continue;
            }
            if let Some(last) = merged.last_mut() {
                if known && known_last && int::mul(last.2, 1i64 << last.1).ok() == Some(st) {
                    last.1 += w;
                    continue;
                }
            }
            merged.push((lo, w, st));
            known_last = known;
        }
        let pieces = merged;
        let mut bs = Builder::new();
        let mut bd = Builder::new();
        if !decay_rec(
            &pieces,
            top,
            sub.shape().as_ref(),
            sub.stride(),
            &mut bs,
            &mut bd,
            0,
        )? {
            return Ok(None);
        }
        let plain = Layout::from_parts(bs.finish(), bd.finish());
        let off = int::add(sw.apply(t_zy)?, t_anti)?;
        Ok(Some((SwizzledSlice::Plain(plain), off)))
    }

    /// True when `(r, off)` reproduces `self` on the slice `sub` at `d`.
    fn slice_agrees(&self, r: &(SwizzledSlice, i64), sub: &Layout, d: i64) -> Result<bool> {
        let Some(points) = Self::checked_points(sub.size()?) else {
            return Ok(false);
        };
        let base = int::add(self.offset, d)?;
        for k in points {
            let want = match sub.eval_index(k)? {
                Scalar::Int(v) => self.swizzle.apply(int::add(base, v)?)?,
                _ => return Ok(false),
            };
            let got = match &r.0 {
                SwizzledSlice::Swizzled(s) => s.eval_index(k),
                SwizzledSlice::Plain(l) => match l.eval_index(k) {
                    Ok(Scalar::Int(v)) => Ok(v),
                    _ => return Ok(false),
                },
            };
            match got.and_then(|g| int::add(g, r.1)) {
                Ok(g) if g == want => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// `S(c)` for a coordinate `c` containing `_`: the slice of
    /// [`SwizzledLayout::slice_and_offset`] without the offset (as C++
    /// `layout(c)` and as plain layouts slice).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Scalar, Swizzle, SwizzledLayout};
    /// // C++: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})(_,1)
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let c = HTuple::flat([None, Some(Scalar::Int(1))]);
    /// assert_eq!(s.slice(c.as_ref()).unwrap().to_string(), "((2, 2, 2),):((72, 144, 288),)");
    /// ```
    pub fn slice(&self, c: HRef<'_, Option<Scalar>>) -> Result<SwizzledSlice> {
        Ok(self.slice_and_offset(c)?.0)
    }
}

/// Operations C++ applies to a composed layout through its inner layout:
/// `op(Sw o offset o L, ...) = Sw o offset o op(L, ...)`
/// (`cute/layout_composed.hpp`).
macro_rules! through_inner {
    ($($(#[$doc:meta])* $name:ident => $f:path;)*) => {
        impl SwizzledLayout {
            $(
                $(#[$doc])*
                pub fn $name(&self, b: &TilerRef<'_>) -> Result<SwizzledLayout> {
                    self.with_inner($f(&self.layout, b)?)
                }
            )*
        }
    };
}

through_inner! {
    /// `logical_divide(Sw o offset o L, B) = Sw o offset o logical_divide(L, B)`
    /// (C++ `logical_divide` of a `ComposedLayout`; C++ gives the size-1
    /// mode the stride 0, rcute the stride of `docs/operations.md`). Errors: those
    /// of [`crate::algebra::logical_divide()`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// // C++: logical_divide(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_tile(_8{},_8{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)].into());
    /// assert_eq!(format!("{:#}", s.logical_divide(&t).unwrap()),
    ///            "Sw<3,3,3> o ((8,1),(8,8)):((64,512),(1,8))");
    /// ```
    logical_divide => crate::algebra::logical_divide;
    /// `zipped_divide` through the inner layout (C++ `zipped_divide` of a
    /// `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)].into());
    /// assert_eq!(format!("{:#}", s.zipped_divide(&t).unwrap()),
    ///            "Sw<3,3,3> o ((8,8),(1,8)):((64,1),(512,8))");
    /// ```
    zipped_divide => crate::algebra::zipped_divide;
    /// `tiled_divide` through the inner layout (C++ `tiled_divide` of a
    /// `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)].into());
    /// assert_eq!(format!("{:#}", s.tiled_divide(&t).unwrap()),
    ///            "Sw<3,3,3> o ((8,8),1,8):((64,1),512,8)");
    /// ```
    tiled_divide => crate::algebra::tiled_divide;
    /// `flat_divide` through the inner layout (C++ `flat_divide` of a
    /// `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)].into());
    /// assert_eq!(format!("{:#}", s.flat_divide(&t).unwrap()),
    ///            "Sw<3,3,3> o (8,8,1,8):(64,1,512,8)");
    /// ```
    flat_divide => crate::algebra::flat_divide;
    /// `logical_product` with a swizzled atom (C++ `logical_product` of a
    /// `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(format!("{:#}", s.logical_product(&Tiler::Layout(b)).unwrap()),
    ///            "Sw<3,3,3> o ((8,64),(2,3)):((64,1),(512,1024))");
    /// ```
    logical_product => crate::algebra::logical_product;
    /// `zipped_product` with a swizzled atom.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(s.zipped_product(&Tiler::Layout(b)).unwrap().size().unwrap(), 3072);
    /// ```
    zipped_product => crate::algebra::zipped_product;
    /// `tiled_product` with a swizzled atom.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(s.tiled_product(&Tiler::Layout(b)).unwrap().size().unwrap(), 3072);
    /// ```
    tiled_product => crate::algebra::tiled_product;
    /// `flat_product` with a swizzled atom.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(s.flat_product(&Tiler::Layout(b)).unwrap().size().unwrap(), 3072);
    /// ```
    flat_product => crate::algebra::flat_product;
    /// `blocked_product` with a swizzled atom: how SM80/SM90 shared-memory
    /// layouts are built from an atom such as `Sw<3,3,3> o (8,64):(64,1)`
    /// (C++ `blocked_product` of a `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// // C++: blocked_product(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), Layout<Shape<_2,_3>>{})
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(format!("{:#}", s.blocked_product(&Tiler::Layout(b)).unwrap()),
    ///            "Sw<3,3,3> o ((8,2),(64,3)):((64,512),(1,1024))");
    /// ```
    blocked_product => crate::algebra::blocked_product;
    /// `raked_product` with a swizzled atom (C++ `raked_product` of a
    /// `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let b = Layout::column_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(format!("{:#}", s.raked_product(&Tiler::Layout(b)).unwrap()),
    ///            "Sw<3,3,3> o ((2,8),(3,64)):((512,64),(1024,1))");
    /// ```
    raked_product => crate::algebra::raked_product;
    /// `coalesce` by mode through the inner layout (C++ `coalesce(layout,
    /// profile)` of a `ComposedLayout`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout, Tiler};
    /// let l = Layout::column_major(HTuple::flat([2, 4, 8])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let p = Tiler::Tuple(vec![Tiler::Int(1), Tiler::Int(1), Tiler::Int(1)].into());
    /// assert_eq!(s.coalesce_by_mode(&p).unwrap().to_string(), "SW_3_3_3 o (2, 4, 8):(1, 2, 8)");
    /// ```
    coalesce_by_mode => crate::algebra::coalesce_by_mode;
}

impl SwizzledLayout {
    /// `coalesce(Sw o offset o L) = Sw o offset o coalesce(L)` (C++
    /// `coalesce` of a `ComposedLayout`; the values are unchanged).
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// let l = Layout::column_major(HTuple::flat([2, 4, 8])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// assert_eq!(s.coalesce().unwrap().to_string(), "SW_3_3_3 o 64:1");
    /// ```
    pub fn coalesce(&self) -> Result<SwizzledLayout> {
        self.with_inner(crate::algebra::coalesce(&self.layout)?)
    }

    /// C++ `upcast<N>` of a swizzled layout: `upcast<N>(Sw) o offset/N o
    /// upcast<N>(L)` ([`Swizzle::upcast`], [`crate::algebra::upcast()`]).
    ///
    /// Errors: `value` unless `N` is a power of two; `divisibility` when
    /// `N` does not divide the offset; those of the layout's upcast.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // C++: upcast<2>(composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 4, 3).unwrap(), l).unwrap();
    /// assert_eq!(format!("{:#}", s.upcast(2).unwrap()), "Sw<3,3,3> o (8,32):(32,1)");
    /// ```
    pub fn upcast(&self, n: i64) -> Result<SwizzledLayout> {
        let sw = self.swizzle.upcast(n)?;
        if self.offset % n != 0 {
            return Err(Error::divisibility(format!(
                "upcast({self}, {n}): the offset {} is not a multiple of {n}",
                self.offset
            )));
        }
        SwizzledLayout::with_offset(
            sw,
            self.offset / n,
            crate::algebra::upcast(&self.layout, n)?,
        )
    }

    /// C++ `downcast<N>` of a swizzled layout: `downcast<N>(Sw) o offset*N
    /// o downcast<N>(L)`.
    ///
    /// Errors: `value` unless `N` is a power of two; those of
    /// [`crate::algebra::downcast()`]; `overflow`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // C++: downcast<2>(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// assert_eq!(format!("{:#}", s.downcast(2).unwrap()), "Sw<3,4,3> o (8,128):(128,1)");
    /// ```
    pub fn downcast(&self, n: i64) -> Result<SwizzledLayout> {
        let sw = self.swizzle.downcast(n)?;
        SwizzledLayout::with_offset(
            sw,
            int::mul(self.offset, n)?,
            crate::algebra::downcast(&self.layout, n)?,
        )
    }

    /// `recast(S, scale)`: elements `scale` times larger (C++
    /// `recast_layout<Old, New>` with `scale = sizeof(New)/sizeof(Old)`):
    /// an integer scale is [`SwizzledLayout::upcast`], `1/n` is
    /// [`SwizzledLayout::downcast`], `p/q` is `downcast(upcast(S, p), q)`.
    ///
    /// Errors: `value` for a non-positive scale or one whose reduced terms
    /// are not powers of two; `type` for a tuple scale; those of the casts.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// use rcute::algebra::Scale;
    /// // C++: recast_layout<half_t, float>(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// assert_eq!(format!("{:#}", s.recast(&Scale::int(2)).unwrap()), "Sw<3,2,3> o (8,32):(32,1)");
    /// ```
    pub fn recast(&self, scale: &crate::algebra::Scale) -> Result<SwizzledLayout> {
        let (num, den) = match scale {
            crate::algebra::Scale::Ratio { num, den } => (*num, *den),
            crate::algebra::Scale::Tuple(_) => {
                return Err(Error::type_(format!(
                    "recast({self}, {scale}): a swizzled layout takes a single scale"
                )))
            }
        };
        if num <= 0 || den <= 0 {
            return Err(Error::value(format!(
                "recast({self}, {scale}): the scale must be positive"
            )));
        }
        let g = int::gcd(num, den);
        let (num, den) = (num / g, den / g);
        let up = if num == 1 {
            self.clone()
        } else {
            self.upcast(num)?
        };
        if den == 1 {
            Ok(up)
        } else {
            up.downcast(den)
        }
    }

    /// The right inverse of `Sw o L` (C++ `right_inverse` of a swizzled
    /// layout, `right_inverse(L) o Sw`, which C++ rewrites as a swizzled
    /// layout `Sw' o right_inverse(L)` by carrying the swizzle's two bit
    /// fields through `right_inverse(L)`).
    ///
    /// When the carried fields are not two equal bit runs, or the result
    /// would not satisfy `S(R(i)) == i`, the answer goes through the F2
    /// form: `right_inverse(swizzle_layout(S))`, an F2-stride layout with
    /// the same values as C++'s composed inverse.
    ///
    /// Errors: `value` for a non-zero offset (C++ would return a layout
    /// composed with a swizzle, which rcute does not represent); those of
    /// [`SwizzledLayout::to_f2_layout`] and
    /// [`crate::algebra::right_inverse()`].
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// use rcute::swizzle::SwizzledInverse;
    /// // C++: right_inverse(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// let r = s.right_inverse().unwrap();
    /// assert_eq!(format!("{r:#}"), "Sw<3,0,-6> o (64,8):(8,1)");
    /// ```
    pub fn right_inverse(&self) -> Result<SwizzledInverse> {
        self.inverse(true)
    }

    /// The left inverse of `Sw o L` (C++ `left_inverse` of a swizzled
    /// layout), built as [`SwizzledLayout::right_inverse`] is, with the
    /// post-condition `R(S(i)) == i` for every `i < size(S)`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Swizzle, SwizzledLayout};
    /// // C++: left_inverse(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))
    /// let l = Layout::row_major(HTuple::flat([8, 64])).unwrap();
    /// let s = SwizzledLayout::new(Swizzle::new(3, 3, 3).unwrap(), l).unwrap();
    /// assert_eq!(format!("{:#}", s.left_inverse().unwrap()), "Sw<3,0,-6> o (64,8):(8,1)");
    /// ```
    pub fn left_inverse(&self) -> Result<SwizzledInverse> {
        self.inverse(false)
    }

    fn inverse(&self, right: bool) -> Result<SwizzledInverse> {
        let name = if right {
            "right_inverse"
        } else {
            "left_inverse"
        };
        if self.offset != 0 {
            return Err(Error::value(format!(
                "{name}({self}): a swizzled layout with a non-zero offset has no inverse \
                 rcute can represent"
            )));
        }
        let inv = if right {
            crate::algebra::right_inverse(&self.layout)?
        } else {
            crate::algebra::left_inverse(&self.layout)?
        };
        if let Some(c) = self.conjugated(&inv)? {
            // an identity swizzle leaves the plain layout (C++ drops
            // `Swizzle<0,M,S>` too)
            let c = if c.swizzle.is_identity() {
                SwizzledInverse::Layout(c.layout)
            } else {
                SwizzledInverse::Swizzled(c)
            };
            if self.inverse_holds(&c, right)? {
                return Ok(c);
            }
        }
        let f2 = self.to_f2_layout().map_err(|e| {
            Error::new(
                e.kind(),
                format!(
                    "{name}({self}): the swizzle does not carry through the inverse of the \
                     layout and {}",
                    e.message()
                ),
            )
        })?;
        if right {
            return Ok(SwizzledInverse::Layout(crate::algebra::right_inverse(&f2)?));
        }
        match crate::algebra::left_inverse(&f2) {
            Ok(r) => Ok(SwizzledInverse::Layout(r)),
            Err(e) => {
                // a bijection's right inverse is its left inverse too
                if let Ok(r) = crate::algebra::right_inverse(&f2) {
                    let r = SwizzledInverse::Layout(r);
                    if self.inverse_holds(&r, false)? {
                        return Ok(r);
                    }
                }
                Err(e)
            }
        }
    }

    /// `Sw' o inv` with `Sw'`'s fields the images of `Sw`'s under `inv`
    /// (C++ `composition(Layout, Swizzle)`), when they form a swizzle.
    fn conjugated(&self, inv: &Layout) -> Result<Option<SwizzledLayout>> {
        let img = |m: i64| -> Result<Option<i64>> {
            match inv.eval_index(m) {
                Ok(Scalar::Int(v)) => Ok(Some(v)),
                _ => Ok(None),
            }
        };
        let (Some(y), Some(z)) = (
            img(self.swizzle.yyy_mask()?)?,
            img(self.swizzle.zzz_mask()?)?,
        ) else {
            return Ok(None);
        };
        let Some(sw) = Swizzle::from_masks(y, z) else {
            return Ok(None);
        };
        if !inv.has_integer_strides() {
            return Ok(None);
        }
        Ok(Some(SwizzledLayout::new(sw, inv.clone())?))
    }

    /// The inverse's post-condition, checked by evaluation.
    fn inverse_holds(&self, r: &SwizzledInverse, right: bool) -> Result<bool> {
        let eval_r = |i: i64| -> Option<i64> {
            match r {
                SwizzledInverse::Swizzled(s) => s.eval_index(i).ok(),
                SwizzledInverse::Layout(l) => match l.eval_index(i).ok()? {
                    Scalar::Int(v) | Scalar::F2(v) => Some(v),
                    _ => None,
                },
            }
        };
        let n = if right {
            match r {
                SwizzledInverse::Swizzled(s) => s.size()?,
                SwizzledInverse::Layout(l) => l.size()?,
            }
        } else {
            self.size()?
        };
        let Some(points) = Self::checked_points(n) else {
            return Ok(false);
        };
        for i in points {
            let ok = if right {
                eval_r(i).and_then(|j| self.eval_index(j).ok()) == Some(i)
            } else {
                self.eval_index(i).ok().and_then(eval_r) == Some(i)
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The inverse of a swizzled layout ([`SwizzledLayout::right_inverse`]):
/// a swizzled layout as C++ gives it, or an F2-stride layout with the same
/// values where C++'s answer is no swizzled layout.
#[derive(Clone, Debug, PartialEq)]
pub enum SwizzledInverse {
    /// `Sw' o inverse(L)`.
    Swizzled(SwizzledLayout),
    /// The inverse of the F2 form.
    Layout(Layout),
}

impl fmt::Display for SwizzledInverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwizzledInverse::Swizzled(s) => fmt::Display::fmt(s, f),
            SwizzledInverse::Layout(l) => fmt::Display::fmt(l, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Swizzle;
    use crate::ErrorKind;

    /// A swizzle whose fields were never validated (only code inside the
    /// crate can build one) still gives errors, not panics.
    #[test]
    fn unvalidated_fields() {
        // fields set directly (bypassing validation) still give errors, not panics
        let raw = Swizzle {
            bits: 1,
            base: 1000,
            shift: 1,
        };
        assert_eq!(raw.apply(5).unwrap(), 5);
        assert_eq!(raw.apply(-5).unwrap_err().kind(), ErrorKind::Overflow);
        let raw = Swizzle {
            bits: 3,
            base: 60,
            shift: 3,
        };
        assert!(raw.yyy_mask().is_err());
        // fields set directly, bypassing validation, give errors, not panics
        for (b, m, s) in [(-1, 0, 3), (2, -1, 3), (-5, -5, -5), (i64::MIN, 0, 0)] {
            let raw = Swizzle {
                bits: b,
                base: m,
                shift: s,
            };
            assert_eq!(raw.apply(7).unwrap_err().kind(), ErrorKind::Value);
            assert!(raw.yyy_mask().is_err());
            assert!(raw.to_f2_layout(8).is_err());
        }
        // overlapping fields set directly still evaluate by the formula
        let raw = Swizzle {
            bits: 3,
            base: 0,
            shift: 1,
        };
        assert_eq!(raw.apply(2).unwrap(), 3);
        assert_eq!(raw.apply(4).unwrap(), 6);
    }
}
