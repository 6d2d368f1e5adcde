//! The shared library answers to the name programs built with `-cudart shared` ask
//! the loader for, and defines the symbol version nodes they ask for
//! (versions.map).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("versions.map");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());
    println!("cargo:rerun-if-changed=versions.map");
}
