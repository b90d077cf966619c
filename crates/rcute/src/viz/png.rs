//! PNG output (rcute; feature `png`): the drawing that the SVG describes,
//! rendered in-process with tiny-skia. Labels are set with the glyph
//! outlines of an embedded DejaVu Sans subset (read with ttf-parser), so
//! the pixels do not depend on the fonts of the machine; each distinct
//! label is outlined once, which keeps a 128 x 256 layout fast.

use std::collections::HashMap;

use tiny_skia::{Color as SkColor, FillRule, Paint, Path, PathBuilder, Pixmap, Rect, Transform};

use super::svg::{layout_scene, tv_scene, Fill, Item, Scene};
use super::{AsView, DrawOptions};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::shape::Shape;

/// DejaVu Sans reduced to printable ASCII (see `fonts/LICENSE-DejaVu.txt`).
static FONT: &[u8] = include_bytes!("fonts/DejaVuSans-ascii.ttf");

/// The largest image rendered, in pixels (about 8k x 8k).
const MAX_PIXELS: f64 = 64.0 * 1024.0 * 1024.0;

/// The pixel budget [`png_scale_for`] aims at.
const TARGET_PIXELS: f64 = 24.0 * 1024.0 * 1024.0;

/// The default scale for a `width x height` px drawing: 2 (crisp text),
/// reduced for big drawings so that the image stays under about 24
/// megapixels (a 128 x 256 layout renders at 1.0).
///
/// Only with the crate feature `png`.
///
/// ```
/// assert_eq!(rcute::viz::png_scale_for(80, 60), 2.0);
/// assert!(rcute::viz::png_scale_for(20000, 20000) < 1.0);
/// ```
pub fn png_scale_for(width: u64, height: u64) -> f32 {
    let px = (width.max(1) as f64) * (height.max(1) as f64);
    let s = (TARGET_PIXELS / px).sqrt().min(2.0);
    if s >= 1.0 {
        // whole or half steps keep the 20 px grid on pixel boundaries
        ((s * 2.0).floor() / 2.0) as f32
    } else {
        s as f32
    }
}

/// Collects glyph outlines into a tiny-skia path: font units scaled by `k`,
/// y flipped, shifted right by the pen position.
struct Outline<'a> {
    pb: &'a mut PathBuilder,
    k: f32,
    pen: f32,
}

impl ttf_parser::OutlineBuilder for Outline<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        self.pb.move_to(self.pen + x * self.k, -y * self.k);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.pb.line_to(self.pen + x * self.k, -y * self.k);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.pb.quad_to(
            self.pen + x1 * self.k,
            -y1 * self.k,
            self.pen + x * self.k,
            -y * self.k,
        );
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.pb.cubic_to(
            self.pen + x1 * self.k,
            -y1 * self.k,
            self.pen + x2 * self.k,
            -y2 * self.k,
            self.pen + x * self.k,
            -y * self.k,
        );
    }
    fn close(&mut self) {
        self.pb.close();
    }
}

/// The outline of `s` at `size` px with its baseline at y = 0 and its left
/// end at x = 0, and its advance width.
fn outline(face: &ttf_parser::Face<'_>, s: &str, size: f32) -> (Option<Path>, f32) {
    let k = size / f32::from(face.units_per_em());
    let mut pb = PathBuilder::new();
    let mut pen = 0.0f32;
    for c in s.chars() {
        match face.glyph_index(c) {
            Some(g) => {
                let mut o = Outline {
                    pb: &mut pb,
                    k,
                    pen,
                };
                let _ = face.outline_glyph(g, &mut o);
                pen += f32::from(face.glyph_hor_advance(g).unwrap_or(0)) * k;
            }
            None => pen += 0.6 * size,
        }
    }
    (pb.finish(), pen)
}

fn paint(r: u8, g: u8, b: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(SkColor::from_rgba8(r, g, b, 255));
    p.anti_alias = true;
    p
}

/// Renders a drawing at `scale` on a white background.
fn render(scene: &Scene, scale: f32) -> Result<Vec<u8>> {
    if !(scale > 0.0 && scale <= 16.0) {
        return Err(Error::value(format!(
            "draw_png: scale {scale} is not in (0, 16]"
        )));
    }
    let w = (scene.width as f64 * f64::from(scale)).ceil();
    let h = (scene.height as f64 * f64::from(scale)).ceil();
    if w * h > MAX_PIXELS {
        return Err(Error::value(format!(
            "draw_png: a {w} x {h} px image is too large (limit {MAX_PIXELS} pixels); use a smaller scale"
        )));
    }
    let mut pm = Pixmap::new(w.max(1.0) as u32, h.max(1.0) as u32)
        .ok_or_else(|| Error::value(format!("draw_png: cannot allocate {w} x {h} px")))?;
    pm.fill(SkColor::WHITE);
    let face = ttf_parser::Face::parse(FONT, 0)
        .map_err(|e| Error::value(format!("draw_png: embedded font: {e}")))?;
    let black = paint(0, 0, 0);
    let s = scale;
    let mut glyphs: HashMap<(u32, &str), (Option<Path>, f32)> = HashMap::new();
    for it in &scene.items {
        match it {
            Item::Rect { fill, x, y, w } => {
                let (x, y, w, h) = (*x as f32, *y as f32, *w as f32, 20.0f32);
                let p = match fill {
                    Fill::Rgb(c) => paint(c.0, c.1, c.2),
                    Fill::White => paint(255, 255, 255),
                };
                if let Some(r) = Rect::from_xywh(x * s, y * s, w * s, h * s) {
                    pm.fill_rect(r, &p, Transform::identity(), None);
                }
                // the 1 px black stroke, centred on the edges
                for (ex, ey, ew, eh) in [
                    (x - 0.5, y - 0.5, w + 1.0, 1.0),
                    (x - 0.5, y + h - 0.5, w + 1.0, 1.0),
                    (x - 0.5, y + 0.5, 1.0, h - 1.0),
                    (x + w - 0.5, y + 0.5, 1.0, h - 1.0),
                ] {
                    if let Some(r) = Rect::from_xywh(ex * s, ey * s, ew * s, eh * s) {
                        pm.fill_rect(r, &black, Transform::identity(), None);
                    }
                }
            }
            Item::Text {
                size,
                x,
                y,
                rotate,
                s: text,
            } => {
                let (path, adv) = glyphs
                    .entry((*size, text.as_str()))
                    .or_insert_with(|| outline(&face, text, *size as f32));
                let Some(path) = path else { continue };
                // text-anchor middle, dy = 0.35em, optional rotate(-90 x y)
                let mut t = Transform::from_translate(-*adv / 2.0, 0.35 * *size as f32);
                if *rotate {
                    t = t.post_rotate(-90.0);
                }
                t = t.post_translate(*x as f32, *y as f32).post_scale(s, s);
                pm.fill_path(path, &black, FillRule::Winding, t, None);
            }
        }
    }
    pm.encode_png()
        .map_err(|e| Error::value(format!("draw_png: PNG encoding failed: {e}")))
}

/// The drawing of [`draw_svg_with`](super::draw_svg_with) rendered to PNG
/// at `scale` pixels per SVG unit (`None`: [`png_scale_for`] the drawing's
/// size), on a white background.
///
/// Only with the crate feature `png`.
///
/// Errors: those of [`draw_svg_with`](super::draw_svg_with); `value` for a
/// scale outside `(0, 16]` or an image over about 64 megapixels.
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_png, DrawOptions}};
/// let l = Layout::row_major(HTuple::flat([2, 3])).unwrap();
/// let png = draw_png(&l, &DrawOptions::default(), Some(1.0)).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn draw_png(x: &impl AsView, opts: &DrawOptions, scale: Option<f32>) -> Result<Vec<u8>> {
    let sc = layout_scene(x, opts)?;
    let s = scale.unwrap_or_else(|| png_scale_for(sc.width, sc.height));
    render(&sc, s)
}

/// The drawing of [`draw_svg_tv_with`](super::draw_svg_tv_with) rendered
/// to PNG at `scale` (`None`: [`png_scale_for`] the drawing's size).
///
/// Only with the crate feature `png`.
///
/// Errors: those of [`draw_svg_tv_with`](super::draw_svg_tv_with) and of
/// [`draw_png`].
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::{draw_png_tv, DrawOptions}};
/// let d = HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(1, &[1])]);
/// let l = Layout::new(HTuple::flat([4, 2]), d).unwrap();
/// let png = draw_png_tv(&l, None, &DrawOptions::default(), Some(1.0)).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn draw_png_tv(
    l: &Layout,
    tile_mn: Option<&Shape>,
    opts: &DrawOptions,
    scale: Option<f32>,
) -> Result<Vec<u8>> {
    let sc = tv_scene(l, tile_mn, opts)?;
    let s = scale.unwrap_or_else(|| png_scale_for(sc.width, sc.height));
    render(&sc, s)
}
