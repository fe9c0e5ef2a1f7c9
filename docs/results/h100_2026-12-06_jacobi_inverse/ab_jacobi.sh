#!/usr/bin/env bash
# Throwaway A/B on one GPU machine: HEAD (build-old-src) against the working tree (Jacobi's z of the
# FFT path's frequency solves as r times the inverse of the shifted diagonal). Raw outputs into $OUT/raw.tgz.
set -u
source tools/gpu/deps.sh
res=/tmp/res; mkdir -p $res
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $res/device.txt
tools/gpu/build.sh build/gpu miniapp fft_cuda_test > $res/build_new.txt 2>&1; echo "new build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
(cd build-old-src && mkdir -p build/gpu && cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release -DMINIAPP_CUDA=ON -DMINIAPP_VTK=OFF \
  -DCMAKE_PREFIX_PATH="$deps/usr;$libdir/cmake" -DCMAKE_CUDA_ARCHITECTURES=90 > build/gpu/configure.log 2>&1 &&
  cmake --build build/gpu -j 16 --target miniapp > build/gpu/build.log 2>&1) &
old_pid=$!
build/gpu/tests/fft/cuda/fft_cuda_test > $res/fft_cuda_test.txt 2>&1; echo "fft_cuda_test rc=$?" | tee -a $OUT/log.txt
tail -2 $res/fft_cuda_test.txt >> $OUT/log.txt
wait $old_pid; echo "old build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
test -x build-old-src/build/gpu/miniapp/miniapp || { tail -30 build-old-src/build/gpu/build.log build-old-src/build/gpu/configure.log; exit 1; }
old=build-old-src/build/gpu/miniapp/miniapp; new=build/gpu/miniapp/miniapp
bench() { "$1" bench step $2 --backend cuda --set 'numerics.poisson="fft"' $3 --warmup 10 --steps 20; }
tg64="tg64 taylor-green-3d --set mesh.cells=[64,64,64] --set numerics.fft_low_frequency_blocks=0"
tg128="tg128 taylor-green-3d --set mesh.cells=[128,128,128] --set numerics.fft_low_frequency_blocks=0"
channel="channel channel --set mesh.cells=[96,96,64] --set numerics.fft_low_frequency_blocks=0"
for r in 1 2 3; do
  cases=("$tg64"); ((r <= 2)) && cases+=("$tg128"); ((r == 1)) && cases+=("$channel")
  for v in old new; do
    bin=${!v}
    for c in "${cases[@]}"; do
      set -- $c; name=$1; shift; cas=$1; shift
      echo "== $v round $r $name"; bench $bin $cas "$*" > $res/bench_${v}_${name}_r$r.txt 2>&1; grep -E "^time per step|^PCG iterations|FFT Poisson" $res/bench_${v}_${name}_r$r.txt | cut -c1-200
    done
  done
done > $OUT/ab.txt 2>&1
echo "ab done $(( $(date +%s)-t0 )) s" | tee -a $OUT/log.txt
tar czf $OUT/raw.tgz -C $res .
