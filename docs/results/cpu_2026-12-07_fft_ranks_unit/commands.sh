#!/bin/bash
# Taylor-Green 48^3 on the FFT path on 2 ranks of the dev VM: a calibration under mpirun -np 2, then
# two predictions with 20 measured steps. Run from this folder; MINIAPP names the binary.
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin=${MINIAPP:-../../../build/cpu/miniapp/miniapp}
(date -u; $bin --version; lscpu | grep "Model name") > start.txt
mpirun --oversubscribe -np 2 $bin predict cavity-3d --calibrate --calibration /tmp/cal_np2.json --no-plots --output /tmp/cal_out > /tmp/cal.txt 2>&1
for r in 1 2; do
  mpirun --oversubscribe -np 2 $bin predict taylor-green-3d --set 'mesh.cells=[48,48,48]' --set 'numerics.poisson="fft"' \
    --calibration /tmp/cal_np2.json --measure --measure-steps 20 --devices 2 --no-plots --output /tmp/tg48_r$r > tg48_np2_r$r.txt 2>&1
done
# Then (07:09-07:11 UTC), with each round's calibration, the shipped channel (FFT path, AMG on its
# leading blocks): channel_np2.txt in round1/ and round2/.
#   mpirun --oversubscribe -np 2 $bin predict channel --calibration ROUND/cal_np2.json --measure \
#     --measure-steps 20 --devices 2 --no-plots --output /tmp/ch > ROUND/channel_np2.txt
# And (07:19 UTC) the Taylor-Green command three more times with round2/cal_np2.json:
# round2/tg48_np2_r3.txt to r5.txt.
date -u >> start.txt
