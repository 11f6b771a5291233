//! rand_golden: golden outputs of the real Rust rand for samplab, one source for
//! every release it follows, built with `--features rand08` (rand 0.8: 0.8.5 on
//! Debian 12, 0.8.8 on sid) or `--features rand010` (rand 0.10.3 on sid); see
//! build.sh. The API differences sit in `mod compat`: rand 0.9 renamed
//! `rand::distributions` to `rand::distr` and moved WeightedIndex to
//! `rand::distr::weighted`; rand_core 0.10 replaced `RngCore` by `TryRng` +
//! `Rng`, and rand 0.10 takes ChaCha from the chacha20 crate. Every header names
//! the crates cargo resolved (build.rs) and the rustc.
//!
//! Modes (one golden file each, written to stdout):
//!   raw     StdRng::seed_from_u64 keys and words (next_u32, next_u64, mixes,
//!           word positions), ChaCha12Rng::from_seed + set_stream + set_word_pos,
//!           one ChaCha20 block at the RFC 7539 position.
//!   wi      WeightedIndex<f32>: stored sums, total, Uniform scale, draws and
//!           words consumed, or the error / panic, over fixed and generated vectors.
//!   wi64    WeightedIndex<f64> the same way (one next_u64 a draw), fixed vectors
//!           and generated ones of V = 2 to 151,936.
//!   select  the order std's select_nth_unstable_by leaves (this rustc), as
//!           candle's sample_topk calls it.
//!   candle  candle 0.11's LogitsProcessor (generation/mod.rs) re-expressed,
//!           driven by the real StdRng, WeightedIndex and select_nth_unstable_by.
//!   fuzz    random seeds, weight vectors and logits pipelines, inline.
//!   generate  whole generations: candle 0.11's loop (LogitsProcessor across
//!           steps, apply_repeat_penalty over the last repeat_last_n tokens as
//!           candle-examples do) over deterministic logits rows, tokens and words.
//!   bench   time per WeightedIndex::sample (Zipf V = 49152 and V = 8) and per next_u32.
//!   sub     WeightedIndex<f32> over weights with a subnormal total (and
//!           mixtures): the Uniform scale, draws and words, many seeds.
//!   exact FILE  counts of WeightedIndex<f32>::sample over all 2^23 uniforms
//!           (fixed vectors, and FILE's logits through candle's softmax).
//!   probs LIST SEED N / logits LIST SEED N T K P SIMD: ad-hoc runs on any
//!           input, for analysis/candle_crosscheck.sh.
//!
//! candle itself is not packaged in Debian, so its LogitsProcessor is
//! re-expressed here from candle 0.11.0's source and candle is not run (sample_argmax, sample_multinomial, sample_topp, sample_topk,
//! sample_topk_topp, the temperature as affine(1/T, 0), candle-nn's CPU
//! softmax_last_dim with a sequential or AVX 4x8-lane sum). candle >= 0.8.4
//! uses rand 0.9, whose draws equal 0.8.5's for normal totals (README.candle.md).
//!
//! Generated vectors use splitmix64 so the C tests rebuild them bit for bit.

#[cfg(all(feature = "rand010", feature = "rand08"))]
compile_error!("build with exactly one of --features rand010 / rand08");
#[cfg(not(any(feature = "rand010", feature = "rand08")))]
compile_error!("build with --features rand08 or --features rand010 (build.sh)");

#[cfg(feature = "rand010")]
#[macro_use]
mod compat {
    pub use rand010::distr::weighted::WeightedIndex;
    pub use rand010::distr::Distribution;
    pub use rand010::rngs::{ChaCha12Rng, ChaCha20Rng, StdRng};
    pub use rand010::{Rng as RngCore, SeedableRng};
    /// An infallible generator in rand_core 0.10: TryRng with Error = Infallible,
    /// Rng (next_u32, ...) from the blanket impl.
    macro_rules! word_source {
        ($t:ty, |$s:ident| $u32:expr, |$s2:ident| $u64:expr, |$s3:ident, $d:ident| $fill:expr) => {
            impl rand010::TryRng for $t {
                type Error = core::convert::Infallible;
                fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                    let $s = self;
                    Ok($u32)
                }
                fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                    let $s2 = self;
                    Ok($u64)
                }
                fn try_fill_bytes(&mut self, $d: &mut [u8]) -> Result<(), Self::Error> {
                    let $s3 = self;
                    $fill;
                    Ok(())
                }
            }
        };
    }
}
#[cfg(feature = "rand08")]
#[macro_use]
mod compat {
    pub use rand08::distributions::{Distribution, WeightedIndex};
    pub use rand08::rngs::StdRng;
    pub use rand08::{RngCore, SeedableRng};
    pub use rand_chacha03::{ChaCha12Rng, ChaCha20Rng};
    /// A generator in rand_core 0.6: RngCore, with try_fill_bytes never failing.
    macro_rules! word_source {
        ($t:ty, |$s:ident| $u32:expr, |$s2:ident| $u64:expr, |$s3:ident, $d:ident| $fill:expr) => {
            impl rand08::RngCore for $t {
                fn next_u32(&mut self) -> u32 {
                    let $s = self;
                    $u32
                }
                fn next_u64(&mut self) -> u64 {
                    let $s2 = self;
                    $u64
                }
                fn fill_bytes(&mut self, $d: &mut [u8]) {
                    let $s3 = self;
                    $fill
                }
                fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), rand08::Error> {
                    self.fill_bytes(d);
                    Ok(())
                }
            }
        };
    }
}
/// The crates cargo resolved, e.g. "rand 0.8.5, rand_chacha 0.3.1, rand_core 0.6.3 (Debian librust-rand-dev)".
const VERSIONS: &str = env!("GOLDEN_CRATES");
/// The rand release alone, e.g. "0.10.3".
const RAND_VERSION: &str = env!("GOLDEN_RAND_VERSION");
use compat::*;
use std::fmt::Write as _;
use std::panic;

const RUSTC: &str = env!("GOLDEN_RUSTC_VERSION");

fn header(what: &str) {
    println!(
        "# rand_golden {}: {}, {}",
        what, VERSIONS, RUSTC
    );
}

// ------------------------------------------------------------------ utilities

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }
    /// Uniform f32 in [0,1) from the top 24 bits: exact in both languages.
    fn unit(&mut self) -> f32 {
        ((self.next() >> 40) as u32) as f32 * (1.0f32 / 16777216.0f32)
    }
}

fn fnv(words: impl IntoIterator<Item = u32>) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

fn hexf(v: &[f32]) -> String {
    let mut s = String::new();
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        write!(s, "{:08x}", x.to_bits()).unwrap();
    }
    s
}

fn quiet_panics() {
    panic::set_hook(Box::new(|_| {}));
}

fn panic_msg(e: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

// ------------------------------------------------------------------ generated vectors

/// Generated weight vectors, rebuilt by the C tests from the same formulas.
fn gen_vector(name: &str) -> Option<Vec<f32>> {
    let v = 49152usize;
    match name {
        "zipf49152" => Some((0..v).map(|i| (1.0f64 / (i as f64 + 1.0)) as f32).collect()),
        "zipf49152perm" => {
            let z: Vec<f32> = (0..v).map(|i| (1.0f64 / (i as f64 + 1.0)) as f32).collect();
            Some((0..v).map(|i| z[(i * 40507) % v]).collect())
        }
        "ones49152" => Some(vec![1.0f32; v]),
        _ => None,
    }
}

/// LLM-like logits: splitmix64(seed) uniform in [-10, 10) plus a few peaks.
fn gen_logits(seed: u64, n: usize) -> Vec<f32> {
    let mut g = SplitMix(seed);
    (0..n)
        .map(|_| {
            let u = g.unit();
            let mut x = u * 20.0f32 - 10.0f32;
            if g.next() % 1000 == 0 {
                x = x + 12.0f32;
            }
            x
        })
        .collect()
}

// ------------------------------------------------------------------ candle emulation

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn avx_sum(row: &[f32]) -> f32 {
    // candle-core cpu/mod.rs vec_sum with cpu/avx.rs (STEP 32, EPR 8, ARR 4).
    use std::arch::x86_64::*;
    let k = row.len();
    let np = k & !31usize;
    let p = row.as_ptr();
    let mut sum = [_mm256_setzero_ps(); 4];
    let mut i = 0;
    while i < np {
        for j in 0..4 {
            let x = _mm256_loadu_ps(p.add(i + j * 8));
            sum[j] = _mm256_add_ps(sum[j], x);
        }
        i += 32;
    }
    sum[0] = _mm256_add_ps(sum[0], sum[1]);
    sum[2] = _mm256_add_ps(sum[2], sum[3]);
    sum[0] = _mm256_add_ps(sum[0], sum[2]);
    let t0 = _mm_add_ps(_mm256_castps256_ps128(sum[0]), _mm256_extractf128_ps(sum[0], 1));
    let t1 = _mm_hadd_ps(t0, t0);
    let mut b = _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
    for &x in &row[np..] {
        b += x;
    }
    b
}

/// The same order in scalar code, for machines without AVX (bitwise equal).
fn lanes_sum(row: &[f32]) -> f32 {
    let k = row.len();
    let np = k & !31usize;
    let mut s = [[0f32; 8]; 4];
    let mut i = 0;
    while i < np {
        for j in 0..4 {
            for l in 0..8 {
                s[j][l] += row[i + j * 8 + l];
            }
        }
        i += 32;
    }
    let mut x = [0f32; 8];
    for l in 0..8 {
        x[l] = (s[0][l] + s[1][l]) + (s[2][l] + s[3][l]);
    }
    let t0 = [x[0] + x[4], x[1] + x[5], x[2] + x[6], x[3] + x[7]];
    let mut b = (t0[0] + t0[1]) + (t0[2] + t0[3]);
    for &v in &row[np..] {
        b += v;
    }
    b
}

fn simd_sum(row: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx") {
            let a = unsafe { avx_sum(row) };
            let b = lanes_sum(row);
            assert_eq!(a.to_bits(), b.to_bits(), "AVX and lane emulation disagree");
            return a;
        }
    }
    lanes_sum(row)
}

/// candle: `(&logits / t)` = affine(1/t, 0) in f32, then softmax_last_dim on CPU.
fn candle_probs(logits: &[f32], t: f64, simd: bool) -> Vec<f32> {
    let mul = (1.0f64 / t) as f32;
    let add = 0.0f64 as f32;
    let x: Vec<f32> = logits.iter().map(|&v| v * mul + add).collect();
    let mut max = x[0];
    for &v in &x[1..] {
        max = max.max(v);
    }
    let mut d: Vec<f32> = x.iter().map(|&s| (s - max).exp()).collect();
    let sum = if simd {
        simd_sum(&d)
    } else {
        let mut s = 0f32;
        for &v in &d {
            s += v;
        }
        s
    };
    for v in d.iter_mut() {
        *v /= sum;
    }
    d
}

#[derive(Clone, Debug)]
enum Sampling {
    ArgMax,
    All { t: f64 },
    TopK { k: usize, t: f64 },
    TopP { p: f64, t: f64 },
    TopKThenTopP { k: usize, p: f64, t: f64 },
}

fn sampling_str(s: &Sampling) -> String {
    match s {
        Sampling::ArgMax => "argmax".into(),
        Sampling::All { t } => format!("all T={:e}", t),
        Sampling::TopK { k, t } => format!("topk K={} T={:e}", k, t),
        Sampling::TopP { p, t } => format!("topp P={:e} T={:e}", p, t),
        Sampling::TopKThenTopP { k, p, t } => format!("topkp K={} P={:e} T={:e}", k, p, t),
    }
}

/// The weights the final WeightedIndex sees and the map back to token ids.
struct Final {
    weights: Vec<f32>,
    map: Option<Vec<usize>>,
}

/// StdRng with a tally of 32-bit words drawn (StdRng has no get_word_pos).
struct Counting {
    inner: StdRng,
    words: u64,
}
word_source!(
    Counting,
    |s| {
        s.words += 1;
        s.inner.next_u32()
    },
    |s| {
        s.words += 2;
        s.inner.next_u64()
    },
    |s, dest| {
        s.words += ((dest.len() + 3) / 4) as u64;
        s.inner.fill_bytes(dest)
    }
);

struct Lp {
    rng: Counting,
    sampling: Sampling,
    simd: bool,
    last: Option<Final>,
}

fn desc(prs: &[f32]) -> impl Fn(&usize, &usize) -> std::cmp::Ordering + '_ {
    move |&i, &j| prs[j].total_cmp(&prs[i])
}

impl Lp {
    fn new(seed: u64, sampling: Sampling, simd: bool) -> Self {
        Lp { rng: Counting { inner: StdRng::seed_from_u64(seed), words: 0 }, sampling, simd, last: None }
    }

    fn multinomial(&mut self, prs: &[f32], map: Option<Vec<usize>>) -> Result<usize, String> {
        self.last = Some(Final { weights: prs.to_vec(), map });
        let d = WeightedIndex::new(prs).map_err(|e| format!("{:?}", e))?;
        Ok(d.sample(&mut self.rng))
    }

    fn topp_zero(prs: &mut [f32], top_p: f32) {
        let mut idx: Vec<usize> = (0..prs.len()).collect();
        idx.sort_by(desc(prs));
        let mut cumsum = 0f32;
        for &i in &idx {
            if cumsum >= top_p {
                prs[i] = 0.0;
            } else {
                cumsum += prs[i];
            }
        }
    }

    fn topp(&mut self, prs: &mut Vec<f32>, top_p: f32, map: Option<Vec<usize>>) -> Result<usize, String> {
        Self::topp_zero(prs, top_p);
        self.multinomial(prs, map)
    }

    fn topk(&mut self, prs: &mut Vec<f32>, k: usize) -> Result<usize, String> {
        if k >= prs.len() {
            self.multinomial(prs, None)
        } else {
            let mut idx: Vec<usize> = (0..prs.len()).collect();
            let (ind, _, _) = idx.select_nth_unstable_by(k, desc(prs));
            let ind = ind.to_vec();
            let sub: Vec<f32> = ind.iter().map(|&i| prs[i]).collect();
            let r = self.multinomial(&sub, Some(ind.clone()))?;
            Ok(ind[r])
        }
    }

    fn topk_topp(&mut self, prs: &mut Vec<f32>, k: usize, top_p: f32) -> Result<usize, String> {
        if k >= prs.len() {
            self.topp(prs, top_p, None)
        } else {
            let mut idx: Vec<usize> = (0..prs.len()).collect();
            let (ind, _, _) = idx.select_nth_unstable_by(k, desc(prs));
            let ind = ind.to_vec();
            let mut sub: Vec<f32> = ind.iter().map(|&i| prs[i]).collect();
            let sum_p = sub.iter().sum::<f32>();
            let r = if top_p <= 0.0 || top_p >= sum_p {
                self.multinomial(&sub, Some(ind.clone()))?
            } else {
                self.topp(&mut sub, top_p, Some(ind.clone()))?
            };
            Ok(ind[r])
        }
    }

    fn sample(&mut self, logits: &[f32]) -> Result<usize, String> {
        self.last = None;
        let simd = self.simd;
        match self.sampling.clone() {
            Sampling::ArgMax => {
                // candle 0.11: Tensor::argmax, CPU ReduceIndex keeps the first maximum (acc < x).
                let mut acc = 0usize;
                let mut val = logits[0];
                for (i, &x) in logits.iter().enumerate() {
                    if val < x {
                        acc = i;
                        val = x;
                    }
                }
                Ok(acc)
            }
            Sampling::All { t } => {
                let prs = candle_probs(logits, t, simd);
                self.multinomial(&prs, None)
            }
            Sampling::TopP { p, t } => {
                let mut prs = candle_probs(logits, t, simd);
                if p <= 0.0 || p >= 1.0 {
                    self.multinomial(&prs, None)
                } else {
                    self.topp(&mut prs, p as f32, None)
                }
            }
            Sampling::TopK { k, t } => {
                let mut prs = candle_probs(logits, t, simd);
                self.topk(&mut prs, k)
            }
            Sampling::TopKThenTopP { k, p, t } => {
                let mut prs = candle_probs(logits, t, simd);
                self.topk_topp(&mut prs, k, p as f32)
            }
        }
    }
}

// ------------------------------------------------------------------ raw

fn raw() {
    header("raw");
    println!("# stdrng SEED key: the 8 key words (seed_from_u64 = PCG32 expansion)");
    println!("# u32 SEED N: next_u32 x N; u64 SEED N: next_u64 x N; mix SEED N: op i is u64 when (i*7+3)%5<2, else u32; pos = get_word_pos after");
    let seeds: [u64; 10] = [
        0,
        1,
        42,
        299792458,
        0xdeadbeef,
        1 << 63,
        u64::MAX,
        12345678901234567890,
        7,
        0x0123456789abcdef,
    ];
    for &s in &seeds {
        let r = ChaCha12Rng::seed_from_u64(s);
        let key = r.get_seed();
        let mut line = format!("stdrng {} key", s);
        for c in key.chunks(4) {
            write!(line, " {:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])).unwrap();
        }
        println!("{}", line);
        // StdRng and ChaCha12Rng give the same stream.
        let mut a = StdRng::seed_from_u64(s);
        let mut b = ChaCha12Rng::seed_from_u64(s);
        for _ in 0..300 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
        let mut r = StdRng::seed_from_u64(s);
        let mut line = format!("u32 {} 200", s);
        for _ in 0..200 {
            write!(line, " {:08x}", r.next_u32()).unwrap();
        }
        println!("{}", line);
        let mut r = StdRng::seed_from_u64(s);
        let mut line = format!("u64 {} 100", s);
        for _ in 0..100 {
            write!(line, " {:016x}", r.next_u64()).unwrap();
        }
        println!("{}", line);
        let mut r = ChaCha12Rng::seed_from_u64(s);
        let mut line = format!("mix {} 150", s);
        for i in 0..150u64 {
            if (i * 7 + 3) % 5 < 2 {
                write!(line, " {:016x}", r.next_u64()).unwrap();
            } else {
                write!(line, " {:08x}", r.next_u32()).unwrap();
            }
        }
        write!(line, " pos {}", r.get_word_pos()).unwrap();
        println!("{}", line);
        // u64 straddling the 64-word buffer end after 63 and after 64 u32 words.
        for skip in [63u32, 64, 127, 1] {
            let mut r = ChaCha12Rng::seed_from_u64(s);
            for _ in 0..skip {
                r.next_u32();
            }
            let x = r.next_u64();
            let y = r.next_u32();
            println!("straddle {} {} {:016x} {:08x} pos {}", s, skip, x, y, r.get_word_pos());
        }
    }
    println!("# chacha KEYLO KEYHI STREAM POS N: ChaCha12Rng::from_seed(key bytes = KEYLO, KEYHI little-endian, then 16 zero bytes), set_stream(STREAM), set_word_pos(POS), next_u32 x N");
    let cases: [(u64, u64, u64, u128); 8] = [
        (0, 0, 0, 0),
        (42, 0, 0, 0),
        (42, 0, 1, 0),
        (0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0),
        (1, 2, 3, 17),
        (1, 2, 3, 1 << 40),
        (99, 0, 0, (1u128 << 68) - 5),
        (5, 6, 7, 63),
    ];
    for &(lo, hi, st, pos) in &cases {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&lo.to_le_bytes());
        key[8..16].copy_from_slice(&hi.to_le_bytes());
        let mut r = ChaCha12Rng::from_seed(key);
        r.set_stream(st);
        r.set_word_pos(pos);
        let mut line = format!("chacha {} {} {} {} 40", lo, hi, st, pos);
        for _ in 0..40 {
            write!(line, " {:08x}", r.next_u32()).unwrap();
        }
        println!("{}", line);
    }
    // RFC 7539 2.3.2: key 00..1f, nonce 00000009 0000004a 00000000, counter 1.
    // rand_chacha's 64-bit counter + 64-bit stream lay out the same 4 words.
    let mut key = [0u8; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = i as u8;
    }
    let mut r = ChaCha20Rng::from_seed(key);
    r.set_stream(0x4a000000);
    r.set_word_pos(16 * 0x0900000000000001u128);
    let mut line = String::from("chacha20_rfc7539 16");
    for _ in 0..16 {
        write!(line, " {:08x}", r.next_u32()).unwrap();
    }
    println!("{}", line);
}

// ------------------------------------------------------------------ weighted index

/// Parses the crate's Debug output for the stored running sums and the scale.
/// The stored sums, total and Uniform scale of a WeightedIndex<T>, read from its Debug form.
fn wi_internals<T: std::str::FromStr>(s: &str) -> (Vec<T>, T, T)
where
    T::Err: std::fmt::Debug,
{
    let grab = |key: &str| -> String {
        let i = s.find(key).expect(key) + key.len();
        let rest = &s[i..];
        let end = rest.find(|c: char| c == ',' || c == ' ' || c == '}').unwrap();
        rest[..end].to_string()
    };
    let ci = s.find("cumulative_weights: [").unwrap() + "cumulative_weights: [".len();
    let ce = s[ci..].find(']').unwrap();
    let cum: Vec<T> = s[ci..ci + ce]
        .split(", ")
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    let total: T = grab("total_weight: ").parse().unwrap();
    let scale: T = grab("scale: ").parse().unwrap();
    (cum, total, scale)
}

/// The 32-bit words of a weight's bits (an f64: low word first), as the hashes read them.
fn words_f32(x: &f32) -> Vec<u32> {
    vec![x.to_bits()]
}
fn words_f64(x: &f64) -> Vec<u32> {
    let b = x.to_bits();
    vec![b as u32, (b >> 32) as u32]
}
fn hex_f32(x: &f32) -> String {
    format!("{:08x}", x.to_bits())
}
fn hex_f64(x: &f64) -> String {
    format!("{:016x}", x.to_bits())
}

/// One weight vector through WeightedIndex<T>::new (its table, or its error or panic),
/// then n draws from StdRng::seed_from_u64 for each seed, with the words they spent.
/// A macro: WeightedIndex's bounds on T differ between rand 0.8 and 0.9+.
macro_rules! wi_case_fn {
    ($fname:ident, $t:ty, $words:expr, $hex:expr) => {
        fn $fname(name: &str, w: &[$t], inline: bool, seeds: &[u64], n: usize) {
            if inline {
                let hx: Vec<String> = w.iter().map($hex).collect();
                println!("vec {} {} {}", name, w.len(), hx.join(" "));
            } else {
                println!("gen {} {} {:016x}", name, w.len(), fnv(w.iter().flat_map($words)));
            }
            let res = panic::catch_unwind(|| WeightedIndex::new(w));
            let d = match res {
                Err(e) => {
                    println!("panic {} {}", name, panic_msg(e));
                    return;
                }
                Ok(Err(e)) => {
                    println!("err {} {:?}", name, e);
                    return;
                }
                Ok(Ok(d)) => d,
            };
            let (cum, total, scale) = wi_internals::<$t>(&format!("{:?}", d));
            println!(
                "table {} {} {:016x} {} {}",
                name,
                cum.len(),
                fnv(cum.iter().flat_map($words)),
                $hex(&total),
                $hex(&scale)
            );
            for &s in seeds {
                let mut r = ChaCha12Rng::seed_from_u64(s);
                let mut line = format!("draw {} {} {}", name, s, n);
                for _ in 0..n {
                    write!(line, " {}", d.sample(&mut r)).unwrap();
                }
                let pos = r.get_word_pos();
                write!(line, " words {} next {:08x}", pos, r.next_u32()).unwrap();
                println!("{}", line);
            }
        }
    };
}
wi_case_fn!(wi_case, f32, words_f32, hex_f32);
wi_case_fn!(wi64_case, f64, words_f64, hex_f64);

fn wi() {
    header("wi");
    println!("# vec NAME V hex-f32...; gen NAME V fnv1a64(bits); table NAME n-1 fnv1a64(cumulative bits) total scale;");
    println!("# draw NAME SEED N tokens... words W next NEXT_U32; err NAME KIND; panic NAME MESSAGE");
    let seeds = [0u64, 42, 299792458, 1 << 63, u64::MAX];
    let t = f32::from_bits;
    let mut cases: Vec<(&str, Vec<f32>)> = vec![
        ("logits3221_raw", vec![3.0, 2.0, 2.0, 1.0]),
        ("logits3221_softmax_T1", candle_probs(&[3.0, 2.0, 2.0, 1.0], 1.0, false)),
        ("logits3221_softmax_T07", candle_probs(&[3.0, 2.0, 2.0, 1.0], 0.7, false)),
        ("ties4", vec![0.25; 4]),
        ("ties_ones7", vec![1.0; 7]),
        ("zeros_start", vec![0.0, 0.0, 1.0, 2.0]),
        ("zeros_end", vec![1.0, 2.0, 0.0, 0.0]),
        ("zeros_both", vec![0.0, 0.0, 1.0, 2.0, 0.0, 0.0]),
        ("zeros_middle", vec![1.0, 0.0, 0.0, 1.0]),
        ("only_last", vec![0.0, 0.0, 0.0, 5.0]),
        ("only_first", vec![5.0, 0.0, 0.0, 0.0]),
        ("negzero_first", vec![-0.0, 1.0]),
        ("negzero_mid", vec![1.0, -0.0, 2.0]),
        ("one", vec![7.5]),
        ("one_tiny", vec![t(1)]),
        ("sub_3min", vec![t(1), t(1), t(1)]),
        ("sub_min_0_2min", vec![t(1), 0.0, t(2)]),
        ("sub_1e-40", vec![1e-40, 2e-40]),
        ("sub_then_normal", vec![t(1), 1.0]),
        ("absorbed_mid", vec![1.0, 1e-8, 1.0]),
        ("absorbed_end", vec![1.0, t(0x33000000)]),
        ("absorbed_big", vec![1e8, 1.0, 1.0]),
        ("near_overflow", vec![1e38, 1e38, 1e38]),
        ("max_one", vec![f32::MAX]),
        ("skewed", vec![1e-30, 1.0, 1e-30, 1e30, 1e-30]),
        ("odd_weights", vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]),
        // errors and panics
        ("err_empty", vec![]),
        ("err_zero", vec![0.0]),
        ("err_zeros", vec![0.0, 0.0, 0.0]),
        ("err_negzero", vec![-0.0]),
        ("err_negzeros", vec![-0.0, 0.0, -0.0]),
        ("err_neg_first", vec![-1.0, 1.0]),
        ("err_neg_later", vec![1.0, -1e-30]),
        ("err_nan_first", vec![f32::NAN, 1.0]),
        ("err_nan_later", vec![1.0, f32::NAN]),
        ("err_neginf", vec![1.0, f32::NEG_INFINITY]),
        ("panic_inf_first", vec![f32::INFINITY]),
        ("panic_inf_later", vec![1.0, f32::INFINITY]),
        ("panic_overflow", vec![2e38, 2e38]),
        ("panic_max2", vec![f32::MAX, f32::MAX]),
        ("err_nan_after_inf", vec![f32::INFINITY, f32::NAN]),
    ];
    // candle-style softmax outputs at V = 49152, sequential and AVX-order sums.
    let lg = gen_logits(2024, 49152);
    let soft: Vec<(String, Vec<f32>)> = vec![
        ("softmax49152_T1_seq".into(), candle_probs(&lg, 1.0, false)),
        ("softmax49152_T1_simd".into(), candle_probs(&lg, 1.0, true)),
        ("softmax49152_T08_seq".into(), candle_probs(&lg, 0.8, false)),
        ("softmax49152_T13_simd".into(), candle_probs(&lg, 1.3, true)),
    ];
    for (name, w) in cases.drain(..) {
        wi_case(name, &w, true, &seeds, 200);
    }
    for name in ["zipf49152", "zipf49152perm", "ones49152"] {
        let w = gen_vector(name).unwrap();
        wi_case(name, &w, false, &seeds, 1000);
    }
    for (name, w) in &soft {
        wi_case(name, w, false, &seeds, 1000);
    }
}

// ------------------------------------------------------------------ WeightedIndex<f64>

/// Generated f64 weights, rebuilt by the C tests: zipf (1/(i+1)), ones, and
/// splitmix64 units ((x >> 11) * 2^-53) and their fourth powers (exact in both languages).
fn gen_vector64(name: &str, v: usize) -> Vec<f64> {
    let unit = |g: &mut SplitMix| (g.next() >> 11) as f64 * (1.0f64 / 9007199254740992.0f64);
    if name.starts_with("zipf") {
        (0..v).map(|i| 1.0f64 / (i as f64 + 1.0)).collect()
    } else if name.starts_with("ones") {
        vec![1.0f64; v]
    } else if name.starts_with("units4_") {
        let mut g = SplitMix(v as u64);
        (0..v).map(|_| { let u = unit(&mut g); u * u * u * u }).collect()
    } else {
        let mut g = SplitMix(v as u64);
        (0..v).map(|_| unit(&mut g)).collect()
    }
}

fn wi64() {
    header("wi64");
    println!("# WeightedIndex<f64> with StdRng::seed_from_u64 (ChaCha12Rng): each draw is one next_u64 (two u32 words)");
    println!("# vec NAME V hex-f64...; gen NAME V fnv1a64(bit words, low first); table NAME n-1 fnv1a64(cumulative) total scale;");
    println!("# draw NAME SEED N tokens... words W next NEXT_U32; err NAME KIND; panic NAME MESSAGE");
    let seeds = [0u64, 42, 299792458, 1 << 63, u64::MAX];
    let t = f64::from_bits;
    let cases: Vec<(&str, Vec<f64>)> = vec![
        ("raw3221", vec![3.0, 2.0, 2.0, 1.0]),
        ("probs_weather", vec![0.5154, 0.2559, 0.1716, 0.0313, 0.0141, 0.0070, 0.0035, 0.0012]),
        ("ties4", vec![0.25; 4]),
        ("ties_ones7", vec![1.0; 7]),
        ("thirds", vec![1.0 / 3.0; 3]),
        ("two", vec![0.5, 0.5]),
        ("two_skew", vec![1.0 - 1e-12, 1e-12]),
        ("zeros_start", vec![0.0, 0.0, 1.0, 2.0]),
        ("zeros_end", vec![1.0, 2.0, 0.0, 0.0]),
        ("zeros_both", vec![0.0, 0.0, 1.0, 2.0, 0.0, 0.0]),
        ("zeros_middle", vec![1.0, 0.0, 0.0, 1.0]),
        ("only_last", vec![0.0, 0.0, 0.0, 5.0]),
        ("only_first", vec![5.0, 0.0, 0.0, 0.0]),
        ("negzero_first", vec![-0.0, 1.0]),
        ("negzero_mid", vec![1.0, -0.0, 2.0]),
        ("one", vec![7.5]),
        ("one_tiny", vec![t(1)]),
        ("sub_3min", vec![t(1), t(1), t(1)]),
        ("sub_min_0_2min", vec![t(1), 0.0, t(2)]),
        ("sub_1e-310", vec![1e-310, 2e-310]),
        ("sub_then_normal", vec![t(1), 1.0]),
        ("min_normal", vec![f64::MIN_POSITIVE, 0.0]),
        ("absorbed_mid", vec![1.0, 1e-17, 1.0]),
        ("absorbed_end", vec![1.0, t(0x3c90000000000000)]),
        ("absorbed_big", vec![1e17, 1.0, 1.0]),
        ("f32_exact_tenths", vec![0.1f32 as f64; 10]),
        ("tenths", vec![0.1; 10]),
        ("near_overflow", vec![1e308, 5e307, 1e307]),
        ("max_one", vec![f64::MAX]),
        ("skewed", vec![1e-300, 1.0, 1e-300, 1e300, 1e-300]),
        ("odd_weights", vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]),
        // errors and panics
        ("err_empty", vec![]),
        ("err_zero", vec![0.0]),
        ("err_zeros", vec![0.0, 0.0, 0.0]),
        ("err_negzero", vec![-0.0]),
        ("err_negzeros", vec![-0.0, 0.0, -0.0]),
        ("err_neg_first", vec![-1.0, 1.0]),
        ("err_neg_later", vec![1.0, -1e-300]),
        ("err_nan_first", vec![f64::NAN, 1.0]),
        ("err_nan_later", vec![1.0, f64::NAN]),
        ("err_neginf", vec![1.0, f64::NEG_INFINITY]),
        ("panic_inf_first", vec![f64::INFINITY]),
        ("panic_inf_later", vec![1.0, f64::INFINITY]),
        ("panic_overflow", vec![1e308, 1e308]),
        ("panic_max2", vec![f64::MAX, f64::MAX]),
        ("err_nan_after_inf", vec![f64::INFINITY, f64::NAN]),
    ];
    for (name, w) in &cases {
        wi64_case(name, w, true, &seeds, 200);
    }
    for v in [2usize, 8, 1000, 49152, 151936] {
        for kind in ["zipf", "ones", "units", "units4_"] {
            let name = format!("{}{}", kind, v);
            wi64_case(&name, &gen_vector64(&name, v), v <= 8, &seeds, if v > 1000 { 1000 } else { 200 });
        }
    }
}

// ------------------------------------------------------------------ select_nth_unstable_by

fn select() {
    header("select");
    println!("# sel V K Q GSEED fnv1a64(all V indices after select_nth_unstable_by(K, desc total_cmp)) [first indices...]");
    println!("# probs[i] = (splitmix64(GSEED) >> 40) % Q as f32 / Q as f32 (Q = 0: top-24-bit unit float)");
    let sizes = [2usize, 3, 4, 5, 8, 15, 16, 17, 18, 20, 31, 33, 50, 63, 64, 65, 100, 127, 128, 200, 500, 1000, 1025, 4096, 49152, 140000];
    let mut gs = 1u64;
    for &v in &sizes {
        let mut ks: Vec<usize> = vec![0, 1, v / 2, v.saturating_sub(2), v - 1];
        for extra in [2usize, 3, 10, 16, 17, 40, 50, 64, 100, 1000] {
            if extra < v {
                ks.push(extra);
            }
        }
        ks.sort();
        ks.dedup();
        for &q in &[0u64, 2, 5, 1000] {
            for &k in &ks {
                gs += 1;
                let mut g = SplitMix(gs);
                let prs: Vec<f32> = (0..v)
                    .map(|_| {
                        let x = g.next() >> 40;
                        if q == 0 {
                            (x as u32) as f32 * (1.0f32 / 16777216.0f32)
                        } else {
                            (x % q) as f32 / q as f32
                        }
                    })
                    .collect();
                let mut idx: Vec<usize> = (0..v).collect();
                idx.select_nth_unstable_by(k, desc(&prs));
                let mut line = format!(
                    "sel {} {} {} {} {:016x}",
                    v,
                    k,
                    q,
                    gs,
                    fnv(idx.iter().map(|&i| i as u32))
                );
                if v <= 200 {
                    for &i in &idx {
                        write!(line, " {}", i).unwrap();
                    }
                }
                println!("{}", line);
            }
        }
    }
    // Patterned inputs, large and small: these reach the partition on an
    // equal ancestor pivot and the median-of-medians fallback after 16 rounds.
    println!("# selp V K PATTERN fnv1a64(order): probs[i] = asc i/V, desc (V-i)/V, organ min(i, V-i)/V (i < V/2: i), saw (i mod 1000)/1000, rand = unit floats of splitmix64(7)");
    for &v in &[17usize, 100, 1000, 100_000, 1_000_000] {
        for pat in ["asc", "desc", "organ", "saw", "rand"] {
            let mut g = SplitMix(7);
            let prs: Vec<f32> = (0..v)
                .map(|i| match pat {
                    "asc" => i as f32 / v as f32,
                    "desc" => (v - i) as f32 / v as f32,
                    "organ" => (if i < v / 2 { i } else { v - i }) as f32 / v as f32,
                    "saw" => (i % 1000) as f32 / 1000.0f32,
                    _ => g.unit(),
                })
                .collect();
            for k in [1usize, 40, 1000, v / 2, v - 2] {
                if k >= v {
                    continue;
                }
                let mut idx: Vec<usize> = (0..v).collect();
                idx.select_nth_unstable_by(k, desc(&prs));
                println!("selp {} {} {} {:016x}", v, k, pat, fnv(idx.iter().map(|&i| i as u32)));
            }
        }
    }
}

// ------------------------------------------------------------------ candle LogitsProcessor

/// One LogitsProcessor sample, or rand's error / panic as a status ("err KIND", "panic MSG").
fn lp_sample(lp: &mut Lp, logits: &[f32]) -> Result<usize, String> {
    match panic::catch_unwind(panic::AssertUnwindSafe(|| lp.sample(logits))) {
        Ok(Ok(tok)) => Ok(tok),
        Ok(Err(e)) => Err(format!("err {}", e)),
        Err(e) => Err(format!("panic {}", panic_msg(e))),
    }
}

fn lp_run(name: &str, logits: &[f32], inline: bool, s: Sampling, simd: bool, seed: u64, n: usize) {
    if inline {
        println!("logits {} {} {}", name, logits.len(), hexf(logits));
    }
    let mut lp = Lp::new(seed, s.clone(), simd);
    let mut line = format!("lp {} {} simd={} seed {} n {} :", name, sampling_str(&s), simd as u8, seed, n);
    let mut first: Option<Final> = None;
    let mut status = String::from("ok");
    for step in 0..n {
        let r = lp_sample(&mut lp, logits);
        if step == 0 {
            first = lp.last.take();
        }
        match r {
            Ok(tok) => write!(line, " {}", tok).unwrap(),
            Err(st) => {
                status = st;
                break;
            }
        }
    }
    write!(line, " | words {} {}", lp.rng.words, status).unwrap();
    println!("{}", line);
    // The distribution the first draw was made over: weights in draw order and the index map.
    if let Some(f) = first {
        let m = f.weights.len();
        let idx: Vec<u32> = match &f.map {
            Some(map) => map.iter().map(|&i| i as u32).collect(),
            None => (0..m as u32).collect(),
        };
        let h = fnv(idx.iter().zip(f.weights.iter()).flat_map(|(&i, w)| [i, w.to_bits()]));
        let mut l2 = format!("final {} {} {:016x}", name, m, h);
        if m <= 64 {
            for (i, w) in idx.iter().zip(f.weights.iter()) {
                write!(l2, " {}:{:08x}", i, w.to_bits()).unwrap();
            }
        }
        println!("{}", l2);
    }
}

fn candle() {
    header("candle LogitsProcessor (candle 0.11 generation/mod.rs emulated)");
    println!("# logits NAME V hex-f32...; genlogits NAME V GSEED (gen_logits: splitmix64 in [-10,10) + rare peaks of +12)");
    println!("# lp NAME SAMPLING simd=0|1 seed S n N : tokens | words W ok|err KIND|panic MSG");
    println!("# final NAME m fnv1a64(index,bits pairs) [index:bits ...]: the first draw's WeightedIndex input in draw order");
    let t4 = [3.0f32, 2.0, 2.0, 1.0];
    println!("logits t3221 4 {}", hexf(&t4));
    for seed in [0u64, 42, 299792458] {
        lp_run("t3221", &t4, false, Sampling::TopK { k: 2, t: 1.0 }, false, seed, 10000);
    }
    let specs: Vec<Sampling> = vec![
        Sampling::ArgMax,
        Sampling::All { t: 1.0 },
        Sampling::All { t: 0.7 },
        Sampling::All { t: 1e-7 },
        Sampling::TopK { k: 1, t: 1.0 },
        Sampling::TopK { k: 3, t: 0.7 },
        Sampling::TopK { k: 4, t: 1.0 },
        Sampling::TopK { k: 0, t: 1.0 },
        Sampling::TopP { p: 0.9, t: 1.0 },
        Sampling::TopP { p: 0.5, t: 0.7 },
        Sampling::TopP { p: 1.0, t: 1.0 },
        Sampling::TopP { p: 0.0, t: 1.0 },
        Sampling::TopKThenTopP { k: 2, p: 0.5, t: 1.0 },
        Sampling::TopKThenTopP { k: 3, p: 0.9, t: 1.0 },
        Sampling::TopKThenTopP { k: 3, p: 0.99, t: 1.0 },
        Sampling::TopKThenTopP { k: 9, p: 0.5, t: 1.0 },
        Sampling::TopKThenTopP { k: 9, p: 0.0, t: 1.0 },
        Sampling::TopKThenTopP { k: 2, p: 0.0, t: 1.0 },
    ];
    let small = [3.0f32, 2.0, 2.0, 1.0, 2.0];
    println!("logits t32212 5 {}", hexf(&small));
    for s in &specs {
        lp_run("t32212", &small, false, s.clone(), false, 42, 500);
    }
    let edge: Vec<(&str, Vec<f32>)> = vec![
        ("nan_logit", vec![1.0, f32::NAN, 0.5]),
        ("inf_logit", vec![1.0, f32::INFINITY, 0.5]),
        ("neginf_logits", vec![0.0, f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY]),
        ("all_neginf", vec![f32::NEG_INFINITY; 3]),
        ("ties_max", vec![1.0, 5.0, 5.0, 5.0, 0.0]),
        ("nan_first", vec![f32::NAN, 1.0, 2.0]),
        ("single", vec![0.3]),
    ];
    for (name, l) in &edge {
        println!("logits {} {} {}", name, l.len(), hexf(l));
        for s in [
            Sampling::ArgMax,
            Sampling::All { t: 1.0 },
            Sampling::TopP { p: 0.9, t: 1.0 },
            Sampling::TopK { k: 2, t: 1.0 },
            Sampling::TopKThenTopP { k: 2, p: 0.5, t: 1.0 },
        ] {
            lp_run(name, l, false, s, false, 7, 20);
        }
    }
    // Vocabulary-sized: V = 49152 (k = 40 etc. depend on std's select order).
    let lg = gen_logits(77, 49152);
    println!("genlogits big49152 49152 77 {:016x}", fnv(lg.iter().map(|x| x.to_bits())));
    let big_specs: Vec<(Sampling, bool)> = vec![
        (Sampling::ArgMax, false),
        (Sampling::All { t: 1.0 }, false),
        (Sampling::All { t: 1.0 }, true),
        (Sampling::All { t: 0.8 }, true),
        (Sampling::TopP { p: 0.9, t: 0.7 }, false),
        (Sampling::TopP { p: 0.5, t: 1.0 }, true),
        (Sampling::TopK { k: 40, t: 0.7 }, false),
        (Sampling::TopK { k: 50, t: 1.0 }, true),
        (Sampling::TopK { k: 1000, t: 1.0 }, false),
        (Sampling::TopKThenTopP { k: 40, p: 0.9, t: 0.7 }, false),
        (Sampling::TopKThenTopP { k: 40, p: 0.05, t: 0.7 }, false),
    ];
    for (s, simd) in big_specs {
        for seed in [0u64, 42] {
            lp_run("big49152", &lg, false, s.clone(), simd, seed, 200);
        }
    }
    // Mid-sized vocabularies: select_nth_unstable's quickselect path (V > 16).
    for (v, gseed) in [(17usize, 5u64), (64, 6), (100, 8), (1000, 9), (5000, 10)] {
        let name = format!("mid{}", v);
        let lg = gen_logits(gseed, v);
        println!("genlogits {} {} {} {:016x}", name, v, gseed, fnv(lg.iter().map(|x| x.to_bits())));
        for s in [
            Sampling::TopK { k: 5, t: 1.0 },
            Sampling::TopK { k: v / 2, t: 1.5 },
            Sampling::TopKThenTopP { k: 10, p: 0.3, t: 2.0 },
        ] {
            lp_run(&name, &lg, false, s, false, 1234, 100);
        }
    }
}

// ------------------------------------------------------------------ fuzz

fn fuzz() {
    header("fuzz");
    println!("# random cases (splitmix64 seed 20261129): same record formats as rand_wi.txt and rand_candle.txt");
    let mut g = SplitMix(20261129);
    let t = f32::from_bits;
    for c in 0..300 {
        let v = 1 + (g.next() % if c % 10 == 0 { 300 } else { 40 }) as usize;
        let kind = g.next() % 8;
        let w: Vec<f32> = (0..v)
            .map(|_| {
                let u = g.unit();
                let z = g.next() % 100;
                match kind {
                    0 => u,
                    1 => if z < 40 { 0.0 } else { u },
                    2 => ((g.next() % 4) as f32) * 0.25,
                    3 => t((g.next() % 8) as u32),
                    4 => (u * 60.0 - 30.0).exp2(),
                    5 => if z < 2 { -0.0 } else if z < 50 { 0.0 } else { u * 1e-3 },
                    6 => if z < 3 { f32::NAN } else if z < 6 { -1.0 } else if z < 8 { f32::INFINITY } else { u },
                    _ => u * 1e37,
                }
            })
            .collect();
        let seed = g.next();
        wi_case(&format!("f{}", c), &w, true, &[seed], 64);
    }
    for c in 0..200 {
        let v = 1 + (g.next() % if c % 10 == 0 { 400 } else { 40 }) as usize;
        let tie = g.next() % 3 == 0;
        let l: Vec<f32> = (0..v)
            .map(|_| {
                let z = g.next() % 1000;
                if z < 10 {
                    f32::NEG_INFINITY
                } else if z < 12 && c % 7 == 0 {
                    f32::NAN
                } else if tie {
                    ((g.next() % 5) as f32) - 2.0
                } else {
                    g.unit() * 40.0 - 20.0
                }
            })
            .collect();
        let temps = [0.3f64, 0.7, 1.0, 1.5, 2.0, 0.05];
        let tt = temps[(g.next() % 6) as usize];
        let k = (g.next() % (v as u64 + 3)) as usize;
        let ps = [0.0f64, 0.3, 0.5, 0.9, 0.95, 1.0, 1.2, -0.1];
        let p = if g.next() % 2 == 0 { ps[(g.next() % 8) as usize] } else { g.unit() as f64 };
        let s = match g.next() % 5 {
            0 => Sampling::ArgMax,
            1 => Sampling::All { t: tt },
            2 => Sampling::TopK { k, t: tt },
            3 => Sampling::TopP { p, t: tt },
            _ => Sampling::TopKThenTopP { k, p, t: tt },
        };
        let simd = g.next() % 2 == 0;
        let seed = g.next();
        lp_run(&format!("g{}", c), &l, true, s, simd, seed, 24);
    }
}

// ------------------------------------------------------------------ bench

/// Keeps a result alive without std::hint::black_box (Rust 1.66+): Debian 12's
/// rustc is 1.63.
fn keep<T: Copy>(x: &T) {
    unsafe { std::ptr::read_volatile(x) };
}

/// Per-draw time of the real rand: WeightedIndex<f32>::sample with StdRng over
/// a Zipf vector of V weights, and raw next_u32; best of 3, nanoseconds.
fn bench() {
    use std::time::Instant;
    for &(v, n) in &[(49152usize, 4_000_000usize), (8, 20_000_000)] {
        let w: Vec<f32> = (0..v).map(|i| (1.0f64 / (i as f64 + 1.0)) as f32).collect();
        let d = WeightedIndex::new(&w).unwrap();
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let mut r = StdRng::seed_from_u64(42);
            let mut acc = 0usize;
            let t0 = Instant::now();
            for _ in 0..n {
                acc = acc.wrapping_add(d.sample(&mut r));
            }
            let dt = t0.elapsed().as_secs_f64();
            keep(&acc);
            best = best.min(dt * 1e9 / n as f64);
        }
        println!("wi{} {:.3}", v, best);
    }
    let n = 50_000_000usize;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let mut r = StdRng::seed_from_u64(42);
        let mut acc = 0u32;
        let t0 = Instant::now();
        for _ in 0..n {
            acc = acc.wrapping_add(r.next_u32());
        }
        let dt = t0.elapsed().as_secs_f64();
        keep(&acc);
        best = best.min(dt * 1e9 / n as f64);
    }
    println!("u32 {:.3}", best);
}

// ------------------------------------------------------------------ ad-hoc cross-checks

fn parse_list(spec: &str) -> Vec<f32> {
    let text = match spec.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).expect("cannot read the list file"),
        None => spec.to_string(),
    };
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<f32>().expect("not a number"))
        .collect()
}

/// `probs LIST SEED N`: WeightedIndex::new(&w) then N samples, one per line,
/// or `err KIND` / `panic MESSAGE`. LIST is 1,2,3 or @file.
fn adhoc_probs(args: &[String]) {
    let w = parse_list(&args[0]);
    let seed: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    match panic::catch_unwind(|| WeightedIndex::new(&w)) {
        Err(e) => println!("panic {}", panic_msg(e)),
        Ok(Err(e)) => println!("err {:?}", e),
        Ok(Ok(d)) => {
            let mut r = StdRng::seed_from_u64(seed);
            for _ in 0..n {
                println!("{}", d.sample(&mut r));
            }
        }
    }
}

/// `logits LIST SEED N T K P SIMD` ("-" = absent): the Sampling that samplab's
/// --temperature/--top-k/--top-p map to, then N LogitsProcessor samples.
fn adhoc_logits(args: &[String]) {
    let l = parse_list(&args[0]);
    let seed: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let opt = |s: &String| if s == "-" { None } else { Some(s.clone()) };
    let t: Option<f64> = opt(&args[3]).map(|s| s.parse().unwrap());
    let k: Option<usize> = opt(&args[4]).map(|s| s.parse().unwrap());
    let p: Option<f64> = opt(&args[5]).map(|s| s.parse().unwrap());
    let simd = args[6] == "1";
    let s = match t {
        None => Sampling::ArgMax,
        Some(t) if t < 1e-7 => Sampling::ArgMax,
        Some(t) => match (k, p) {
            (Some(k), Some(p)) => Sampling::TopKThenTopP { k, p, t },
            (Some(k), None) => Sampling::TopK { k, t },
            (None, Some(p)) => Sampling::TopP { p, t },
            (None, None) => Sampling::All { t },
        },
    };
    let mut lp = Lp::new(seed, s, simd);
    for _ in 0..n {
        match lp_sample(&mut lp, &l) {
            Ok(tok) => println!("{}", tok),
            Err(st) => {
                println!("{}", st);
                return;
            }
        }
    }
}

// ------------------------------------------------------------------ subnormal totals

/// WeightedIndex<f32> where the total weight is subnormal (and neighbours):
/// rand 0.8 builds Uniform::new(0, total) shrinking the scale while
/// scale*(1-eps) >= total, rand 0.10 only while scale*(1-eps) > total, so for a
/// subnormal total (where total*(1-eps) rounds back to total) the scales differ.
fn sub() {
    header("sub");
    println!("# same records as rand_wi.txt: vec NAME V hex-f32...; table NAME n-1 fnv1a64(cumulative bits) total scale;");
    println!("# draw NAME SEED N tokens... words W next NEXT_U32; err NAME KIND; panic NAME MESSAGE");
    let t = f32::from_bits;
    let cases: Vec<(&str, Vec<f32>)> = vec![
        ("min2_0", vec![t(1), t(1), 0.0]),
        ("min_0", vec![t(1), 0.0]),
        ("min_only", vec![t(1)]),
        ("lit1e-45x3_0", vec![1e-45, 1e-45, 1e-45, 0.0]),
        ("zero_min_0", vec![0.0, t(1), 0.0]),
        ("min_0_0_min_0", vec![t(1), 0.0, 0.0, t(1), 0.0]),
        ("three5_0", vec![t(3), t(5), 0.0]),
        ("max_sub_0", vec![t(0x007f_ffff), 0.0]),
        ("half_half_normal", vec![t(0x0040_0000), t(0x0040_0000), 0.0]),
        ("below_normal", vec![t(0x003f_ffff), t(0x0040_0000), 0.0]),
        ("sub_1e-40_2e-40_0", vec![1e-40, 2e-40, 0.0]),
        ("sub_1e-39_1e-40_0", vec![1e-39, 1e-40, 0.0]),
        ("sub_mixed_0", vec![1e-42, t(7), 3e-41, 0.0]),
        ("normal_1e-38_1e-39_0", vec![1e-38, 1e-39, 0.0]),
        ("normal_one_min_0", vec![1.0, t(1), 0.0]),
        ("normal_min_one_0", vec![t(1), 1.0, 0.0]),
        ("min_normal_0", vec![f32::MIN_POSITIVE, 0.0]),
        ("min_normal2_0", vec![f32::MIN_POSITIVE, f32::MIN_POSITIVE, 0.0]),
        ("ties_sub4_0", vec![t(2), t(2), t(2), t(2), 0.0]),
        ("sub_ramp_0", (1..=16).map(|i| t(i)).chain(std::iter::once(0.0)).collect()),
    ];
    let mut seeds: Vec<u64> = (0..48u64).collect();
    seeds.extend_from_slice(&[299792458, 0xdeadbeef, 1 << 63, u64::MAX, 12345678901234567890]);
    for (name, w) in &cases {
        wi_case(name, w, true, &seeds, 64);
    }
}

// ------------------------------------------------------------------ candle generation loop

/// candle-transformers 0.11.0 utils::apply_repeat_penalty: each distinct id of
/// the context once (a HashSet of those seen), ids past the end skipped, a logit
/// >= 0 divided by the penalty, a negative one multiplied, in f32.
fn apply_repeat_penalty(logits: &mut [f32], penalty: f32, context: &[u32]) {
    let mut already_seen = std::collections::HashSet::new();
    for token_id in context {
        if already_seen.contains(token_id) {
            continue;
        }
        already_seen.insert(token_id);
        if let Some(logit) = logits.get_mut(*token_id as usize) {
            if *logit >= 0. {
                *logit /= penalty
            } else {
                *logit *= penalty
            }
        }
    }
}

/// The per-step logits of a generation: row t = 0.5 * base + 0.5 * jitter_t in
/// f32, base = gen_logits(GSEED, V), jitter_t = gen_logits(GSEED + 1 + t, V): a
/// persistent head (so tokens recur and the penalty matters) that moves a little.
fn gen_rows(gseed: u64, v: usize, steps: usize) -> Vec<Vec<f32>> {
    let base = gen_logits(gseed, v);
    (0..steps)
        .map(|t| {
            let j = gen_logits(gseed + 1 + t as u64, v);
            base.iter().zip(j.iter()).map(|(&b, &x)| 0.5f32 * b + 0.5f32 * x).collect()
        })
        .collect()
}

/// `generate`: whole generations as candle-examples run them (e.g. llama/main.rs,
/// mistral/main.rs at candle 0.11.0): one LogitsProcessor::from_sampling(seed,
/// sampling) for the run, then per step, when repeat_penalty != 1,
/// apply_repeat_penalty(logits, penalty, &tokens[tokens.len().saturating_sub(
/// repeat_last_n)..]) over prompt + generated so far, sample, push the token.
/// Each step's words come from the Counting wrapper around the real StdRng.
fn generate() {
    header("generate");
    println!("# candle 0.11.0's generation loop re-expressed from its source (candle-transformers generation/mod.rs LogitsProcessor, utils.rs apply_repeat_penalty, the candle-examples loop) over the real rand {} StdRng + WeightedIndex<f32>; candle itself is not run (not packaged)", RAND_VERSION);
    println!("# rows NAME V STEPS GSEED fnv1a64(all row bits, step by step): row t = 0.5*gen_logits(GSEED, V) + 0.5*gen_logits(GSEED+1+t, V) in f32");
    println!("# run ID rows=NAME sampling=argmax|all|topk|topp|topkp temp=T k=K p=P simd=0|1 penalty=R last_n=N seed=S (R = 1: no penalty, as the examples skip it)");
    println!("# prompt ID ids...; tokens ID one per step; words ID cumulative words after each step; status ID ok|err MSG|panic MSG");
    let steps = 32usize;
    let sets: [(&str, usize, u64, [u32; 6]); 2] = [
        ("r512", 512, 512001, [1, 17, 300, 17, 42, 5]),
        ("r32000", 32000, 32000001, [1, 15043, 29871, 17, 42, 15043]),
    ];
    // (sampling, simd, penalty, repeat_last_n, seed)
    let specs: Vec<(Sampling, bool, f32, usize, u64)> = vec![
        (Sampling::ArgMax, false, 1.0, 64, 42),
        (Sampling::ArgMax, false, 1.3, 64, 42),
        (Sampling::All { t: 1.0 }, false, 1.0, 64, 42),
        (Sampling::All { t: 0.7 }, false, 1.1, 64, 299792458),
        (Sampling::All { t: 1.0 }, true, 1.0, 64, 0),
        (Sampling::All { t: 2.0 }, false, 0.8, 64, 1),
        (Sampling::TopK { k: 40, t: 0.8 }, false, 1.0, 64, 42),
        (Sampling::TopK { k: 50, t: 1.0 }, false, 1.2, 16, 7),
        (Sampling::TopK { k: 1000, t: 1.5 }, false, 1.05, 0, 3),
        (Sampling::TopP { p: 0.9, t: 0.8 }, false, 1.0, 64, 42),
        (Sampling::TopP { p: 0.95, t: 1.0 }, true, 1.5, 8, u64::MAX),
        (Sampling::TopKThenTopP { k: 40, p: 0.9, t: 0.7 }, false, 1.1, 64, 42),
        (Sampling::TopKThenTopP { k: 20, p: 0.5, t: 1.0 }, true, 1.0, 64, 12345),
    ];
    let mut id = 0usize;
    for (name, v, gseed, prompt) in sets.iter() {
        let rows = gen_rows(*gseed, *v, steps);
        let h = fnv(rows.iter().flat_map(|r| r.iter().map(|x| x.to_bits())));
        println!("rows {} {} {} {} {:016x}", name, v, steps, gseed, h);
        for (sampling, simd, penalty, last_n, seed) in &specs {
            let (kind, t, k, p) = match sampling {
                Sampling::ArgMax => ("argmax", 0.0, 0, 0.0),
                Sampling::All { t } => ("all", *t, 0, 0.0),
                Sampling::TopK { k, t } => ("topk", *t, *k, 0.0),
                Sampling::TopP { p, t } => ("topp", *t, 0, *p),
                Sampling::TopKThenTopP { k, p, t } => ("topkp", *t, *k, *p),
            };
            println!(
                "run {} rows={} sampling={} temp={} k={} p={} simd={} penalty={} last_n={} seed={}",
                id, name, kind, t, k, p, *simd as u8, penalty, last_n, seed
            );
            let mut lp = Lp::new(*seed, sampling.clone(), *simd);
            let mut tokens: Vec<u32> = prompt.to_vec();
            let mut words: Vec<u64> = Vec::new();
            let mut status = String::from("ok");
            for row in &rows {
                let mut logits = row.clone();
                if *penalty != 1.0 {
                    let start_at = tokens.len().saturating_sub(*last_n);
                    apply_repeat_penalty(&mut logits, *penalty, &tokens[start_at..]);
                }
                match lp_sample(&mut lp, &logits) {
                    Ok(tok) => tokens.push(tok as u32),
                    Err(st) => {
                        status = st;
                        break;
                    }
                }
                words.push(lp.rng.words);
            }
            let join = |x: &[u32]| x.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ");
            println!("prompt {} {}", id, join(&prompt[..]));
            println!("tokens {} {}", id, join(&tokens[prompt.len()..]));
            println!("words {} {}", id, words.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
            println!("status {} {}", id, status);
            id += 1;
        }
    }
}

// ------------------------------------------------------------------ exact counts

/// A source that returns one fixed word: feeding k << 9 for every k in 0..2^23
/// enumerates the whole grid of UniformFloat<f32> (it keeps the top 23 bits of
/// one next_u32) with the real crate.
struct Fixed(u32);
word_source!(
    Fixed,
    |s| s.0,
    |s| ((s.0 as u64) << 32) | s.0 as u64,
    |s, dest| {
        for c in dest.chunks_mut(4) {
            let w = s.0.to_le_bytes();
            c.copy_from_slice(&w[..c.len()]);
        }
    }
);

fn fnv_bytes(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn exact_counts(w: &[f32]) -> Vec<u64> {
    let wi = WeightedIndex::new(w).expect("valid weights");
    let mut c = vec![0u64; w.len()];
    for k in 0u32..(1 << 23) {
        c[wi.sample(&mut Fixed(k << 9))] += 1;
    }
    // the low 9 bits are discarded: spot-check that
    for k in [0u32, 1, 12345, (1 << 23) - 1] {
        assert_eq!(wi.sample(&mut Fixed(k << 9)), wi.sample(&mut Fixed(k << 9 | 0x1ff)));
    }
    c
}

/// `exact FILE`: per vector the counts of each index over all 2^23 uniforms (for
/// FILE's 49152 logits through candle's softmax at two temperatures, FNV-1a
/// hashes of the weights and counts).
fn exact(path: &str) {
    println!("# exact audit golden: rand {} WeightedIndex<f32>, all 2^23 uniforms (words k << 9)", RAND_VERSION);
    let weather = candle_probs(&[4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2], 1.0, false);
    let cases: Vec<(&str, Vec<f32>)> = vec![
        ("weather_candle_softmax", weather),
        ("ties_candle_softmax_t07", candle_probs(&[3.0, 2.0, 2.0, 1.0], 0.7, false)),
        ("absorbed", vec![1.0, 2f32.powi(-25), 1.0]),
        ("running_sum_ties", vec![2f32.powi(24), 1.0, 1.0]),
        ("above_half_ulp", vec![2f32.powi(24), 1.5]),
        ("subnormal_total", vec![f32::from_bits(2), f32::from_bits(1)]),
        ("zeros", vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1e-30, 0.0]),
        ("tiny_mixed", vec![1.0, 2f32.powi(-25), 1.0, 1e-9, 3.0, 2f32.powi(-24), 0.1, 0.0]),
    ];
    // Subnormal totals, where rand 0.8 shrinks the scale and 0.9+ keeps it (and
    // can then draw a last zero weight); two normal totals at the boundary.
    let t = f32::from_bits;
    let sub: Vec<(&str, Vec<f32>)> = vec![
        ("sub_min2_0", vec![t(1), t(1), 0.0]),
        ("sub_min_0", vec![t(1), 0.0]),
        ("sub_min_only", vec![t(1)]),
        ("sub_zero_min_0", vec![0.0, t(1), 0.0]),
        ("sub_min_0_0_min_0", vec![t(1), 0.0, 0.0, t(1), 0.0]),
        ("sub_three5_0", vec![t(3), t(5), 0.0]),
        ("sub_ties4_0", vec![t(2), t(2), t(2), t(2), 0.0]),
        ("sub_1e-40_2e-40_0", vec![1e-40, 2e-40, 0.0]),
        ("sub_mixed_0", vec![1e-42, t(7), 3e-41, 0.0]),
        ("sub_max_0", vec![t(0x007f_ffff), 0.0]),
        ("sub_below_normal", vec![t(0x003f_ffff), t(0x0040_0000), 0.0]),
        ("sub_ramp_0", (1..=16).map(|i| t(i)).chain(std::iter::once(0.0)).collect()),
        ("normal_half_half", vec![t(0x0040_0000), t(0x0040_0000), 0.0]),
        ("normal_one_min_0", vec![1.0, t(1), 0.0]),
    ];
    for (name, w) in cases.iter().chain(sub.iter()) {
        let c = exact_counts(w);
        let cs: Vec<String> = c.iter().map(|v| v.to_string()).collect();
        println!("wi {} {} {} | {}", name, w.len(), hexf(w), cs.join(" "));
    }
    let text = std::fs::read_to_string(path).expect("read the logits file");
    let logits: Vec<f32> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().parse::<f32>().expect("a number"))
        .collect();
    for t in [1.0f64, 0.8] {
        let w = candle_probs(&logits, t, false);
        let c = exact_counts(&w);
        let zero = c.iter().filter(|&&v| v == 0).count();
        println!(
            "zipf T={} {} weights_fnv={:016x} counts_fnv={:016x} never={}",
            t,
            w.len(),
            fnv_bytes(w.iter().flat_map(|v| v.to_bits().to_le_bytes())),
            fnv_bytes(c.iter().flat_map(|v| v.to_le_bytes())),
            zero
        );
    }
}

fn main() {
    quiet_panics();
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(|s| s.as_str()) {
        Some("raw") => raw(),
        Some("wi") => wi(),
        Some("wi64") => wi64(),
        Some("select") => select(),
        Some("candle") => candle(),
        Some("fuzz") => fuzz(),
        Some("sub") => sub(),
        Some("bench") => bench(),
        Some("exact") if args.len() == 3 => exact(&args[2]),
        Some("generate") => generate(),
        Some("probs") if args.len() == 5 => adhoc_probs(&args[2..]),
        Some("logits") if args.len() == 9 => adhoc_logits(&args[2..]),
        _ => {
            eprintln!("usage: rand_golden raw|wi|wi64|select|candle|fuzz|sub|generate|bench\n       rand_golden exact SYNTHETIC_LOGITS_FILE\n       rand_golden probs LIST SEED N\n       rand_golden logits LIST SEED N T|- K|- P|- SIMD(0|1)");
            std::process::exit(2);
        }
    }
}
