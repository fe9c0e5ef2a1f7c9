#!/usr/bin/env bash
# On a lent one-GPU machine, the run-health check (docs/reliability.md, "Runaway solutions"): the
# cylinder with a fixed Δt past its stability limit (the run that once reached a kinetic energy of
# 1e81 and exited 0), which must stop with "the kinetic energy ran away" and leave a checkpoint of a
# healthy state, then the normal starts of the cylinder and the channel on their shipped meshes,
# which must pass. Each run's output (diagnostics.csv, checkpoints) and log are kept in OUT_DIR.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=330] tools/gpu/health.sh OUT_DIR
# BUILD holds miniapp, built by tools/gpu/build.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/health.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-330}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
run() {  # name, limit in s, case, settings...
  local name=$1 limit=$2 case=$3
  shift 3
  step "$name" "$limit" "$bin" run "$case" --backend cuda --set 'output.fields=[]' \
    --set "output.directory=\"$out/$name\"" "$@"
}
run cylinder_dt0.002_amg 120 cylinder --set numerics.dt=0.002 --set 'numerics.preconditioner="amg"' \
  --set run.max_steps=1500 --set output.checkpoint_interval=0.2
run cylinder_normal 90 cylinder --set run.end_time=20 --set statistics.start_time=10
run channel_normal 90 channel --set run.end_time=20 --set statistics.start_time=10
for name in cylinder_dt0.002_amg cylinder_normal channel_normal; do
  echo "== $name: $(grep -h 'rc ' "$out/steps.txt" | grep "^$name:")"
  grep -E "error|summary" "$out/$name.txt" | cut -c1-600
done >"$out/summary.txt"
cat "$out/summary.txt"
