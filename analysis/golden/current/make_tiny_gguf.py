"""Writes a tiny random-weight llama-architecture GGUF for the generation
golden (llamacpp_generate.c): vocab 512, 2 layers, n_embd 64, 4 heads (2 KV
heads), n_ff 128, float32 tensors, with Debian sid's python3-gguf
(GGUFWriter). No download, no trained weights: numpy's PCG64 with a fixed seed.

The tokenizer section is the smallest SentencePiece ("llama") vocabulary that
llama.cpp 0.7.0 accepts: <unk>, <s>, </s>, the 256 byte tokens <0x00>..<0xFF>
(llama.cpp looks up <0x0A> for the newline token) and 253 plain pieces.

With --text the byte tokens <0x80>..<0xFF> are plain pieces instead (the same
weights), so that every text the model writes is valid UTF-8: llama-server's
output parser stops a stream at the first invalid byte.

Usage: python3 make_tiny_gguf.py OUT.gguf [--text]
"""
import sys

import numpy as np
import gguf

V, N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, N_FF, N_CTX = 512, 64, 2, 4, 2, 128, 256
SEED = 20261201


def main(out, text=False):
    rng = np.random.default_rng(SEED)
    w = gguf.GGUFWriter(out, "llama")
    w.add_name("samplab-tiny-random")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)

    tokens, scores, types = [], [], []
    for t, ty in (("<unk>", gguf.TokenType.UNKNOWN), ("<s>", gguf.TokenType.CONTROL),
                  ("</s>", gguf.TokenType.CONTROL)):
        tokens.append(t)
        scores.append(0.0)
        types.append(ty)
    for b in range(256):
        plain = text and b >= 0x80
        tokens.append("\u2581#%02x" % b if plain else "<0x%02X>" % b)
        scores.append(0.0)
        types.append(gguf.TokenType.NORMAL if plain else gguf.TokenType.BYTE)
    letters = "abcdefghijklmnopqrstuvwxyz"
    i = 0
    while len(tokens) < V:
        piece = "\u2581" + letters[i % 26] + letters[(i // 26) % 26] + str(i // 676)
        tokens.append(piece)
        scores.append(-float(i))
        types.append(gguf.TokenType.NORMAL)
        i += 1
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)

    def t(name, *shape, scale):
        w.add_tensor(name, (rng.standard_normal(shape) * scale).astype(np.float32))

    hd = N_EMBD // N_HEAD
    # numpy shape (rows, cols) is ggml (ne0 = cols, ne1 = rows)
    t("token_embd.weight", V, N_EMBD, scale=1.0)
    for L in range(N_LAYER):
        w.add_tensor("blk.%d.attn_norm.weight" % L, np.ones(N_EMBD, np.float32))
        t("blk.%d.attn_q.weight" % L, N_EMBD, N_EMBD, scale=0.15)
        t("blk.%d.attn_k.weight" % L, N_HEAD_KV * hd, N_EMBD, scale=0.15)
        t("blk.%d.attn_v.weight" % L, N_HEAD_KV * hd, N_EMBD, scale=0.15)
        t("blk.%d.attn_output.weight" % L, N_EMBD, N_EMBD, scale=0.15)
        w.add_tensor("blk.%d.ffn_norm.weight" % L, np.ones(N_EMBD, np.float32))
        t("blk.%d.ffn_gate.weight" % L, N_FF, N_EMBD, scale=0.15)
        t("blk.%d.ffn_up.weight" % L, N_FF, N_EMBD, scale=0.15)
        t("blk.%d.ffn_down.weight" % L, N_EMBD, N_FF, scale=0.1)
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, np.float32))
    # a larger output scale gives peaked, LLM-like logits (a few units apart)
    t("output.weight", V, N_EMBD, scale=0.4)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main(sys.argv[1], text=sys.argv[2:] == ["--text"])
