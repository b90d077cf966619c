//! PNG output (rcute; feature `png`): the SVG drawings rendered in-process
//! with resvg / tiny-skia, text set in an embedded DejaVu Sans subset so
//! that the pixels do not depend on the fonts of the machine.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg;

use super::{draw_svg_tv_with, draw_svg_with, AsView, DrawOptions};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::shape::Shape;

/// DejaVu Sans reduced to printable ASCII (see `fonts/LICENSE-DejaVu.txt`).
static FONT: &[u8] = include_bytes!("fonts/DejaVuSans-ascii.ttf");

/// The largest image rendered, in pixels (about 8k x 8k).
const MAX_PIXELS: f64 = 64.0 * 1024.0 * 1024.0;

/// The pixel budget [`png_scale_for`] aims at.
const TARGET_PIXELS: f64 = 24.0 * 1024.0 * 1024.0;

fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        Arc::new(db)
    })
    .clone()
}

/// The default scale for a `width x height` px drawing: 2 (crisp text),
/// reduced for big drawings so that the image stays under about 24
/// megapixels (a 128 x 256 layout renders at 1.0).
///
/// ```
/// assert_eq!(rcute::viz::png_scale_for(80, 60), 2.0);
/// assert!(rcute::viz::png_scale_for(20000, 20000) < 1.0);
/// ```
pub fn png_scale_for(width: u32, height: u32) -> f32 {
    let px = f64::from(width.max(1)) * f64::from(height.max(1));
    let s = (TARGET_PIXELS / px).sqrt().min(2.0);
    if s >= 1.0 {
        // whole or half steps keep the 20 px grid on pixel boundaries
        ((s * 2.0).floor() / 2.0) as f32
    } else {
        s as f32
    }
}

/// Renders an SVG document to PNG bytes at `scale` (1.0 = one pixel per SVG
/// unit) on a white background.
///
/// Errors: `value` for a scale outside `(0, 16]`, an SVG that cannot be
/// parsed, or an image larger than about 64 megapixels.
///
/// ```
/// let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"2\"><rect width=\"2\" height=\"2\" fill=\"rgb(255,0,0)\"/></svg>";
/// let png = rcute::viz::svg_to_png(svg, 1.0).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    if !(scale > 0.0 && scale <= 16.0) {
        return Err(Error::value(format!(
            "svg_to_png: scale {scale} is not in (0, 16]"
        )));
    }
    let opts = usvg::Options {
        font_family: "DejaVu Sans".to_owned(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opts)
        .map_err(|e| Error::value(format!("svg_to_png: cannot parse the SVG: {e}")))?;
    let size = tree.size();
    let w = (f64::from(size.width()) * f64::from(scale)).ceil();
    let h = (f64::from(size.height()) * f64::from(scale)).ceil();
    if w * h > MAX_PIXELS {
        return Err(Error::value(format!(
            "svg_to_png: a {w} x {h} px image is too large (limit {MAX_PIXELS} pixels); use a smaller scale"
        )));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w.max(1.0) as u32, h.max(1.0) as u32)
        .ok_or_else(|| Error::value(format!("svg_to_png: cannot allocate {w} x {h} px")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| Error::value(format!("svg_to_png: PNG encoding failed: {e}")))
}

/// The size in px of an SVG document produced by this module (its `width`
/// and `height` attributes).
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        let key = format!(" {name}=\"");
        svg.find(&key)
            .and_then(|i| {
                let rest = svg.get(i + key.len()..)?;
                let end = rest.find('"')?;
                rest.get(..end)?.parse().ok()
            })
            .unwrap_or(1)
    };
    (attr("width"), attr("height"))
}

/// [`draw_svg_with`] rendered to PNG at `scale` (`None`:
/// [`png_scale_for`] the drawing's size).
///
/// Errors: those of [`draw_svg_with`] and [`svg_to_png`].
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_png, DrawOptions}};
/// let l = Layout::row_major(HTuple::flat([2, 3])).unwrap();
/// let png = draw_png(&l, &DrawOptions::default(), Some(1.0)).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn draw_png(x: &impl AsView, opts: &DrawOptions, scale: Option<f32>) -> Result<Vec<u8>> {
    let svg = draw_svg_with(x, opts)?;
    let s = scale.unwrap_or_else(|| {
        let (w, h) = svg_size(&svg);
        png_scale_for(w, h)
    });
    svg_to_png(&svg, s)
}

/// [`draw_svg_tv_with`] rendered to PNG at `scale` (`None`:
/// [`png_scale_for`] the drawing's size).
///
/// Errors: those of [`draw_svg_tv_with`] and [`svg_to_png`].
pub fn draw_png_tv(
    l: &Layout,
    tile_mn: Option<&Shape>,
    opts: &DrawOptions,
    scale: Option<f32>,
) -> Result<Vec<u8>> {
    let svg = draw_svg_tv_with(l, tile_mn, opts)?;
    let s = scale.unwrap_or_else(|| {
        let (w, h) = svg_size(&svg);
        png_scale_for(w, h)
    });
    svg_to_png(&svg, s)
}
