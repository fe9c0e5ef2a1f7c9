#!/usr/bin/env bash
# Throwaway: the preconditioner laid out before the operators' upload, on one GPU.
set -u
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
tools/gpu/build.sh build/gpu miniapp cuda_kernels_test solvers_test amg_test amg_setup_test > /tmp/build.txt 2>&1
echo "build rc=$? $(el) s" | tee -a $OUT/tests.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> $OUT/tests.txt
git log -1 --format='%h' >> $OUT/tests.txt 2>/dev/null
run_test() { local bin; bin=$(find build/gpu/tests -name "$1" -type f | head -1); shift
  timeout 150 "$bin" "$@" > /tmp/t.txt 2>&1; echo "$(basename $bin) $* rc=$? $(tail -2 /tmp/t.txt | tr '\n' ' ') $(el) s" | tee -a $OUT/tests.txt; }
run_test cuda_kernels_test
run_test solvers_test "[cuda]"
run_test amg_test "[cuda]"
run_test amg_setup_test "[cuda]"
export OMP_NUM_THREADS=$(nproc)
# Device memory's peak during a start-up, sampled every 20 ms.
peak() { local bin=$1 gen=$2 edge=$3
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 > /tmp/smi.txt 2>/dev/null & local smi=$!
  $bin run cavity-3d --backend cuda --set "mesh.generator=\"$gen\"" --set "mesh.cells=[$edge,$edge,$edge]" --set run.max_steps=1 \
    --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 --set 'output.directory="/tmp/peak"' > /tmp/run.txt 2>&1
  kill $smi; wait $smi 2>/dev/null
  echo "$(grep -E '^  start-up' /tmp/run.txt) | device peak $(sort -n /tmp/smi.txt | tail -1) MiB | $(grep -o 'room for about [0-9]* cells' /tmp/run.txt)"
}
for gen in "hex 215" "tet 119"; do
  echo "$gen: $(peak build/gpu/miniapp/miniapp $gen) | $(grep -E 'device memory:|fits on' /tmp/run.txt | tr '\n' ' ')"
done | tee $OUT/device_peak.txt
grep -E "pressure matrix|AMG hierarchy|preconditioner|operators \(upload\)|pressure solver|AMG:" /tmp/run.txt > $OUT/tet_1e7_stages.txt
echo "peaks done $(el) s" | tee -a $OUT/tests.txt
m=build/gpu/miniapp/miniapp
for c in "cavity128 cavity-3d --set mesh.cells=[128,128,128]" "les_tet80 taylor-green-3d --set physics.les=\"wale\" --set mesh.generator=\"tet\" --set mesh.cells=[80,80,80] --set numerics.poisson=\"pcg\""; do
  set -- $c; name=$1; shift
  echo -n "== $name: "; $m bench step "$@" --backend cuda --warmup 5 --steps 20 2>&1 | grep -E "AMG hierarchy|pressure solver|pressure matrix|preconditioner \(upload\)|time per step" | tr '\n' '|'; echo
done > $OUT/setup_steps.txt
echo "set-up steps done $(el) s" | tee -a $OUT/tests.txt
timeout 150 $m bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 3 > $OUT/bench_fft_cuda.txt 2>/tmp/bench_fft.log
echo "bench fft rc=$? $(el) s" | tee -a $OUT/tests.txt
left=$(( 470 - $(el) ))
MINIAPP_GPU_BUILD=build/gpu MINIAPP_GPU_BUDGET=$left tools/gpu/startup.sh /tmp/startup >/dev/null 2>&1
cp /tmp/startup/summary.txt $OUT/startup_summary.txt; cat /tmp/startup/steps.txt >> $OUT/startup_summary.txt
cp /tmp/startup/hex_1e7.txt $OUT/startup_hex_1e7.txt 2>/dev/null
echo "all done $(el) s" | tee -a $OUT/tests.txt
