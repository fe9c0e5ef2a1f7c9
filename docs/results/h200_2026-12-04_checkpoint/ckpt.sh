#!/usr/bin/env bash
# Checkpoint write and restart read at 10^7 hex and 5.1e7 tets on one H200 host: old (.gl/old.tgz = 904dc92 + the
# restart's read time) against new (this tree).
set -uo pipefail
out=${1:?OUT}
t0=$SECONDS
mkdir -p /tmp/old && tar -xzf .gl/old.tgz -C /tmp/old && cp -r .debs /tmp/old/
( sleep 20; cd /tmp/old && tools/gpu/build.sh /tmp/old/build miniapp > /tmp/old_build.txt 2>&1; echo "old build rc $?" >> /tmp/old_build.txt ) &
tools/gpu/build.sh build/gpu miniapp > $out/build.txt 2>&1; echo "new build rc $? at $((SECONDS - t0)) s" >> $out/build.txt
wait; tail -3 /tmp/old_build.txt >> $out/build.txt; echo "both at $((SECONDS - t0)) s" >> $out/build.txt
git log -1 --format='%H %cI' > $out/commit.txt 2>/dev/null
new=build/gpu/miniapp/miniapp; old=/tmp/old/build/miniapp/miniapp
export OMP_NUM_THREADS=$(nproc)
one() {  # label, bin, steps, restart?, case args...
  local label=$1 bin=$2 steps=$3 restart=$4; shift 4
  local dir=/tmp/ck_$label
  [[ $restart == no ]] && rm -rf $dir
  local r=(); [[ $restart == yes ]] && r=(--restart $dir)
  /usr/bin/time -f "maxrss %M KB wall %e s" timeout 200 $bin run "$@" --backend cuda --set run.max_steps=$steps --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=\"$dir\"" "${r[@]}" > /tmp/one.txt 2>&1
  echo "$label steps=$steps restart=$restart rc=$?: $(grep -E '^  start-up|^restart|^summary|maxrss' /tmp/one.txt | tr -s ' ' | tr '\n' '|') ckpt $(ls -la $dir/*.bin 2>/dev/null | awk '{s+=$5} END{print s}') B" >> $out/ckpt.txt
}
hex=(cavity-3d --set 'mesh.cells=[215,215,215]')
tet=(taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' --set 'mesh.cells=[204,204,204]' --set 'numerics.poisson="pcg"')
for r in 1 2; do
  for v in old new; do b=${!v}; one hex_$v $b 1 no "${hex[@]}"; one hex_$v $b 2 yes "${hex[@]}"; rm -rf /tmp/ck_hex_$v; done
done
echo "hex done at $((SECONDS - t0)) s" >> $out/ckpt.txt
for v in new old; do b=${!v}; one tet_$v $b 1 no "${tet[@]}"; one tet_$v $b 2 yes "${tet[@]}"; rm -rf /tmp/ck_tet_$v; echo "tet $v done at $((SECONDS - t0)) s" >> $out/ckpt.txt; done
