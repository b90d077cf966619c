//! `rcute show`: print a layout, swizzled layout or tensor as a table
//! (`docs/drawing.md`).

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use clap::{Args, ValueEnum};
use rcute::notation::{Session, Value};
use rcute::viz::{self, View};
use rcute::{Error, ErrorKind, Result};

/// Table style of `rcute show`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `layout` for rank-2 layouts and identity tensors, otherwise `tensor`
    Auto,
    /// C++ print_layout: the bordered grid with row and column indices
    Layout,
    /// PyCuTe print_tensor: ranks 1 to 4, one row per line (columns widened
    /// to their widest value)
    Tensor,
    /// PyCuTe print_table: a grid table (rank 2)
    Table,
}

/// Arguments of `rcute show`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  rcute show '(4,8):(1,4)'
  rcute show --format tensor '(2,3,2):(1,2,6)'
  rcute show --format table 'composition(Swizzle(3,0,3), (8,8):(8,1))'
  rcute show 'identity_tensor((2,3))'
  rcute show 'make_tensor((2,3):(3,1))'

EXPR may hold several statements on separate lines (e.g. `A = ...` first);
the value of the last one is shown. In the tensor format each column is as
wide as its widest value (at least 5 characters, PyCuTe's field), so
coordinate values line up. In the layout format coordinate values (identity
tensors and layouts) print in full, `(1,0)`, under integer row and column
headers. A memory tensor (make_tensor) is headed by its
buffer's length and element type, `Array(6 x i64) o (2, 3):(3, 1)`.")]
pub struct ShowArgs {
    /// The layout, swizzled layout or tensor to show (CuTe notation)
    #[arg(value_name = "EXPR")]
    pub expr: String,

    /// Table style
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Omit the header line (the layout's text)
    #[arg(long)]
    pub no_type: bool,
}

/// Evaluates `src` (one statement per line, variables allowed) and returns
/// the value of the last statement. A library panic becomes an error.
pub fn eval_expr(src: &str) -> Result<Value> {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut session = Session::new();
        let mut last = None;
        for line in src.lines() {
            if let Some(v) = session.eval_line(line) {
                last = Some(v?);
            }
        }
        last.ok_or_else(|| Error::parse("column 1: empty statement"))
    }));
    r.unwrap_or_else(|_| {
        Err(Error::value(
            "internal error while evaluating the expression",
        ))
    })
}

/// The drawable view of a value: a layout, a swizzled layout or an
/// implicit-accessor tensor.
pub fn view_of(v: &Value) -> Result<View> {
    match v {
        Value::Layout(l) => Ok(View::layout(l)),
        Value::Swizzled(s) => Ok(View::swizzled(s)),
        Value::Tensor(t) => Ok(viz::AsView::as_view(t)),
        other => Err(Error::type_(format!(
            "expected a layout, a swizzled layout or a tensor, got the {} {other}",
            other.kind_name()
        ))),
    }
}

fn render(args: &ShowArgs) -> Result<String> {
    let v = eval_expr(&args.expr)?;
    let print_type = !args.no_type;
    if let Value::Array(t) = &v {
        // a memory tensor (make_tensor): its element values, as PyCuTe's
        // print_tensor prints them (tensor::print_tensor)
        if t.size()? > viz::MAX_CELLS {
            return Err(Error::value(format!(
                "show: {t} has more than {} elements",
                viz::MAX_CELLS
            )));
        }
        return match args.format {
            Format::Auto | Format::Tensor => rcute::tensor::print_tensor(t, print_type),
            _ => Err(Error::type_(format!(
                "show: the memory tensor {t} is shown in the tensor format only"
            ))),
        };
    }
    let view = view_of(&v)?;
    let with_header = |s: String| -> String {
        if print_type {
            s
        } else {
            // print_layout's first line is the layout's text
            s.split_once('\n')
                .map(|x| x.1.to_string())
                .unwrap_or_default()
        }
    };
    match args.format {
        Format::Layout => viz::print_layout_coords(&view).map(with_header),
        Format::Tensor => viz::print_tensor_aligned(&view, print_type),
        Format::Table => viz::print_table(&view, print_type),
        Format::Auto => match viz::print_layout_coords(&view) {
            Ok(s) => Ok(with_header(s)),
            Err(e)
                if matches!(e.kind(), ErrorKind::Value | ErrorKind::Type) && view.rank() != 2 =>
            {
                viz::print_tensor_aligned(&view, print_type)
            }
            Err(e) if e.kind() == ErrorKind::Type => viz::print_tensor_aligned(&view, print_type),
            Err(e) => Err(e),
        },
    }
}

/// Runs `rcute show`; returns the exit status.
pub fn run(args: &ShowArgs) -> i32 {
    match render(args) {
        Ok(s) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(s.as_bytes());
            let _ = out.flush();
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(h) = crate::hints::hint(&args.expr, &e) {
                eprintln!("hint: {h}");
            }
            1
        }
    }
}
