// Records in the binary what every golden header names: the rustc (std's
// select_nth_unstable_by order is rustc-version specific) and the rand crates
// cargo resolved from the registry (Cargo.lock, written before the build).
use std::process::Command;

fn locked(lock: &str, name: &str, prefix: &str) -> String {
    let mut cur = "";
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            cur = n.trim_matches('"');
        } else if let Some(v) = line.strip_prefix("version = ") {
            let v = v.trim_matches('"');
            if cur == name && v.starts_with(prefix) {
                return format!("{} {}", name, v);
            }
        }
    }
    panic!("Cargo.lock resolves no {} {}*", name, prefix);
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let v = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "rustc unknown".into());
    println!("cargo:rustc-env=GOLDEN_RUSTC_VERSION={}", v);
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    let lock = std::fs::read_to_string(format!("{}/Cargo.lock", dir)).expect("Cargo.lock");
    let crates = if std::env::var_os("CARGO_FEATURE_RAND010").is_some() {
        [locked(&lock, "rand", "0.10."), locked(&lock, "chacha20", ""), locked(&lock, "rand_core", "0.10.")]
    } else {
        [locked(&lock, "rand", "0.8."), locked(&lock, "rand_chacha", "0.3."), locked(&lock, "rand_core", "0.6.")]
    };
    println!("cargo:rustc-env=GOLDEN_RAND_VERSION={}", &crates[0]["rand ".len()..]);
    // GOLDEN_ORIGIN: the Debian package the registry took them from (set by build.sh's caller)
    let origin = std::env::var("GOLDEN_ORIGIN").unwrap_or_default();
    let mut s = crates.join(", ");
    if !origin.is_empty() {
        s = format!("{} ({})", s, origin);
    }
    println!("cargo:rustc-env=GOLDEN_CRATES={}", s);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=GOLDEN_ORIGIN");
}
