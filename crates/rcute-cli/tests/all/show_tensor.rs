//! `rcute show` of tensors (`docs/tensors.md`, `docs/drawing.md`):
//! identity tensors print their coordinates, memory tensors
//! (`make_tensor`) their element values.

use std::process::{Command, Output};

fn show(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rcute"))
        .arg("show")
        .args(args)
        .output()
        .expect("run rcute")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn identity_tensor_prints_coordinates() {
    // by default, rank 2: print_layout's grid with plain-integer row and
    // column headers and every coordinate in full
    let o = show(&["identity_tensor((2,3))"]);
    assert!(o.status.success());
    assert_eq!(
        out(&o),
        "{0} o (2, 3):(1@0, 1@1)\n\
         \x20         0       1       2 \n\
         \x20   +-------+-------+-------+\n\
         \x200  | (0,0) | (0,1) | (0,2) |\n\
         \x20   +-------+-------+-------+\n\
         \x201  | (1,0) | (1,1) | (1,2) |\n\
         \x20   +-------+-------+-------+\n"
    );
    // PyCuTe's print_tensor layout, columns widened to line up
    let o = show(&["--format", "tensor", "identity_tensor((4,8))"]);
    assert!(o.status.success());
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "{0} o (4, 8):(1@0, 1@1)");
    // each column as wide as its widest value: the columns line up
    assert_eq!(
        lines[1],
        "0     1@1    2@1    3@1    4@1    5@1    6@1    7@1    "
    );
    assert_eq!(
        lines[4],
        "3@0   (3, 1) (3, 2) (3, 3) (3, 4) (3, 5) (3, 6) (3, 7) "
    );
    assert_eq!(lines.len(), 5);
    for l in &lines[1..] {
        assert_eq!(l.len(), lines[1].len(), "{text}");
    }
}

#[test]
fn memory_tensor_prints_values() {
    let o = show(&["make_tensor((2,3):(3,1))"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = out(&o);
    let (header, body) = text.split_once('\n').unwrap();
    // the buffer's length and element type, no address
    assert_eq!(header, "Array(6 x i64) o (2, 3):(3, 1)");
    assert_eq!(body, "0     0     0     \n0     0     0     \n");
    // a slice of it, without the header
    let o = show(&["--no-type", "make_tensor((2,3,2))(None,1,None)"]);
    assert_eq!(out(&o), "0     0     \n0     0     \n");
    // only the tensor format applies
    let o = show(&["--format", "table", "make_tensor(4)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: type:"));
}
