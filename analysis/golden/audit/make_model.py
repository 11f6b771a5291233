"""Writes the tiny random-weight GGUF model that the live-server audits serve
(mk/test-live.sh, analysis/golden/audit/record.py): llama architecture, 2
layers, n_embd 64, 4 heads (2 KV heads), n_ff 128, float32, with the gguf-py
of the llama.cpp source being served (PYTHONPATH=.../gguf-py) and NumPy's
PCG64 under a fixed seed, so the same command writes the same bytes.

Why not analysis/golden/current/make_tiny_gguf.py: its 256 byte tokens let the
model write invalid UTF-8, and llama-server 0.4.0's output parser
(common/chat.cpp, common_chat_peg_parse) then answers a non-streamed
/completion with 500 "does not match the expected Content-only format". Here
every piece is valid UTF-8: the three specials, the newline byte token <0x0A>
(llama.cpp's SPM vocabulary looks it up) and short plain pieces (syllables,
letters, digits, punctuation), V = 256 in all, so n_probs can cover the whole
vocabulary and a response stays small.

The output matrix is scaled so the logits spread (sd about 2 over the
vocabulary): many tokens are plausible at every step, so a server that drops
top-k 40 draws outside the top 40 often. The rows of the special tokens are
zero (logit 0, the median), so they almost never enter the top 40 and a
generation rarely ends at </s>.

Usage: /usr/bin/python3 make_model.py OUT.gguf   (writes OUT.gguf.tmp, then renames)
"""
import os
import sys

import numpy as np
import gguf

N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, N_FF, N_CTX = 64, 2, 4, 2, 128, 512
V = 256
SEED = 20261202
OUT_SCALE = 0.25  # logit sd = OUT_SCALE * sqrt(N_EMBD) after the final RMS norm


def vocabulary():
    """(piece, score, type) for ids 0..V-1; longer pieces score higher so the
    SentencePiece merges prefer them."""
    toks = [("<unk>", 0.0, gguf.TokenType.UNKNOWN), ("<s>", 0.0, gguf.TokenType.CONTROL),
            ("</s>", 0.0, gguf.TokenType.CONTROL), ("<0x0A>", 0.0, gguf.TokenType.BYTE)]
    syl = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    plain = ["\u2581" + s for s in syl] + syl
    plain += list("abcdefghijklmnopqrstuvwxyz") + ["\u2581" + c for c in "abcdefghijklmnopqrstuvwxyz"]
    plain += list("0123456789") + list(".,!?;:-'") + ["\u2581"]
    i = 0
    while len(toks) + len(plain) < V:
        plain.append("\u2581" + syl[i] + "n")
        i += 1
    assert len(set(plain)) == len(plain)
    for p in plain:
        toks.append((p, float(len(p)), gguf.TokenType.NORMAL))
    assert len(toks) == V
    return toks


def main(out):
    rng = np.random.default_rng(SEED)
    tmp = out + ".tmp"
    w = gguf.GGUFWriter(tmp, "llama")
    w.add_name("samplab-audit-tiny")
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

    toks = vocabulary()
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list([t[0] for t in toks])
    w.add_token_scores([t[1] for t in toks])
    w.add_token_types([t[2] for t in toks])
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)

    def t(name, *shape, scale):
        w.add_tensor(name, (rng.standard_normal(shape) * scale).astype(np.float32))

    hd = N_EMBD // N_HEAD
    # numpy shape (rows, cols) is ggml's (ne0 = cols, ne1 = rows)
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
    outw = (rng.standard_normal((V, N_EMBD)) * OUT_SCALE).astype(np.float32)
    outw[:3] = 0.0  # <unk>, <s>, </s>: logit 0
    w.add_tensor("output.weight", outw)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(tmp, out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_model.py OUT.gguf")
    main(sys.argv[1])
