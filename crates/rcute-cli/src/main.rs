//! `rcute`: the command-line shell over the rcute library.
fn main() {
    println!("rcute: not implemented yet");
}
