#!/bin/bash
# miniapp predict on two CPU ranks (docs/cost-model.md): per round one calibration under mpirun (the
# kernels timed by both ranks at once, halo and allreduce costs, and the Poisson iteration units on 2
# ranks), then four cases with --measure. Run from an empty folder; start.txt and done.txt keep the time and the load average.
bin=${MINIAPP:-build/cpu/miniapp/miniapp}
export OMP_NUM_THREADS=1
for r in 1 2; do
  mkdir -p np2_$r && cd np2_$r
  (date -u; uptime) > start.txt
  mpirun --oversubscribe -np 2 $bin predict cavity-3d --calibrate --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output cavity3d_np2 > cavity3d_np2.txt 2>&1
  mpirun --oversubscribe -np 2 $bin predict taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[24,24,24]' --set 'numerics.poisson="pcg"' --set 'numerics.preconditioner="amg"' --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output tg24_np2 > tg24_np2.txt 2>&1
  mpirun --oversubscribe -np 2 $bin predict cavity-3d --set 'numerics.preconditioner="jacobi"' --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output cavity3d_jacobi_np2 > cavity3d_jacobi_np2.txt 2>&1
  mpirun --oversubscribe -np 2 $bin predict taylor-green-3d --set "mesh.cells=[48,48,48]" --set 'numerics.poisson="fft"' --calibration cal_np2.json --measure --measure-steps 20 --devices 4 --no-plots --output tg48_fft_np2 > tg48_fft_np2.txt 2>&1
  (date -u; uptime) > done.txt
  cd ..
done
