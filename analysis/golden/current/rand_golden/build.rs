// Records the compiler version in the binary: select_nth_unstable_by's order is
// rustc-version specific, so every golden file names the rustc that made it.
use std::process::Command;
fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let v = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "rustc unknown".into());
    println!("cargo:rustc-env=GOLDEN_RUSTC_VERSION={}", v);
    println!("cargo:rerun-if-changed=build.rs");
}
