#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the run-time variants of a probe patch to AMG's
# V-cycle against the build as it is. The patch is applied, `miniapp` built, then `miniapp poisson
# --backend cuda --periodic none --preconditioner amg --amg-float --level-kernels` runs on 10⁷ hex
# (215³) and tets (119³ × 6) under each variant's environment, the variants alternated, two rounds;
# each run's solve line, copy bandwidth and per-level R and totals go to OUT/levels.txt. The patch is
# taken back at the end.
# Usage: tools/gpu/probe-levels.sh PATCH OUT VARIANT...
#   VARIANT: NAME, or NAME:VAR=VALUE[,VAR=VALUE...]; a NAME alone runs the build as it is.
set -uo pipefail
patch=${1:?usage: probe-levels.sh PATCH OUT VARIANT...}
out=${2:?usage: probe-levels.sh PATCH OUT VARIANT...}
shift 2
mkdir -p "$out"
git apply "$patch" || exit 1
start=$SECONDS
tools/gpu/build.sh build/gpu miniapp >"$out/build.txt" 2>&1
rc=$?
echo "build: rc $rc in $((SECONDS - start)) s" >>"$out/build.txt"
if ((rc != 0)); then git apply -R "$patch"; exit 1; fi
source tools/gpu/deps.sh
nvidia-smi --query-gpu=name --format=csv,noheader >"$out/device.txt"
date -u >>"$out/device.txt"
run() {  # mesh, cells, variant, round
  local name=${3%%:*} settings=()
  [[ $3 == *:* ]] && IFS=, read -ra settings <<<"${3#*:}"
  echo "=== $1 $2 $name round $4 $(date -u +%H:%M:%S)"
  env "${settings[@]}" build/gpu/miniapp/miniapp poisson --backend cuda --mesh "$1" --cells "$2" --periodic none \
    --preconditioner amg --amg-float --level-kernels 2>&1 |
    grep -E "^amg |copy bandwidth|^level [0-9]|b_c = R r|all calls"
}
for round in 1 2; do
  for variant in "$@"; do
    run hex 215,215,215 "$variant" "$round"
    run tet 119,119,119 "$variant" "$round"
  done
done >"$out/levels.txt"
date -u >>"$out/device.txt"
git apply -R "$patch"
