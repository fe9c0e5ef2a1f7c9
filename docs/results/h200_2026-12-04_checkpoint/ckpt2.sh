#!/usr/bin/env bash
# The restart's read at 9.9e6 hex and 5.1e7 tets on one H200 host, this tree (checkpoint read as it is parsed).
set -uo pipefail
out=${1:?OUT}
t0=$SECONDS
build=build/gpu; budget=560
tools/gpu/build.sh $build miniapp > $out/build.txt 2>&1; echo "build rc $? at $((SECONDS - t0)) s" >> $out/build.txt
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc)
one() {  # label, steps, restart?, case args...
  local label=$1 steps=$2 restart=$3; shift 3
  local dir=/tmp/ck_$label
  [[ $restart == no ]] && rm -rf $dir
  local r=(); [[ $restart == yes ]] && r=(--restart $dir)
  /usr/bin/time -f "maxrss %M KB wall %e s" timeout 200 $bin run "$@" --backend cuda --set run.max_steps=$steps --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=\"$dir\"" "${r[@]}" > /tmp/one.txt 2>&1
  echo "$label steps=$steps restart=$restart rc=$?: $(grep -E '^  start-up|^restart   from|^summary|maxrss' /tmp/one.txt | tr -s ' ' | tr '\n' '|')" >> $out/ckpt.txt
}
hex=(cavity-3d --set 'mesh.cells=[215,215,215]')
tet=(taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' --set 'mesh.cells=[204,204,204]' --set 'numerics.poisson="pcg"')
one hex 1 no "${hex[@]}"; one hex 1 yes "${hex[@]}"; one hex 1 yes "${hex[@]}"
echo "hex done at $((SECONDS - t0)) s" >> $out/ckpt.txt
one tet 1 no "${tet[@]}"; one tet 1 yes "${tet[@]}"
echo "tet done at $((SECONDS - t0)) s" >> $out/ckpt.txt
