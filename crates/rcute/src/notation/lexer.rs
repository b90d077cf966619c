//! Tokens of the notation (`docs/language.md`): integers (decimal, `0b`, `0o`,
//! `0x`, C++'s static `_N`), the printed F2 form `F9`, names, punctuation
//! and operators. `#` starts a comment that runs to the end of the line.

use crate::error::{Error, Result};

/// The longest statement accepted, in bytes.
pub const MAX_STATEMENT_LEN: usize = 1 << 16;

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An integer literal (magnitude up to `2^63`, so that `-2^63` can be
    /// written); the sign is a separate token.
    Int(i128),
    /// The printed F2 form `F<n>`.
    F2(i64),
    /// A name.
    Ident(String),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `{` (the printed implicit accessor `{b}`)
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `@`
    At,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `//`
    SlashSlash,
    /// `%`
    Percent,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `=`
    Assign,
    /// end of input
    Eof,
}

impl Tok {
    /// The token's text for error messages.
    ///
    /// ```
    /// assert_eq!(rcute::notation::lexer::Tok::Colon.describe(), "':'");
    /// ```
    pub fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("integer {v}"),
            Tok::F2(v) => format!("F2 value F{v}"),
            Tok::Ident(s) => format!("name '{s}'"),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::Lt => "'<'".into(),
            Tok::Gt => "'>'".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::Comma => "','".into(),
            Tok::Colon => "':'".into(),
            Tok::At => "'@'".into(),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Star => "'*'".into(),
            Tok::Slash => "'/'".into(),
            Tok::SlashSlash => "'//'".into(),
            Tok::Percent => "'%'".into(),
            Tok::EqEq => "'=='".into(),
            Tok::NotEq => "'!='".into(),
            Tok::Assign => "'='".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token with its 1-based column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// the kind
    pub tok: Tok,
    /// 1-based column of the first character
    pub col: usize,
}

/// A `parse` error at `col`.
pub(crate) fn parse_error(col: usize, msg: impl std::fmt::Display) -> Error {
    Error::parse(format!("column {col}: {msg}"))
}

/// Splits one statement into tokens (ending with `Eof`).
///
/// Errors: `parse` (with the column) for an unknown character or a
/// malformed number; `overflow` for an integer beyond 64 bits.
///
/// ```
/// use rcute::notation::lexer::{tokenize, Tok};
/// let t = tokenize("F9 + 0x10 # comment").unwrap();
/// assert_eq!(t[0].tok, Tok::F2(9));
/// assert_eq!(t[2].tok, Tok::Int(16));
/// assert_eq!(t[3].tok, Tok::Eof);
/// ```
pub fn tokenize(src: &str) -> Result<Vec<Token>> {
    if src.len() > MAX_STATEMENT_LEN {
        return Err(Error::parse(format!(
            "statement of {} bytes is longer than the limit of {MAX_STATEMENT_LEN}",
            src.len()
        )));
    }
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' {
            break;
        }
        if c.is_ascii_digit() {
            let (v, next) = lex_number(&chars, i)?;
            out.push(Token {
                tok: Tok::Int(v),
                col,
            });
            i = next;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let tok = classify_word(&word, &chars, i, col, &mut i)?;
            out.push(Token { tok, col });
            continue;
        }
        let next = chars.get(i + 1).copied();
        let (tok, len) = match (c, next) {
            ('/', Some('/')) => (Tok::SlashSlash, 2),
            ('=', Some('=')) => (Tok::EqEq, 2),
            ('!', Some('=')) => (Tok::NotEq, 2),
            ('(', _) => (Tok::LParen, 1),
            (')', _) => (Tok::RParen, 1),
            ('[', _) => (Tok::LBracket, 1),
            (']', _) => (Tok::RBracket, 1),
            ('<', _) => (Tok::Lt, 1),
            ('>', _) => (Tok::Gt, 1),
            ('{', _) => (Tok::LBrace, 1),
            ('}', _) => (Tok::RBrace, 1),
            (',', _) => (Tok::Comma, 1),
            (':', _) => (Tok::Colon, 1),
            ('@', _) => (Tok::At, 1),
            ('+', _) => (Tok::Plus, 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', _) => (Tok::Star, 1),
            ('/', _) => (Tok::Slash, 1),
            ('%', _) => (Tok::Percent, 1),
            ('=', _) => (Tok::Assign, 1),
            _ => return Err(parse_error(col, format!("unexpected character {c:?}"))),
        };
        out.push(Token { tok, col });
        i += len;
    }
    out.push(Token {
        tok: Tok::Eof,
        col: chars.len() + 1,
    });
    Ok(out)
}

/// Words that are numbers in disguise: `_8` (C++ static integer), `F9` and
/// `F-3` (printed F2 values). `F2` directly followed by `(` is the call.
fn classify_word(
    word: &str,
    chars: &[char],
    end: usize,
    col: usize,
    next: &mut usize,
) -> Result<Tok> {
    let next_non_space = chars[end..].iter().find(|c| !c.is_whitespace()).copied();
    if let Some(digits) = word.strip_prefix('_') {
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            return Ok(Tok::Int(parse_digits(digits, 10, col)?));
        }
    }
    if let Some(digits) = word.strip_prefix('F') {
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            if word == "F2" && next_non_space == Some('(') {
                return Ok(Tok::Ident(word.to_string()));
            }
            let v = parse_digits(digits, 10, col)?;
            return Ok(Tok::F2(to_i64(v, col)?));
        }
        if digits.is_empty()
            && chars.get(end) == Some(&'-')
            && chars.get(end + 1).is_some_and(|c| c.is_ascii_digit())
        {
            // printed negative F2 value `F-3`
            let mut j = end + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let s: String = chars[end + 1..j].iter().collect();
            let v = parse_digits(&s, 10, col)?;
            *next = j;
            return Ok(Tok::F2(to_i64(-v, col)?));
        }
    }
    if word.starts_with("SW_")
        && word.ends_with('_')
        && word.matches('_').count() == 3
        && chars.get(end) == Some(&'-')
        && chars.get(end + 1).is_some_and(|c| c.is_ascii_digit())
    {
        // the printed swizzle with a negative shift, `SW_2_4_-3`: one name
        let mut j = end + 1;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        let tail: String = chars[end..j].iter().collect();
        *next = j;
        return Ok(Tok::Ident(format!("{word}{tail}")));
    }
    Ok(Tok::Ident(word.to_string()))
}

/// The parameters of a printed swizzle name `SW_B_M_S` (`S` may be
/// negative), or `None` for any other name.
///
/// ```
/// use rcute::notation::lexer::printed_swizzle;
/// assert_eq!(printed_swizzle("SW_3_4_-3"), Some((3, 4, -3)));
/// assert_eq!(printed_swizzle("SW_3_4"), None);
/// ```
pub fn printed_swizzle(name: &str) -> Option<(i64, i64, i64)> {
    let rest = name.strip_prefix("SW_")?;
    let mut parts = rest.split('_');
    let mut num = |neg_ok: bool| -> Option<i64> {
        let p = parts.next()?;
        let digits = if neg_ok {
            p.strip_prefix('-').unwrap_or(p)
        } else {
            p
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        p.parse().ok()
    };
    let (b, m, s) = (num(false)?, num(false)?, num(true)?);
    parts.next().is_none().then_some((b, m, s))
}

fn to_i64(v: i128, col: usize) -> Result<i64> {
    i64::try_from(v)
        .map_err(|_| Error::overflow(format!("column {col}: integer {v} does not fit in 64 bits")))
}

fn parse_digits(s: &str, radix: u32, col: usize) -> Result<i128> {
    let mut v: i128 = 0;
    let limit: i128 = 1i128 << 63;
    for c in s.chars() {
        if c == '_' {
            continue;
        }
        let d = c
            .to_digit(radix)
            .ok_or_else(|| parse_error(col, format!("invalid digit {c:?} in {s:?}")))?;
        v = v * radix as i128 + d as i128;
        if v > limit {
            return Err(Error::overflow(format!(
                "column {col}: integer literal {s} does not fit in 64 bits"
            )));
        }
    }
    Ok(v)
}

fn lex_number(chars: &[char], start: usize) -> Result<(i128, usize)> {
    let col = start + 1;
    let mut i = start;
    let (radix, body_start) = if chars[i] == '0' {
        match chars.get(i + 1) {
            Some('b' | 'B') => (2, i + 2),
            Some('o' | 'O') => (8, i + 2),
            Some('x' | 'X') => (16, i + 2),
            _ => (10, i),
        }
    } else {
        (10, i)
    };
    i = body_start;
    while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    let body: String = chars[body_start..i].iter().collect();
    if body.is_empty() {
        return Err(parse_error(col, "missing digits after the radix prefix"));
    }
    Ok((parse_digits(&body, radix, col)?, i))
}
