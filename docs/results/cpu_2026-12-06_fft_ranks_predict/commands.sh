#!/bin/bash
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin=/work/main/build/cpu/miniapp/miniapp
(date -u; uptime) > start.txt
mpirun --oversubscribe -np 2 $bin predict cavity-3d --calibrate --calibration cal_np2.json --no-plots --output cal_out > cal.txt 2>&1
for r in 1 2; do
mpirun --oversubscribe -np 2 $bin predict taylor-green-3d --set 'mesh.cells=[48,48,48]' --set 'numerics.poisson="fft"' --calibration cal_np2.json --measure --measure-steps 20 --devices 2 --no-plots --output tg48_np2_r$r > tg48_np2_r$r.txt 2>&1
done
(date -u; uptime) > done.txt
