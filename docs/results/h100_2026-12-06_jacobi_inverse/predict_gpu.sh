#!/usr/bin/env bash
# Throwaway: miniapp predict on Taylor-Green 64³ / 128³ on the FFT path (one calibration), this tree.
set -u
res=/tmp/res; mkdir -p $res
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $res/device.txt
tools/gpu/build.sh build/gpu miniapp > $res/build.txt 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
bin=build/gpu/miniapp/miniapp
for N in 64 128; do
  cal=""; [ $N = 64 ] && cal=--calibrate
  (mkdir -p $res/predict$N && cd $res/predict$N && $OLDPWD/$bin predict taylor-green-3d --backend cuda --set 'numerics.poisson="fft"' --set "mesh.cells=[$N,$N,$N]" $cal --calibration $res/cal.json --measure --measure-steps 20 --devices 1 --no-plots > $res/predict$N.txt 2>&1)
  echo "predict $N rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
  grep -A11 "^| sub-step | predicted ms" $res/predict$N.txt | grep -E "Poisson solve|step \(wall|all phases" >> $OUT/log.txt
done
cp $res/predict64.txt $res/predict128.txt $res/device.txt $OUT/
