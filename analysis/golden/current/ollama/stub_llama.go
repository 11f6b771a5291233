// Package llama stands in for Ollama's cgo binding to llama.cpp, which the
// sample package imports only for its grammar sampler. The golden cases use no
// grammar, so these are never called; they exist so that Ollama's own
// sample/samplers.go compiles unchanged.
package llama

type Grammar struct{}

type TokenData struct {
	ID    int32
	Logit float32
}

func NewGrammar(grammar string, vocabIds []uint32, vocabValues []string, eogTokens []int32) *Grammar {
	return nil
}

func (g *Grammar) Apply(tokens []TokenData) {}
func (g *Grammar) Accept(token int32)       {}
func (g *Grammar) Free()                    {}
