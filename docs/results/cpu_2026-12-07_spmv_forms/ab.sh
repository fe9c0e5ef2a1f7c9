#!/bin/bash
# miniapp predict on the dev VM's CPU, one thread a rank, with two builds alternated: OLD (every SpMV
# priced on the one-vector sELL curve) and NEW (SpMVs priced by form). Per round and build: the
# one-rank script of cpu_2026-11-27_amg_predict (a calibration, three cases with --measure), then one
# calibration under mpirun -np 2 and three cases on two ranks (PARTS: "one", "two" or both). Run from
# an empty folder:
#   bash ab.sh OLD_BINARY NEW_BINARY [ROUNDS] [PARTS]
old=$1 new=$2 rounds=${3:-2} parts=${4:-"one two"}
results=$(cd "$(dirname "$0")/.." && pwd)
export OMP_NUM_THREADS=1
two_ranks() {
  local bin=$1 np="mpirun --oversubscribe -np 2"
  $np $bin predict cavity-3d --calibrate --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output cavity3d_np2 > cavity3d_np2.txt 2>&1
  $np $bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --set 'numerics.poisson="pcg"' --set 'numerics.preconditioner="amg"' --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output tg24_np2 > tg24_np2.txt 2>&1
  $np $bin predict cavity-3d --set 'numerics.preconditioner="jacobi"' --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output cavity3d_jacobi_np2 > cavity3d_jacobi_np2.txt 2>&1
}
for r in $(seq "$rounds"); do
  for b in old new; do
    bin=$old; [ "$b" = new ] && bin=$new
    if [[ $parts == *one* ]]; then
      echo "$b round $r one rank $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
      mkdir -p "${b}_r$r" && (cd "${b}_r$r" && MINIAPP=$bin bash "$results/cpu_2026-11-27_amg_predict/commands.sh")
    fi
    if [[ $parts == *two* ]]; then
      echo "$b round $r two ranks $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
      mkdir -p "${b}_np2_r$r" && (cd "${b}_np2_r$r" && two_ranks "$bin")
    fi
  done
done
echo "done $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
