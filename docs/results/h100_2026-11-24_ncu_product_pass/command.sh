#!/usr/bin/env bash
# Nsight Compute on the AIP product's pass and the direction kernel of PCG with AIP-1 on 3·10⁶ tets.
out=/tmp/ncu; build=$PWD/build-carry; budget=590
source scripts/gpu-runtime.sh
which ncu > $out/which.txt 2>&1 || ls /usr/local/cuda/bin >> $out/which.txt
ncu --version >> $out/which.txt 2>&1
for k in sell_float_rho_kernel direction_spmv_dot_kernel; do
  step "ncu_$k" 200 env MINIAPP_NO_DEVICE_LOOPS=1 ncu --kernel-name "regex:$k" --launch-skip 30 --launch-count 1 \
    --set full -o "$out/$k" "$build/miniapp/miniapp" bench kernels --backend cuda --meshes tet --mesh-sizes 3e6 \
    --matrices laplacian --pcg --repeat 3
  ncu --import "$out/$k.ncu-rep" --page details > "$out/${k}_details.txt" 2>&1
  ncu --import "$out/$k.ncu-rep" --page raw --csv > "$out/${k}_raw.csv" 2>&1
done
tar czf "$OUT/ncu.tgz" -C /tmp ncu
