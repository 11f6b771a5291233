#!/bin/sh
# Logits pipelines: transformers' warpers in torch ops vs samplab pipeline --framework hf, same run.
exec /usr/bin/python3 analysis/bench_pipeline.py
