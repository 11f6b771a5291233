#!/usr/bin/python3
"""make_k40p09.py — writes data/k40p09.txt: 1000 logits shaped like the
k40p09 step of 000_35ecf9df7ca706aa.txt (at temperature 0.7: the top 40 hold
0.9208 of the mass; top-p 0.9 alone keeps 31 tokens; top-k 40 then top-p 0.9
renormalised keeps 14). The real SmolLM2 logits are not available; the
construction is hf_golden.py's k40p09_logits(). Usage: make_k40p09.py OUT"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden"))
from hf_golden import k40p09_logits  # noqa: E402

with open(sys.argv[1], "w") as f:
    f.write("# k40p09-shaped logits (1000 tokens), made by analysis/make_k40p09.py: at T = 0.7 the top 40\n"
            "# hold 0.9208 of the mass; top-p 0.9 keeps 31; top-k 40 + top-p 0.9 (renormalised) keeps 14.\n")
    for x in k40p09_logits():
        f.write("%.9g\n" % x)
