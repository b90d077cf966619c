//! `rcute draw`: draw a layout, swizzled layout, tensor or thread-value
//! layout to SVG, TikZ (`.tex`) or PNG (`docs/drawing.md`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use rcute::notation::Value;
use rcute::viz::{self, Color, DrawOptions, Label};
use rcute::{Error, Result};

use crate::show::{eval_expr, view_of};

/// Output format of `rcute draw` (by default taken from the file name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DrawFormat {
    /// SVG document (PyCuTe draw_svg)
    Svg,
    /// standalone TikZ/LaTeX document (PyCuTe draw_latex)
    Tex,
    /// PNG image rendered from the SVG
    Png,
}

/// Label style for rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LabelArg {
    /// flat (integral) index of the row / column, as the reference
    Index,
    /// natural (hierarchical) coordinate of the row / column within its mode
    Coord,
}

/// Arguments of `rcute draw`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  rcute draw '(4,8):(1,4)'                            # writes 4_8_1_4.svg
  rcute draw '(4,8):(1,4)' -o layout.svg
  rcute draw 'zipped_divide((8,8):(1,8), (2,2))' --label coord -o zd.png
  rcute draw 'composition(Swizzle(3,3,3), (8,64):(64,1))' --color bank:2 -o smem.png
  rcute draw '((2,2),(2,)):((1,4),(2,))' --tv '(4,2)' -o tv.tex
  rcute draw '(4,2):(1@0,1@1)' --tv -o tv.svg         # tile = coshape

Colours: index_grey_8x (layouts' default), bank_color_8x, bank_color_16x,
bank_color_32x, bank (= bank_color_32x), bank:BYTES (shared-memory bank of
BYTES-byte elements), thread_color_8x (TV default), value_color_8x,
warp_color_8x, white, rgb(r,g,b), #rrggbb.
EXPR may hold several statements on separate lines; the last value is drawn.

Without -o the file is named after EXPR: its letters, digits and `_`, other
characters as `_` (`(4,8):(1,4)` -> 4_8_1_4.svg, with --tv `tv_` first),
with the extension of --format (.svg by default). Such a file is never
overwritten unless --force is given; a file named with -o is. The path
written is printed (`Saved as PATH`).")]
pub struct DrawArgs {
    /// The layout, swizzled layout or tensor to draw (CuTe notation)
    #[arg(value_name = "EXPR")]
    pub expr: String,

    /// Output file: .svg, .tex or .png [default: named after EXPR, see below]
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Overwrite the file named after EXPR when it exists (without -o)
    #[arg(long)]
    pub force: bool,

    /// Output format (default: from the file extension)
    #[arg(long, value_enum)]
    pub format: Option<DrawFormat>,

    /// Draw a thread-value layout (tid, vid) -> (m, n) or -> offset into the
    /// tile TILE (a shape such as (8,8)); without TILE the tile is the
    /// layout's coshape
    #[arg(long, value_name = "TILE", num_args = 0..=1, default_missing_value = "")]
    pub tv: Option<String>,

    /// Colour function (see below)
    #[arg(long, value_name = "NAME")]
    pub color: Option<String>,

    /// Row and column labels
    #[arg(long, value_enum, default_value_t = LabelArg::Index)]
    pub label: LabelArg,

    /// Keep the reference's 20 px cells even when labels do not fit
    #[arg(long)]
    pub exact: bool,

    /// PNG scale (pixels per SVG unit; default 2, less for big drawings)
    #[arg(long, value_name = "S")]
    #[cfg_attr(not(feature = "png"), allow(dead_code))]
    pub scale: Option<f32>,

    /// Also compile a .tex output with pdflatex (optional; needs a LaTeX installation)
    #[arg(long)]
    pub pdf: bool,
}

/// The error of a PNG request to a binary built without the `png` feature.
#[cfg(not(feature = "png"))]
fn png_unavailable() -> Error {
    Error::value(
        "PNG output is not available: this rcute was built without the `png` feature \
         (rebuild with `cargo build --release -p rcute-cli --features png`, or draw to .svg or .tex)",
    )
}

fn format_of(args: &DrawArgs, path: &Path) -> Result<DrawFormat> {
    let format = format_from(args, path)?;
    #[cfg(not(feature = "png"))]
    if format == DrawFormat::Png {
        return Err(png_unavailable());
    }
    Ok(format)
}

fn format_from(args: &DrawArgs, path: &Path) -> Result<DrawFormat> {
    if let Some(f) = args.format {
        return Ok(f);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(DrawFormat::Svg),
        Some("tex") => Ok(DrawFormat::Tex),
        Some("png") => Ok(DrawFormat::Png),
        _ => Err(Error::value(format!(
            "cannot tell the format of {}: use a .svg, .tex or .png file name or --format",
            path.display()
        ))),
    }
}

/// The longest file stem [`default_output`] derives from an expression.
const MAX_STEM: usize = 80;

/// The output file of `rcute draw` without `-o`: EXPR's ASCII letters,
/// digits and `_`, each run of other characters as one `_` (none at either
/// end, at most [`MAX_STEM`] characters, `layout` if nothing is left), `tv_`
/// first with `--tv`, and the extension of `--format` (`.svg` by default).
pub fn default_output(expr: &str, tv: bool, format: Option<DrawFormat>) -> PathBuf {
    let mut stem = String::new();
    for c in expr.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            stem.push(c);
        } else if !stem.is_empty() && !stem.ends_with('_') {
            stem.push('_');
        }
    }
    stem.truncate(MAX_STEM);
    let stem = stem.trim_matches('_');
    let stem = if stem.is_empty() { "layout" } else { stem };
    let ext = match format.unwrap_or(DrawFormat::Svg) {
        DrawFormat::Svg => "svg",
        DrawFormat::Tex => "tex",
        DrawFormat::Png => "png",
    };
    let prefix = if tv { "tv_" } else { "" };
    PathBuf::from(format!("{prefix}{stem}.{ext}"))
}

/// The drawing's bytes and the path to write them to.
fn render(args: &DrawArgs, path: &Path) -> Result<(DrawFormat, Vec<u8>)> {
    let format = format_of(args, path)?;
    let opts = DrawOptions {
        color: args.color.as_deref().map(Color::from_name).transpose()?,
        label: match args.label {
            LabelArg::Index => Label::Index,
            LabelArg::Coord => Label::Coord,
        },
        fit: !args.exact,
    };
    let value = eval_expr(&args.expr)?;
    let bytes = match &args.tv {
        Some(tile_src) => {
            let Value::Layout(l) = &value else {
                return Err(Error::type_(format!(
                    "--tv draws a layout (tid, vid) -> (m, n) or offset, got the {} {value}",
                    value.kind_name()
                )));
            };
            let tile = if tile_src.trim().is_empty() {
                None
            } else {
                Some(eval_expr(tile_src)?.to_shape().map_err(|e| {
                    Error::new(
                        e.kind(),
                        format!("--tv {tile_src}: the tile must be a shape: {}", e.message()),
                    )
                })?)
            };
            match format {
                DrawFormat::Svg => viz::draw_svg_tv_with(l, tile.as_ref(), &opts)?.into_bytes(),
                DrawFormat::Tex => viz::draw_latex_tv_with(l, tile.as_ref(), &opts)?.into_bytes(),
                #[cfg(feature = "png")]
                DrawFormat::Png => viz::draw_png_tv(l, tile.as_ref(), &opts, args.scale)?,
                #[cfg(not(feature = "png"))]
                DrawFormat::Png => return Err(png_unavailable()),
            }
        }
        None => {
            let view = view_of(&value)?;
            match format {
                DrawFormat::Svg => viz::draw_svg_with(&view, &opts)?.into_bytes(),
                DrawFormat::Tex => viz::draw_latex_with(&view, &opts)?.into_bytes(),
                #[cfg(feature = "png")]
                DrawFormat::Png => viz::draw_png(&view, &opts, args.scale)?,
                #[cfg(not(feature = "png"))]
                DrawFormat::Png => return Err(png_unavailable()),
            }
        }
    };
    Ok((format, bytes))
}

/// Runs pdflatex on `tex` as `docs/drawing.md` describes,
/// printing its messages.
fn compile_pdf(tex: &Path) {
    let dir = tex
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let stem = tex.with_extension("");
    let child = Command::new("pdflatex")
        .args([
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-output-directory",
        ])
        .arg(dir)
        .arg(tex)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(_) => {
            println!(
                "  (pdflatex not found on PATH; wrote .tex only. Install a LaTeX distribution, \
                 or compile manually with `pdflatex {}`.)",
                tex.display()
            );
            return;
        }
    };
    let start = Instant::now();
    let ok = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.success(),
            Ok(None) if start.elapsed() < Duration::from_secs(120) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break false;
            }
        }
    };
    if ok {
        let _ = std::fs::remove_file(stem.with_extension("aux"));
        let _ = std::fs::remove_file(stem.with_extension("log"));
        println!("Saved as {}.pdf", stem.display());
    } else {
        println!(
            "  (pdflatex failed; wrote .tex only. See {}.log for details.)",
            stem.display()
        );
    }
}

/// Runs `rcute draw`; returns the exit status.
pub fn run(args: &DrawArgs) -> i32 {
    let (path, keep_existing) = match &args.output {
        Some(p) => (p.clone(), false),
        None => (
            default_output(&args.expr, args.tv.is_some(), args.format),
            !args.force,
        ),
    };
    let exists = |path: &Path| {
        eprintln!(
            "error: {} exists; rcute draw does not overwrite it without --force \
             (or name the output with -o FILE)",
            path.display()
        );
        1
    };
    if keep_existing && path.exists() {
        return exists(&path);
    }
    let (format, bytes) = match render(args, &path) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(h) = crate::hints::hint(&args.expr, &e) {
                eprintln!("hint: {h}");
            }
            return 1;
        }
    };
    let written = if keep_existing {
        // create_new: never replaces a file that appeared meanwhile
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, &bytes))
    } else {
        std::fs::write(&path, &bytes)
    };
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            return exists(&path);
        }
        eprintln!("error: cannot write {}: {e}", path.display());
        return 1;
    }
    println!("Saved as {}", path.display());
    if args.pdf && format == DrawFormat::Tex {
        compile_pdf(&path);
    }
    0
}
