#!/usr/bin/env bash
# The generator's tetrahedra mirrored by their lattice cell's parity (this tree) against Kuhn's split
# repeated in every cell (this tree with kuhn.patch reverted, built beside it), on one lent GPU machine,
# alternated: `miniapp poisson` with AIP-1 and AMG (float matrices) on closed tet boxes of 10⁵ to 10⁷
# cells and AMG alone at 3·10⁷, the LES step on 3.1·10⁶ tets with AIP-1 and AMG, the V-cycle's level
# kernels at 10⁷ tets; then, the mirrored split only, cavity-3d's start-up on tets of 10⁶ to 3·10⁷
# cells and the 5.1·10⁷-tet LES case (3 steps). With `kernels`, instead: the kernel benchmark on the
# tets' Laplacian and convection operator at 10⁵ to 10⁷ cells, both splits. Raw outputs in OUT/raw.tgz.
# Usage (repository root, .debs/ carried): bash docs/results/h100_2026-12-07_mirrored_tets/run.sh OUT [kernels]
set -uo pipefail
out=${1:?usage: run.sh OUT [kernels]}
part=${2:-all}
here=$(pwd)
build=build/gpu
budget=570
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc)
mkdir -p /tmp/base
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -R -p1 <"$here/docs/results/h100_2026-12-07_mirrored_tets/kuhn.patch") >"$out/patch.txt" 2>&1
start=$SECONDS
tools/gpu/build.sh build/gpu miniapp >"$out/build_mirrored.txt" 2>&1 &
(cd /tmp/base && tools/gpu/build.sh build/gpu miniapp) >"$out/build_kuhn.txt" 2>&1 &
wait
echo "builds: $((SECONDS - start)) s" >>"$out/steps.txt"
declare -A binary=([mirrored]=$here/build/gpu/miniapp/miniapp [kuhn]=/tmp/base/build/gpu/miniapp/miniapp)
if [[ $part == kernels ]]; then
  for split in mirrored kuhn; do
    step "kernels_$split" 200 "${binary[$split]}" bench kernels --backend cuda --repeat 100 --meshes tet \
      --mesh-sizes 1e5,1e6,4e6,1e7
  done
  cat "$out/steps.txt"
  exit 0
fi
sweep() {  # round, sizes...
  local round=$1
  shift
  for n in "$@"; do
    for split in mirrored kuhn; do
      local preconditioners=aip1,amg
      ((n > 150)) && preconditioners=amg
      step "poisson_${split}_${n}_$round" 120 "${binary[$split]}" poisson --backend cuda --mesh tet --cells "$n,$n,$n" \
        --periodic none --preconditioner "$preconditioners" --amg-float --json "$out/poisson_${split}_${n}_$round.json"
    done
  done
}
sweep 1 26 55 80 119
for round in 1 2; do
  for split in mirrored kuhn; do
    for p in aip1 amg; do
      step "les_step_${split}_${p}_$round" 60 "${binary[$split]}" bench step taylor-green-3d --set 'physics.les="wale"' \
        --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' --set 'numerics.poisson="pcg"' \
        --set "numerics.preconditioner=\"$p\"" --backend cuda --warmup 5 --steps 10 \
        --json "$out/les_step_${split}_${p}_$round.json"
    done
  done
done
for split in mirrored kuhn; do
  step "level_kernels_${split}" 60 "${binary[$split]}" poisson --backend cuda --mesh tet --cells 119,119,119 \
    --periodic none --preconditioner amg --amg-float --level-kernels
done
for edge in 55 79 119 171; do
  step "startup_tet_$edge" 60 "${binary[mirrored]}" run cavity-3d --backend cuda --quiet --set 'mesh.generator="tet"' \
    --set "mesh.cells=[$edge,$edge,$edge]" --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 \
    --set 'output.fields=[]' --set "output.directory=\"/tmp/startup_$edge\""
  rm -rf "/tmp/startup_$edge"
done
step les51_mirrored 120 /usr/bin/time -v "${binary[mirrored]}" run taylor-green-3d --backend cuda --set 'physics.les="wale"' \
  --set 'mesh.generator="tet"' --set 'mesh.cells=[204,204,204]' --set 'numerics.poisson="pcg"' --set run.max_steps=3 \
  --set 'output.fields=[]' --set output.checkpoint_interval=0 --set 'output.directory="/tmp/les51"'
sweep 2 26 55 80 119 171
date -u >>"$out/device.txt"
cd "$out" && mkdir raw && mv ./*.json poisson_*.txt les_*.txt level_*.txt startup_*.txt build_*.txt patch.txt raw/ 2>/dev/null
tar czf raw.tgz raw && rm -rf raw
cat device.txt steps.txt
