#!/usr/bin/env bash
# Iterations to a relative residual of 1e-8 and bytes moved per iteration (per row) of PCG with
# Jacobi, AIP-1 and AMG over a sequence of closed hex, tet and prism boxes (walls all round: the
# singular pure-Neumann problem), from `miniapp poisson` on the CPU backend: the figures of docs/amg.md.
# Usage: tools/cpu/amg-iterations.sh BUILD [MESH:N ...]   (default: the sequence of docs/amg.md)
# Prints one line per mesh and preconditioner: mesh N rows levels iterations bytes-per-row-per-iteration.
set -euo pipefail
bin=${1:?usage: tools/cpu/amg-iterations.sh BUILD [MESH:N ...]}/miniapp/miniapp
shift
meshes=("$@")
((${#meshes[@]})) || meshes=(hex:16 hex:32 hex:48 hex:64 tet:12 tet:20 tet:28 tet:40 prism:16 prism:32 prism:48 prism:64)
printf '%-6s %4s %9s %-10s %6s %12s\n' mesh N rows precond iter bytes/row/it
for m in "${meshes[@]}"; do
  kind=${m%%:*} n=${m##*:}
  for p in jacobi aip1 amg; do
    text=$("$bin" poisson --backend cpu --mesh "$kind" --cells "$n,$n,$n" --periodic none --preconditioner "$p" 2>&1)
    rows=$(awk '/^matrix/ {print $3}' <<<"$text")
    it=$(awk -v p="$p" '$1 == p {print $3}' <<<"$text")
    gb=$(awk '$1 == "total" {print $3}' <<<"$text")
    # The counters cover the solve: its set-up (one iteration's worth and the initial residual) and `it` iterations.
    printf '%-6s %4s %9s %-10s %6s %12.0f\n' "$kind" "$n" "$rows" "$p" "$it" \
      "$(awk -v gb="$gb" -v it="$it" -v rows="$rows" 'BEGIN {print gb * 1e9 / (it + 1) / rows}')"
  done
done
