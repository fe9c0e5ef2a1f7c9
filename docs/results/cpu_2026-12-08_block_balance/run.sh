#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the float sELL product of R in thread blocks of
# 128, 64 or 32 threads instead of 256 (blocks.patch: MINIAPP_R_BLOCK for products of at most 262144
# rows, R₁ and the levels below, not R₀), and levels of up to 131072 rows in CSR (MINIAPP_CSR_ROWS: R₁
# and A₂ in CSR, a group of lanes a row), against the build as it is, two rounds alternated.
# Usage: bash docs/results/cpu_2026-12-08_block_balance/run.sh OUT
tools/gpu/probe-levels.sh docs/results/cpu_2026-12-08_block_balance/blocks.patch "${1:?usage: run.sh OUT}" \
  built b128:MINIAPP_R_BLOCK=128 b64:MINIAPP_R_BLOCK=64 b32:MINIAPP_R_BLOCK=32 csr:MINIAPP_CSR_ROWS=131072
