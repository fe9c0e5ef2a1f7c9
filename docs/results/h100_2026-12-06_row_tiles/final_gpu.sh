#!/usr/bin/env bash
# Throwaway: the CUDA tests on this tree, and miniapp predict on Taylor-Green 64³ / 128³ on the FFT path.
set -u
source tools/gpu/deps.sh
res=/tmp/res; mkdir -p $res
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $res/device.txt
git log -1 --format=%h > $res/tree.txt 2>/dev/null
tools/gpu/build.sh build/gpu miniapp cuda_kernels_test fft_cuda_test aip_cuda_test solvers_test amg_test amg_setup_test > $res/build.txt 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
run_test() { local bin; bin=$(find build/gpu/tests -name "$1" -type f | head -1); shift
  timeout 200 "$bin" "$@" > $res/$(basename $bin)$( [ $# -gt 0 ] && echo _cuda ).txt 2>&1; echo "$(basename $bin) $* rc=$? $(tail -2 $res/$(basename $bin)$( [ $# -gt 0 ] && echo _cuda ).txt | tr '\n' ' ') $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt; }
run_test cuda_kernels_test
run_test fft_cuda_test
run_test aip_cuda_test
run_test solvers_test "[cuda]"
run_test amg_test "[cuda]"
run_test amg_setup_test "[cuda]"
bin=build/gpu/miniapp/miniapp
for N in 64 128; do
  cal=""; [ $N = 64 ] && cal=--calibrate
  (mkdir -p $res/predict$N && cd $res/predict$N && $OLDPWD/$bin predict taylor-green-3d --backend cuda --set 'numerics.poisson="fft"' --set "mesh.cells=[$N,$N,$N]" $cal --calibration $res/cal.json --measure --measure-steps 20 --devices 1 --no-plots > $res/predict$N.txt 2>&1)
  echo "predict $N rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
  grep -A11 "^| sub-step | predicted ms" $res/predict$N.txt | grep -E "Poisson solve|step \(wall|all phases" >> $OUT/log.txt
done
tar czf $OUT/raw.tgz -C $res .
