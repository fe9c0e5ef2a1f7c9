#!/usr/bin/env bash
# The set-up's host memory with G, |M| and Π made at their upload, against the build before
# (docs/performance.md, "Largest meshes"). OLD and NEW are the two miniapp binaries (build/cpu of each
# tree). Run from an empty folder: ab.txt holds each run's stage lines, alternated between the builds,
# for 10⁶ hex cells and 10⁶ tets of cavity-3d (2 threads); same.txt compares 20 steps of three cases
# bit for bit (diagnostics.csv and probes.csv).
set -uo pipefail
old=${1:?OLD binary} new=${2:?NEW binary} rounds=${3:-6}
lines='^  (mesh|operators \(host\)|operators \(upload\)|AMG hierarchy|pressure solver|time integrator) |derived|start-up|^time'
one_run() {  # binary, label, case overrides...
  local bin=$1 label=$2; shift 2
  echo "== $label"
  /usr/bin/time -f "time user %U sys %S wall %e maxrss %M kB" "$bin" run cavity-3d "$@" --set run.max_steps=1 \
    --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 \
    --set 'output.directory="ab_output"' 2>&1 | grep -E "$lines"
}
(date -u; uptime) > ab.txt
for ((r = 1; r <= rounds; ++r)); do
  order="old new"; ((r % 2 == 0)) && order="new old"
  for mesh in hex tet; do
    for v in $order; do
      bin=$old; [[ $v == new ]] && bin=$new
      if [[ $mesh == hex ]]; then one_run "$bin" "round $r $v hex 100^3" --set 'mesh.cells=[100,100,100]'
      else one_run "$bin" "round $r $v tet 55^3 x 6" --set 'mesh.generator="tet"' --set 'mesh.cells=[55,55,55]'; fi
    done
  done >> ab.txt
done
(date -u; uptime) >> ab.txt

same() {  # name, case, overrides...
  local name=$1 case=$2; shift 2
  for v in old new; do
    bin=$old; [[ $v == new ]] && bin=$new
    "$bin" run "$case" "$@" --set run.max_steps=20 --set 'output.fields=[]' --set output.checkpoint_interval=0 \
      --set "output.directory=\"same_${name}_$v\"" > "same_${name}_$v.txt" 2>&1 || echo "$name $v failed" >> same.txt
  done
  # Every column but wall_seconds (it differs from run to run).
  python3 - "$name" >> same.txt <<'PY'
import csv, os, sys
name = sys.argv[1]
for f in ("diagnostics.csv", "probes.csv"):
    paths = [f"same_{name}_{v}/{f}" for v in ("old", "new")]
    if not all(os.path.exists(p) for p in paths):
        continue
    rows = [[{k: x for k, x in r.items() if k != "wall_seconds"} for r in csv.DictReader(open(p))] for p in paths]
    print(f"{name} {f}: {len(rows[0])} rows, {'equal' if rows[0] == rows[1] else 'DIFFER'}")
PY
}
: > same.txt
same cavity_amg cavity-3d --set 'mesh.cells=[32,32,32]' --set 'probes.centre.position=[0.5,0.5,0.5]' \
  --set 'probes.corner.position=[0.1,0.8,0.3]'
same les_tet taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' --set 'mesh.cells=[12,12,12]' \
  --set 'numerics.poisson="pcg"' --set 'probes.a.position=[1,2,3]'
# The PCG path named: "auto" chooses between it and the FFT path by timed solves.
same channel channel --set 'numerics.poisson="pcg"'
