// golden_test.go — runs Ollama's own sample package (copied unchanged next to
// this file by ollama_golden.sh) on generated logits and writes what it drew.
// Part of package sample so that it can wrap the sampler's generator in a word
// counter; every case also runs an untouched NewSampler and must draw the same.
//
// Logits are made from splitmix64 words with integer arithmetic and powers of
// two only, so that tests/test_framework_ollama.c rebuilds them bit for bit; the
// FNV-1a hash of their float32 bits is written with each case to prove it.
package sample

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

type counter struct {
	src   rand.Source
	words uint64
}

func (c *counter) Uint64() uint64 { c.words++; return c.src.Uint64() }

type sm64 struct{ x uint64 }

func (s *sm64) next() uint64 {
	s.x += 0x9E3779B97F4A7C15
	z := s.x
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

var kinds = []string{"rand", "ties", "neginf", "huge", "tiny", "const", "oneinf", "allinf", "peak", "nan", "posinf"}

func centered(w uint64) float32 { return float32(int32(w>>40) - (1 << 23)) }

// logits of one step: kind k, V entries, generator seed g.
func logits(kind string, V int, g uint64) []float32 {
	s := sm64{g}
	out := make([]float32, V)
	special := int(g % uint64(V))
	for i := range out {
		w := s.next()
		switch kind {
		case "rand", "peak", "nan", "posinf":
			out[i] = centered(w) * 0x1p-20
		case "ties":
			out[i] = float32(int32(w>>61)-4) * 0.5
		case "neginf":
			if w&3 == 0 {
				out[i] = float32(math.Inf(-1))
			} else {
				out[i] = centered(w) * 0x1p-20
			}
		case "huge":
			out[i] = centered(w) * 0x1p100
		case "tiny":
			out[i] = centered(w) * 0x1p-149
		case "const":
			out[i] = 1.5
		case "oneinf", "allinf":
			out[i] = float32(math.Inf(-1))
		}
	}
	switch kind {
	case "peak":
		out[special] = 40
	case "nan":
		out[special] = float32(math.NaN())
	case "posinf":
		out[special] = float32(math.Inf(1))
	case "oneinf":
		out[special] = 0
	}
	return out
}

func fnv(h uint64, v []float32) uint64 {
	for _, x := range v {
		b := math.Float32bits(x)
		for k := 0; k < 4; k++ {
			h ^= uint64(b >> (8 * k) & 0xFF)
			h *= 0x100000001b3
		}
	}
	return h
}

type setting struct {
	T, P, M string
	K       int
}

func f32(s string) float32 {
	v, err := strconv.ParseFloat(s, 64) // as samplab reads an option: a double, then float32
	if err != nil {
		panic(err)
	}
	return float32(v)
}

var temps = []string{"0", "0.8", "1", "1.5", "0.25", "1e-07", "1e-09", "-1", "100"}
var topps = []string{"1", "0.9", "0.5", "0", "-0.5", "1.5", "0.95"}
var minps = []string{"0", "0.05", "0.5", "1", "-0.1", "0.2"}
var seeds = []uint64{0, 1, 1<<31 - 1, 1 << 63, 1<<64 - 2, 42, 12345}

func topks(V int) []int { return []int{0, 1, 2, 5, 40, -3, V, V + 1, V - 1} }

// phash: FNV-1a of (id, value bits) of what Sampler.sample hands its draw, computed
// by the package's own transforms in sample's order; "-" at temperature 0.
func phash(lg []float32, st setting) string {
	s := NewSampler(f32(st.T), st.K, f32(st.P), f32(st.M), 0, nil)
	if s.temperature == 0 {
		return "-"
	}
	tokens := make([]token, len(lg))
	for i := range lg {
		tokens[i] = token{int32(i), lg[i]}
	}
	tokens = topK(tokens, s.topK)
	temperature(tokens, s.temperature)
	softmax(tokens)
	tokens = topP(tokens, s.topP)
	tokens = minP(tokens, s.minP)
	h := uint64(0xcbf29ce484222325)
	for _, t := range tokens {
		for _, b := range []uint32{uint32(t.id), math.Float32bits(t.value)} {
			for k := 0; k < 4; k++ {
				h ^= uint64(b >> (8 * k) & 0xFF)
				h *= 0x100000001b3
			}
		}
	}
	return fmt.Sprintf("%016x", h)
}

func run(w *bufio.Writer, t *testing.T, id int, kind string, V int, g uint64, steps int, st setting, seed uint64) {
	s := NewSampler(f32(st.T), st.K, f32(st.P), f32(st.M), int(seed), nil)
	plain := NewSampler(f32(st.T), st.K, f32(st.P), f32(st.M), int(seed), nil)
	var c *counter
	if s.rng != nil {
		c = &counter{src: rand.NewPCG(seed, seed^0x9E3779B9)}
		s.rng = rand.New(c)
	}
	h := uint64(0xcbf29ce484222325)
	var toks []string
	errText := "-"
	for step := 0; step < steps; step++ {
		lg := logits(kind, V, g+uint64(step)*1000003)
		h = fnv(h, lg)
		a, err := s.Sample(lg)
		b, err2 := plain.Sample(lg)
		if a != b || (err == nil) != (err2 == nil) {
			t.Fatalf("case %d: the counting sampler drew %d, NewSampler's %d", id, a, b)
		}
		if err != nil {
			toks = append(toks, "E")
			errText = err.Error()
			break
		}
		toks = append(toks, strconv.Itoa(int(a)))
	}
	ph := phash(logits(kind, V, g), st)
	words := uint64(0)
	if c != nil {
		words = c.words
	}
	fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t%d\t%016x\t%s\t%d\t%s\t%s\n", id, kind, V, g, steps, st.T,
		st.K, st.P, st.M, seed, h, strings.Join(toks, ","), words, errText, ph)
}

func TestGolden(t *testing.T) {
	dir := os.Getenv("GOLDEN_OUT")
	f, err := os.Create(dir + "/ollama_0.24.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	fmt.Fprintln(w, "# Ollama's sample package (sample/samplers.go, sample/transforms.go) run by analysis/golden/current/ollama_golden.sh")
	fmt.Fprintln(w, "# id\tkind\tV\tgseed\tsteps\ttemperature\ttop_k\ttop_p\tmin_p\tseed\tfnv\ttokens\twords\terror\tphash (step 0's probabilities before the draw)")
	id := 0
	// every setting combination on two small vectors, the seed cycling
	for _, kind := range []string{"ties", "rand"} {
		V := 13
		if kind == "ties" {
			V = 50
		}
		for _, T := range temps {
			for _, K := range topks(V) {
				for _, P := range topps {
					for _, M := range minps {
						run(w, t, id, kind, V, uint64(id)*7919+1, 1, setting{T, P, M, K}, seeds[id%len(seeds)])
						id++
					}
				}
			}
		}
	}
	// every kind at every size, a few settings each
	sizes := []int{1, 2, 3, 7, 12, 13, 49, 50, 51, 100, 1000, 32000, 151936}
	n := 0
	for _, V := range sizes {
		for _, kind := range kinds {
			for j := 0; j < 6; j++ {
				st := setting{temps[(n/3)%len(temps)], topps[n%len(topps)], minps[(n/2)%len(minps)],
					topks(V)[(n/5)%len(topks(V))]}
				if j == 0 { // Ollama's defaults
					st = setting{"0.8", "0.9", "0", 40}
				}
				run(w, t, id, kind, V, uint64(id)*104729+3, 1, st, seeds[n%len(seeds)])
				id++
				n++
			}
		}
	}
	// generations: the sampler reused across steps, new logits each step
	gens := []struct {
		kind  string
		V     int
		steps int
	}{{"rand", 1000, 100}, {"ties", 1000, 100}, {"neginf", 32000, 50}, {"rand", 151936, 30}, {"ties", 151936, 30},
		{"peak", 5000, 100}, {"tiny", 2000, 50}}
	for gi, gg := range gens {
		for j := 0; j < 4; j++ {
			st := []setting{{"0.8", "0.9", "0", 40}, {"1", "1", "0", 0}, {"1.5", "0.95", "0.05", 100},
				{"0.5", "1", "0.2", 0}}[j]
			run(w, t, id, gg.kind, gg.V, uint64(gi*100+j)*15485863+11, gg.steps, st, seeds[(gi+j)%len(seeds)])
			id++
		}
	}
	// math.Exp on this CPU (amd64: exp_amd64.s, its FMA path when the CPU has AVX and FMA):
	// the bits of Exp(float64(x)) for float32 x, as softmax calls it
	e, err := os.Create(dir + "/ollama_exp.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ew := bufio.NewWriter(e)
	defer ew.Flush()
	fmt.Fprintln(ew, "# Go math.Exp(float64(x)) for float32 x = -(splitmix64 word >> 40) * 2^-(17 + word % 10): x bits\tExp bits (hex)")
	xs := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(-1)), -0x1p-149, -1e-30, -87.5, -103.9, -745.1, -708.4}
	gx := sm64{2026}
	for k := 0; k < 20000; k++ {
		wv := gx.next()
		xs = append(xs, -float32(wv>>40)*float32(math.Ldexp(1, -17-int(wv%10))))
	}
	for _, x := range xs {
		fmt.Fprintf(ew, "%08x\t%016x\n", math.Float32bits(x), math.Float64bits(math.Exp(float64(x))))
	}
	// Go's PCG itself: raw Uint64 and Float32 bits, as Ollama seeds it and as given
	p, err := os.Create(dir + "/ollama_pcg.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pw := bufio.NewWriter(p)
	defer pw.Flush()
	fmt.Fprintln(pw, "# Go math/rand/v2 rand.NewPCG(seed1, seed2): seed1\tseed2\tfirst 8 Uint64 (hex)\tfirst 8 Float32 of a fresh rand.New (bits, hex)")
	pairs := [][2]uint64{{1, 2}}
	for _, s := range append(seeds, 1<<64-1) {
		pairs = append(pairs, [2]uint64{s, s ^ 0x9E3779B9})
	}
	for _, q := range pairs {
		g := rand.NewPCG(q[0], q[1])
		var us, fs []string
		for k := 0; k < 8; k++ {
			us = append(us, fmt.Sprintf("%016x", g.Uint64()))
		}
		r := rand.New(rand.NewPCG(q[0], q[1]))
		for k := 0; k < 8; k++ {
			fs = append(fs, fmt.Sprintf("%08x", math.Float32bits(r.Float32())))
		}
		fmt.Fprintf(pw, "%d\t%d\t%s\t%s\n", q[0], q[1], strings.Join(us, ","), strings.Join(fs, ","))
	}
}
