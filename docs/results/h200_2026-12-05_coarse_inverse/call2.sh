#!/usr/bin/env bash
# Call 2 on the same warm machine (the builds of call1.sh kept): Taylor-Green 128³ on the FFT path with
# the blocks chosen at set-up, base (951deb0) and the tree with the warp-per-row inverse; predict on
# the FFT path with a format-9 calibration at 64³ (calibrating) and 128³, measured.
out=/tmp/q2; mkdir -p $out; build=build/gpu; budget=500; source tools/gpu/runtime.sh
fft=(--backend cuda --set 'numerics.poisson="fft"')
step tg128_base 45 /tmp/base/build/miniapp/miniapp bench step taylor-green-3d "${fft[@]}" --set 'mesh.cells=[128,128,128]' --warmup 10 --steps 20
step tg128_new2 45 $bin bench step taylor-green-3d "${fft[@]}" --set 'mesh.cells=[128,128,128]' --warmup 10 --steps 20
tg=(taylor-green-3d --backend cuda --set 'numerics.poisson="fft"')
step predict64 200 $bin predict "${tg[@]}" --set 'mesh.cells=[64,64,64]' --calibrate --calibration $out/calibration.json --measure --measure-steps 20 --devices 1 --no-plots --output $out/predict64
step predict128 80 $bin predict "${tg[@]}" --set 'mesh.cells=[128,128,128]' --calibration $out/calibration.json --measure --measure-steps 20 --devices 1 --no-plots --output $out/predict128
