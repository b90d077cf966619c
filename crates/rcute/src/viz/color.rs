//! Colour functions (`docs/drawing.md`) with their RGB tables.

use std::fmt;
use std::sync::Arc;

use crate::error::{Error, Result};

/// An `(r, g, b)` colour, each channel `0..=255`.
///
/// ```
/// use rcute::viz::Rgb;
/// assert_eq!(Rgb(255, 128, 0).to_string(), "rgb(255,128,0)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl fmt::Display for Rgb {
    /// The SVG form `rgb(r,g,b)` (no spaces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rgb({},{},{})", self.0, self.1, self.2)
    }
}

impl Rgb {
    /// The TikZ form `{rgb,255:red,r;green,g;blue,b}`.
    ///
    /// ```
    /// use rcute::viz::Rgb;
    /// assert_eq!(Rgb(1, 2, 3).tikz(), "{rgb,255:red,1;green,2;blue,3}");
    /// ```
    pub fn tikz(&self) -> String {
        format!(
            "{{rgb,255:red,{};green,{};blue,{}}}",
            self.0, self.1, self.2
        )
    }
}

/// GREY8: the monotonic grey ramp of `index_grey_8x` (index 0 is white).
pub const GREY8: [Rgb; 8] = [
    Rgb(255, 255, 255),
    Rgb(230, 230, 230),
    Rgb(205, 205, 205),
    Rgb(180, 180, 180),
    Rgb(155, 155, 155),
    Rgb(130, 130, 130),
    Rgb(105, 105, 105),
    Rgb(80, 80, 80),
];

/// TV8: the C++ `TikzColor_TV` pastels of the thread-value colourings.
pub const TV8: [Rgb; 8] = [
    Rgb(175, 175, 255),
    Rgb(175, 255, 175),
    Rgb(255, 255, 175),
    Rgb(255, 175, 175),
    Rgb(210, 210, 255),
    Rgb(210, 255, 210),
    Rgb(255, 255, 210),
    Rgb(255, 210, 210),
];

/// SPEC32: 32 light hues around the colour wheel (the bank colourings).
pub const SPEC32: [Rgb; 32] = [
    Rgb(255, 128, 128),
    Rgb(255, 151, 128),
    Rgb(255, 175, 128),
    Rgb(255, 199, 128),
    Rgb(255, 223, 128),
    Rgb(255, 247, 128),
    Rgb(239, 255, 128),
    Rgb(215, 255, 128),
    Rgb(191, 255, 128),
    Rgb(167, 255, 128),
    Rgb(143, 255, 128),
    Rgb(128, 255, 135),
    Rgb(128, 255, 159),
    Rgb(128, 255, 183),
    Rgb(128, 255, 207),
    Rgb(128, 255, 231),
    Rgb(128, 255, 255),
    Rgb(128, 231, 255),
    Rgb(128, 207, 255),
    Rgb(128, 183, 255),
    Rgb(128, 159, 255),
    Rgb(128, 135, 255),
    Rgb(143, 128, 255),
    Rgb(167, 128, 255),
    Rgb(191, 128, 255),
    Rgb(215, 128, 255),
    Rgb(239, 128, 255),
    Rgb(255, 128, 247),
    Rgb(255, 128, 223),
    Rgb(255, 128, 199),
    Rgb(255, 128, 175),
    Rgb(255, 128, 151),
];

/// `x mod n` for a positive table length (Python `%`).
fn table_index(x: i64, n: usize) -> usize {
    // n <= 32, so the cast and the remainder cannot overflow
    x.rem_euclid(n as i64) as usize
}

/// `index_grey_8x(idx)`: GREY8[`idx mod 8`] (default of `draw_svg`).
///
/// ```
/// use rcute::viz::{index_grey_8x, Rgb};
/// assert_eq!(index_grey_8x(9), Rgb(230, 230, 230));
/// assert_eq!(index_grey_8x(-1), Rgb(80, 80, 80));
/// ```
pub fn index_grey_8x(idx: i64) -> Rgb {
    GREY8[table_index(idx, 8)]
}

/// `bank_color_8x(idx)`: SPEC32 entry `4 * (idx mod 8)`.
///
/// ```
/// use rcute::viz::{bank_color_8x, Rgb};
/// assert_eq!(bank_color_8x(1), Rgb(255, 223, 128));
/// ```
pub fn bank_color_8x(idx: i64) -> Rgb {
    SPEC32[4 * table_index(idx, 8)]
}

/// `bank_color_16x(idx)`: SPEC32 entry `2 * (idx mod 16)`.
///
/// ```
/// use rcute::viz::{bank_color_16x, SPEC32};
/// assert_eq!(bank_color_16x(17), SPEC32[2]);
/// ```
pub fn bank_color_16x(idx: i64) -> Rgb {
    SPEC32[2 * table_index(idx, 16)]
}

/// `bank_color_32x(idx)`: SPEC32[`idx mod 32`].
///
/// ```
/// use rcute::viz::{bank_color_32x, Rgb};
/// assert_eq!(bank_color_32x(33), Rgb(255, 151, 128));
/// ```
pub fn bank_color_32x(idx: i64) -> Rgb {
    SPEC32[table_index(idx, 32)]
}

/// `thread_color_8x(tid, vid)`: TV8[`tid mod 8`] (default of the TV drawers).
///
/// ```
/// use rcute::viz::{thread_color_8x, Rgb};
/// assert_eq!(thread_color_8x(9, 3), Rgb(175, 255, 175));
/// ```
pub fn thread_color_8x(tid: i64, vid: i64) -> Rgb {
    let _ = vid;
    TV8[table_index(tid, 8)]
}

/// `value_color_8x(tid, vid)`: TV8[`vid mod 8`].
///
/// ```
/// use rcute::viz::{value_color_8x, TV8};
/// assert_eq!(value_color_8x(0, 2), TV8[2]);
/// ```
pub fn value_color_8x(tid: i64, vid: i64) -> Rgb {
    let _ = tid;
    TV8[table_index(vid, 8)]
}

/// `warp_color_8x(tid, vid)`: TV8[`(tid // 32) mod 8`].
///
/// ```
/// use rcute::viz::{warp_color_8x, TV8};
/// assert_eq!(warp_color_8x(40, 0), TV8[1]);
/// assert_eq!(warp_color_8x(-1, 0), TV8[7]);
/// ```
pub fn warp_color_8x(tid: i64, vid: i64) -> Rgb {
    let _ = vid;
    TV8[table_index(tid.div_euclid(32), 8)]
}

/// `white(...)`: always `(255, 255, 255)`.
///
/// ```
/// assert_eq!(rcute::viz::white(), rcute::viz::Rgb(255, 255, 255));
/// ```
pub fn white() -> Rgb {
    Rgb(255, 255, 255)
}

/// A user-supplied colour function: called with the cell key (`[idx]` for
/// layouts, `[tid, vid]` for TV layouts).
pub type CustomColor = Arc<dyn Fn(&[i64]) -> Result<Rgb> + Send + Sync>;

/// A colour function, by name (`docs/drawing.md`) or custom.
///
/// Offset colourings (`IndexGrey8x`, `BankColor*`, `Bank`) take a cell
/// value; thread-value colourings (`ThreadColor8x`, `ValueColor8x`,
/// `WarpColor8x`) take `(tid, vid)`; `White`, `Constant` and `Custom`
/// take either. Using an offset colouring in a TV drawing (or the
/// reverse) is a `type` error, as calling it with the wrong number of
/// arguments is in the reference.
///
/// ```
/// use rcute::viz::{Color, Rgb};
/// let c = Color::from_name("bank_color_32x").unwrap();
/// assert_eq!(c.of_offset(33).unwrap(), Rgb(255, 151, 128));
/// assert!(c.of_tv(0, 0).is_err());
/// assert_eq!(Color::Bank { elem_bytes: 2 }.of_offset(2).unwrap(), Rgb(255, 151, 128));
/// ```
#[derive(Clone)]
pub enum Color {
    /// `index_grey_8x`.
    IndexGrey8x,
    /// `bank_color_8x`.
    BankColor8x,
    /// `bank_color_16x`.
    BankColor16x,
    /// `bank_color_32x`.
    BankColor32x,
    /// rcute: the shared-memory bank of the offset for `elem_bytes`-byte
    /// elements, `floor(o * elem_bytes / 4) mod 32` (
    /// `docs/operations.md`), coloured with SPEC32; `elem_bytes = 4` is
    /// `bank_color_32x`.
    Bank {
        /// bytes per element (positive)
        elem_bytes: i64,
    },
    /// `thread_color_8x`.
    ThreadColor8x,
    /// `value_color_8x`.
    ValueColor8x,
    /// `warp_color_8x`.
    WarpColor8x,
    /// `white`.
    White,
    /// `constant(rgb)`.
    Constant(Rgb),
    /// A user function of the cell key.
    Custom(CustomColor),
}

impl fmt::Debug for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Color::Bank { elem_bytes } => write!(f, "Bank {{ elem_bytes: {elem_bytes} }}"),
            Color::Constant(c) => write!(f, "Constant({c})"),
            Color::Custom(_) => f.write_str("Custom(..)"),
            other => f.write_str(other.name()),
        }
    }
}

impl Color {
    /// The colour function of a name: the reference's function names
    /// (`index_grey_8x`, `bank_color_8x`, ..., `white`), `bank` (4-byte
    /// banks), `bank:N` (banks of `N`-byte elements), and a constant written
    /// `rgb(r,g,b)` or `#rrggbb`. Short forms `grey`, `thread`, `value`,
    /// `warp` are accepted too.
    ///
    /// Errors: `value` for an unknown name or a bad colour.
    ///
    /// ```
    /// use rcute::viz::{Color, Rgb};
    /// assert_eq!(Color::from_name("#ff8000").unwrap().of_offset(0).unwrap(), Rgb(255, 128, 0));
    /// assert_eq!(Color::from_name("rgb(1,2,3)").unwrap().of_tv(5, 6).unwrap(), Rgb(1, 2, 3));
    /// assert!(Color::from_name("purple").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Color> {
        let n = name.trim();
        let c = match n {
            "index_grey_8x" | "grey" | "gray" => Color::IndexGrey8x,
            "bank_color_8x" | "bank8" => Color::BankColor8x,
            "bank_color_16x" | "bank16" => Color::BankColor16x,
            "bank_color_32x" | "bank32" | "bank" => Color::BankColor32x,
            "thread_color_8x" | "thread" => Color::ThreadColor8x,
            "value_color_8x" | "value" => Color::ValueColor8x,
            "warp_color_8x" | "warp" => Color::WarpColor8x,
            "white" => Color::White,
            _ => {
                if let Some(e) = n.strip_prefix("bank:") {
                    let elem_bytes: i64 = e.trim().parse().map_err(|_| {
                        Error::value(format!("bank colouring '{n}': bad element size"))
                    })?;
                    if elem_bytes <= 0 {
                        return Err(Error::value(format!(
                            "bank colouring '{n}': the element size must be positive"
                        )));
                    }
                    Color::Bank { elem_bytes }
                } else if let Some(rgb) = parse_rgb(n) {
                    Color::Constant(rgb)
                } else {
                    return Err(Error::value(format!(
                        "unknown colour '{n}' (expected one of index_grey_8x, bank_color_8x, \
                         bank_color_16x, bank_color_32x, bank, bank:BYTES, thread_color_8x, \
                         value_color_8x, warp_color_8x, white, rgb(r,g,b), #rrggbb)"
                    )));
                }
            }
        };
        Ok(c)
    }

    /// The reference's name of the function (`constant`, `bank`, `custom`
    /// for the rcute ones).
    pub fn name(&self) -> &'static str {
        match self {
            Color::IndexGrey8x => "index_grey_8x",
            Color::BankColor8x => "bank_color_8x",
            Color::BankColor16x => "bank_color_16x",
            Color::BankColor32x => "bank_color_32x",
            Color::Bank { .. } => "bank",
            Color::ThreadColor8x => "thread_color_8x",
            Color::ValueColor8x => "value_color_8x",
            Color::WarpColor8x => "warp_color_8x",
            Color::White => "white",
            Color::Constant(_) => "constant",
            Color::Custom(_) => "custom",
        }
    }

    /// True for the colourings keyed by `(tid, vid)`.
    pub fn is_tv(&self) -> bool {
        matches!(
            self,
            Color::ThreadColor8x | Color::ValueColor8x | Color::WarpColor8x
        )
    }

    /// The colour of a cell value (offset colourings, `white`, `constant`,
    /// custom). Errors: `type` for a thread-value colouring; `overflow` in
    /// the bank computation; a custom function's error.
    pub fn of_offset(&self, idx: i64) -> Result<Rgb> {
        match self {
            Color::IndexGrey8x => Ok(index_grey_8x(idx)),
            Color::BankColor8x => Ok(bank_color_8x(idx)),
            Color::BankColor16x => Ok(bank_color_16x(idx)),
            Color::BankColor32x => Ok(bank_color_32x(idx)),
            Color::Bank { elem_bytes } => {
                let byte = crate::int::mul(idx, *elem_bytes)?;
                let word = crate::int::floor_div(byte, 4)?;
                Ok(bank_color_32x(word))
            }
            Color::White => Ok(white()),
            Color::Constant(c) => Ok(*c),
            Color::Custom(f) => f(&[idx]),
            tv => Err(Error::type_(format!(
                "{}(tid, vid) colours thread-value layouts; it cannot colour the offset {idx}",
                tv.name()
            ))),
        }
    }

    /// The colour of a `(tid, vid)` pair (thread-value colourings, `white`,
    /// `constant`, custom). Errors: `type` for an offset colouring.
    pub fn of_tv(&self, tid: i64, vid: i64) -> Result<Rgb> {
        match self {
            Color::ThreadColor8x => Ok(thread_color_8x(tid, vid)),
            Color::ValueColor8x => Ok(value_color_8x(tid, vid)),
            Color::WarpColor8x => Ok(warp_color_8x(tid, vid)),
            Color::White => Ok(white()),
            Color::Constant(c) => Ok(*c),
            Color::Custom(f) => f(&[tid, vid]),
            off => Err(Error::type_(format!(
                "{}(idx) colours offsets; it cannot colour the thread-value pair ({tid}, {vid})",
                off.name()
            ))),
        }
    }
}

/// `rgb(r,g,b)` or `#rrggbb`.
fn parse_rgb(s: &str) -> Option<Rgb> {
    if let Some(hex) = s.strip_prefix('#') {
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let p = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        return Some(Rgb(p(0)?, p(2)?, p(4)?));
    }
    let inner = s.strip_prefix("rgb(")?.strip_suffix(')')?;
    let v: Vec<u8> = inner
        .split(',')
        .map(|x| x.trim().parse::<u8>().ok())
        .collect::<Option<_>>()?;
    match v.as_slice() {
        [r, g, b] => Some(Rgb(*r, *g, *b)),
        _ => None,
    }
}
