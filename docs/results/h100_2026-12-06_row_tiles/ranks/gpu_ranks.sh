#!/usr/bin/env bash
# Throwaway: the FFT path on 2 ranks sharing one GPU (staged mpi transport), against 1 rank on the GPU and 2 CPU ranks.
set -u
source tools/gpu/deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp > $OUT/build.txt 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
bin=$PWD/build/gpu/miniapp/miniapp
common="taylor-green-3d --set mesh.cells=[32,32,32] --set numerics.poisson=\"fft\" --set numerics.fft_low_frequency_blocks=1 --set run.max_steps=20 --set output.fields=[] --set output.checkpoint_interval=0"
for v in "cuda1 1 cuda" "cuda2 2 cuda" "cpu2 2 cpu"; do
  set -- $v
  mkdir -p /tmp/$1 && (cd /tmp/$1 && eval mpirun --oversubscribe -np $2 $bin run $common --backend $3 > run.txt 2>&1; echo "$1 rc=$?" >> $OUT/log.txt; cp output/taylor-green-3d/diagnostics.csv $OUT/$1.csv; grep -E "FFT Poisson|partition:|error" run.txt | head -3 >> $OUT/log.txt)
done
echo "done $(( $(date +%s)-t0 )) s" >> $OUT/log.txt
