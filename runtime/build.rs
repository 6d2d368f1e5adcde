//! The shared library answers to the name programs built with `-cudart shared` ask
//! the loader for.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
}
