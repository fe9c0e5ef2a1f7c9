#!/usr/bin/env bash
# miniapp's AMG-preconditioned CG against its peers on the same matrices, one CPU thread each:
# hypre's BoomerAMG-PCG (tools/compare/hypre_pcg.cpp, default and 3D settings) and pyamg's smoothed
# aggregation under SciPy's CG (tools/compare/pyamg_pcg.py). Each mesh's −L and b are exported by the
# first miniapp run; miniapp runs `miniapp poisson` three times with its hierarchy in float (the time
# loop's default) and three in double, each peer three set-ups and solves.
# Needs a build with -DMINIAPP_TOOLS=ON where libhypre-dev is installed (for hypre_pcg) and a Python
# with numpy, scipy and pyamg.
# Usage: tools/compare/amg-peers.sh BUILD PYTHON OUT_DIR [MESH:CELLS ...]
#   default meshes: hex:64,64,64 tet:40,40,40 prism:96,96,48 hex:96,96,96; MESH:CELLS as miniapp poisson's
#   --mesh and --cells, e.g. hex:96,96,96.
set -euo pipefail
build=${1:?usage: tools/compare/amg-peers.sh BUILD PYTHON OUT_DIR [MESH:CELLS ...]}
python=${2:?usage}
out=${3:?usage}
shift 3
meshes=("$@")
((${#meshes[@]})) || meshes=(hex:64,64,64 tet:40,40,40 prism:96,96,48 hex:96,96,96)
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $build/tools/hypre_pcg ]] ||
  { echo "amg-peers.sh: no $build/tools/hypre_pcg: configure with -DMINIAPP_TOOLS=ON where libhypre-dev is installed" >&2; exit 1; }
"$python" -c "import pyamg, scipy" 2>/dev/null ||
  { echo "amg-peers.sh: $python cannot import pyamg and scipy (pip install pyamg)" >&2; exit 1; }
mkdir -p "$out"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
for spec in "${meshes[@]}"; do
  mesh=${spec%%:*} cells=${spec#*:}
  name="${mesh}_${cells//,/x}"
  log="$out/$name.txt"
  : >"$log"
  for storage in float double; do
    echo "== miniapp, $storage matrices" >>"$log"
    for round in 1 2 3; do
      args=()
      [[ $storage == float ]] && args+=(--amg-float)
      [[ $storage == float && $round == 1 ]] && args+=(--export-matrix "$out/$name")
      "$build/miniapp/miniapp" poisson --backend cpu --mesh "$mesh" --cells "$cells" --periodic none \
        --preconditioner amg "${args[@]}" >>"$log" 2>&1
    done
  done
  for settings in default 3d; do
    echo "== hypre, $settings settings" >>"$log"
    "$build/tools/hypre_pcg" "$out/$name" --settings "$settings" --repeat 3 >>"$log" 2>&1
  done
  echo "== pyamg" >>"$log"
  "$python" "$here/pyamg_pcg.py" "$out/$name" --repeat 3 >>"$log" 2>&1
  rm -f "$out/$name".*.i32 "$out/$name".*.f64
  echo "$name"
  grep -E "^== |^amg |operator =|^median|NOT" "$log"
done
