#!/usr/bin/env bash
# One H200/H100, call 1 of 2: CUDA tests of the tree (736ac3d, ace7d1e and the warp-per-row batched SpMV
# never run on a GPU), then bench step of the working tree against HEAD (951deb0) on the FFT path:
# Taylor-Green 128³ with AMG forced on one block and with the blocks chosen, channel 96x96x64 FFT.
start=$SECONDS
mkdir -p /tmp/base && tar xzf .gl/head.tgz -C /tmp/base && ln -sfn "$PWD/.debs" /tmp/base/.debs
(cd /tmp/base && tools/gpu/build.sh /tmp/base/build miniapp >/tmp/base_build.txt 2>&1; echo "base build rc $? at $((SECONDS - start)) s" >>/tmp/base_build.txt) &
basepid=$!
tools/gpu/build.sh build/gpu miniapp cuda_kernels_test fft_cuda_test >/tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "build: $((SECONDS - start)) s"
out=/tmp/q1; build=build/gpu; budget=555; source tools/gpu/runtime.sh
step cuda_tests 120 $build/tests/cuda/cuda_kernels_test
step fft_cuda_tests 100 $build/tests/fft/cuda/fft_cuda_test
wait $basepid; tail -2 /tmp/base_build.txt
base=/tmp/base/build/miniapp/miniapp
fft=(--backend cuda --set 'numerics.poisson="fft"')
for v in new base; do
  b=$bin; [[ $v == base ]] && b=$base
  step tg128_amg1_$v 45 $b bench step taylor-green-3d "${fft[@]}" --set 'mesh.cells=[128,128,128]' --set numerics.fft_low_frequency_blocks=1 --warmup 10 --steps 20
  step channel96_$v 45 $b bench step channel "${fft[@]}" --set 'mesh.cells=[96,96,64]' --warmup 10 --steps 20
done
step tg128_new 45 $bin bench step taylor-green-3d "${fft[@]}" --set "mesh.cells=[128,128,128]" --warmup 10 --steps 20
cat $out/steps.txt
tail -3 $out/cuda_tests.txt $out/fft_cuda_tests.txt
for f in $out/tg128*.txt $out/channel96*.txt; do echo "$(basename $f .txt): $(grep -E '^time per step' $f) | $(grep -E '^FFT Poisson' $f | head -1 | cut -c1-400)"; done | tee $out/bench_summary.txt
tar czf $OUT/q1.tgz -C /tmp q1
echo "total: $((SECONDS - start)) s"
