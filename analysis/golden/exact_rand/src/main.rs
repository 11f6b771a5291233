//! Exact counts of rand 0.8.5 `WeightedIndex<f32>::sample` over every value its
//! uniform can take. `UniformFloat<f32>` reads one `next_u32` and keeps its top 23
//! bits, so feeding the words k << 9 for k in 0..2^23 enumerates the whole grid
//! with the real crate. Prints, per vector, the counts (or their FNV-1a hash for
//! the 49152-token vocabulary, whose float32 weights come from candle's softmax
//! recipe: x * (1/T) + 0, max fold, exp, sequential sum, divide).
//! Usage: exact_rand SYNTHETIC_LOGITS_FILE
use rand::distributions::{Distribution, WeightedIndex};
use rand_core::{impls, Error, RngCore};

struct Fixed(u32);

impl RngCore for Fixed {
    fn next_u32(&mut self) -> u32 {
        self.0
    }
    fn next_u64(&mut self) -> u64 {
        impls::next_u64_via_u32(self)
    }
    fn fill_bytes(&mut self, d: &mut [u8]) {
        impls::fill_bytes_via_next(self, d)
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(d);
        Ok(())
    }
}

fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn counts(w: &[f32]) -> Vec<u64> {
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

fn candle_softmax(x: &[f32], t: f64) -> Vec<f32> {
    let a = (1.0 / t) as f32;
    let y: Vec<f32> = x.iter().map(|v| v * a + 0.0).collect();
    let max = y.iter().fold(f32::NEG_INFINITY, |acc, &v| acc.max(v));
    let e: Vec<f32> = y.iter().map(|v| (v - max).exp()).collect();
    let mut s = 0f32;
    for v in &e {
        s += v;
    }
    e.iter().map(|v| v / s).collect()
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: exact_rand SYNTHETIC_LOGITS_FILE");
    println!("# exact audit golden: rand 0.8.5 WeightedIndex<f32>, all 2^23 uniforms (words k << 9)");
    let weather = candle_softmax(&[4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2], 1.0);
    let cases: Vec<(&str, Vec<f32>)> = vec![
        ("weather_candle_softmax", weather),
        ("ties_candle_softmax_t07", candle_softmax(&[3.0, 2.0, 2.0, 1.0], 0.7)),
        ("absorbed", vec![1.0, 2f32.powi(-25), 1.0]),
        ("running_sum_ties", vec![2f32.powi(24), 1.0, 1.0]),
        ("above_half_ulp", vec![2f32.powi(24), 1.5]),
        ("subnormal_total", vec![f32::from_bits(2), f32::from_bits(1)]),
        ("zeros", vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1e-30, 0.0]),
        ("tiny_mixed", vec![1.0, 2f32.powi(-25), 1.0, 1e-9, 3.0, 2f32.powi(-24), 0.1, 0.0]),
    ];
    for (name, w) in &cases {
        let c = counts(w);
        let ws: Vec<String> = w.iter().map(|v| format!("{:08x}", v.to_bits())).collect();
        let cs: Vec<String> = c.iter().map(|v| v.to_string()).collect();
        println!("wi {} {} {} | {}", name, w.len(), ws.join(" "), cs.join(" "));
    }
    let text = std::fs::read_to_string(&path).expect("read the logits file");
    let logits: Vec<f32> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().parse::<f32>().expect("a number"))
        .collect();
    for t in [1.0f64, 0.8] {
        let w = candle_softmax(&logits, t);
        let c = counts(&w);
        let zero = c.iter().filter(|&&v| v == 0).count();
        println!(
            "zipf T={} {} weights_fnv={:016x} counts_fnv={:016x} never={}",
            t,
            w.len(),
            fnv(w.iter().flat_map(|v| v.to_bits().to_le_bytes())),
            fnv(c.iter().flat_map(|v| v.to_le_bytes())),
            zero
        );
    }
}
