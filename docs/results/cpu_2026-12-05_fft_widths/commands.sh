#!/bin/bash
# The FFT path's predictions on the CPU with the batched iteration priced by the width of its range
# (docs/cost-model.md): one calibration, then the channel on the FFT path with Jacobi on every
# frequency and with AMG on its lowest block, the channel as shipped (the path and blocks chosen by
# timed solves), and the WALE Taylor-Green 24³ on the FFT path; all on one thread. Run from an empty
# folder; start.txt and done.txt keep the time and the load average around the runs.
export OMP_NUM_THREADS=1
bin=${MINIAPP:-build/cpu/miniapp/miniapp}
(date -u; uptime) > start.txt
$bin predict channel --set 'numerics.poisson="fft"' --set numerics.fft_low_frequency_blocks=0 --calibrate --calibration cal.json --measure --no-plots --output channel_jacobi > channel_jacobi.txt 2>&1
$bin predict channel --set 'numerics.poisson="fft"' --set numerics.fft_low_frequency_blocks=1 --calibration cal.json --measure --no-plots --output channel_amg1 > channel_amg1.txt 2>&1
$bin predict channel --calibration cal.json --measure --no-plots --output channel > channel.txt 2>&1
$bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --set 'numerics.poisson="fft"' --calibration cal.json --measure --no-plots --output tg24_les > tg24_les.txt 2>&1
(date -u; uptime) > done.txt
