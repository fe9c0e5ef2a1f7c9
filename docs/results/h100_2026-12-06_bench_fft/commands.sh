#!/usr/bin/env bash
# Throwaway: bench fft on CUDA after the stride fix; the CLI test on the device.
set -u
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
tools/gpu/build.sh build/gpu miniapp cli_test > /tmp/build.txt 2>&1; echo "build rc=$? $(el) s" | tee -a $OUT/tests.txt
git log -1 --format=%h >> $OUT/tests.txt 2>/dev/null
t=$(find build/gpu/tests -name cli_test -type f | head -1)
timeout 60 $t "miniapp bench fft runs on the CPU and on a CUDA device where there is one" > /tmp/t.txt 2>&1; echo "cli_test bench fft rc=$? $(tail -2 /tmp/t.txt | tr '\n' ' ') $(el) s" | tee -a $OUT/tests.txt
export OMP_NUM_THREADS=$(nproc)
timeout 300 build/gpu/miniapp/miniapp bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 3 --csv $OUT/fft_iterations_cuda.csv > $OUT/bench_fft_cuda.txt 2>$OUT/bench_fft_cuda.log
echo "bench fft rc=$? $(el) s" | tee -a $OUT/tests.txt
