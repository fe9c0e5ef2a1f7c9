#!/usr/bin/env bash
# The AIP pass with its own-row loads first: the CUDA suites, the LES steps in both AIP forms, the
# unprofiled AIP-1 iteration.
MINIAPP_GPU_BUDGET=300 MINIAPP_GPU_BUILD=$PWD/build-carry MINIAPP_GPU_PART=step scripts/gpu-session.sh /tmp/own/step
out=/tmp/own/pcg; build=$PWD/build-carry; budget=240
source scripts/gpu-runtime.sh
step bench_tet_4e6_pcg 90 "$bin" bench kernels --backend cuda --repeat 100 --meshes tet --mesh-sizes 4e6 \
  --matrices laplacian --pcg --json "$out/bench_tet_4e6_pcg.json"
step bench_hex_2.6e5_pcg 60 "$bin" bench kernels --backend cuda --repeat 100 --meshes hex --mesh-sizes 2.6e5 \
  --matrices laplacian --pcg --json "$out/bench_hex_2.6e5_pcg.json"
tar czf "$OUT/own.tgz" -C /tmp own
