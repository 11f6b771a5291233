// Package tokenizer stands in for Ollama's tokenizer package: the sample
// package reads only the vocabulary and Decode, for its grammar sampler.
package tokenizer

type Vocabulary struct {
	Values []string
	EOS    []int32
}

type Tokenizer interface {
	Vocabulary() *Vocabulary
	Decode([]int32) (string, error)
}
