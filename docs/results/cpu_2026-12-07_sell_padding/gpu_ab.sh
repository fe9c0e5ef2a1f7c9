#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: AMG's float levels with their rows sorted
# (sorted_rows.patch of this folder, applied to a copy of the tree) against the tree as it is: the
# patch's CUDA tests of AMG, then `miniapp poisson --level-kernels` on 10⁷ hex and tets, each build in
# turn, two rounds as the budget allows, then the CUDA kernels' suite of the patched tree.
# Usage: bash docs/results/cpu_2026-12-07_sell_padding/gpu_ab.sh OUT
set -uo pipefail
out=${1:?usage: gpu_ab.sh OUT}
build=build/gpu
budget=${MINIAPP_GPU_BUDGET:-560}
repo=$PWD
sorted=/tmp/sorted-rows
mkdir -p "$out" "$sorted"
tar cf - --exclude=./build --exclude=./.debs . | tar xf - -C "$sorted"
ln -sfn "$repo/.debs" "$sorted/.debs"
patch_file=$repo/docs/results/cpu_2026-12-07_sell_padding/sorted_rows.patch
(cd "$sorted" && { patch -p1 <"$patch_file" || git apply "$patch_file"; }) >"$out/build.txt" 2>&1
tools/gpu/build.sh "$build" miniapp >>"$out/build.txt" 2>&1
echo "the tree: rc $? at $SECONDS s" >>"$out/build.txt"
(cd "$sorted" && tools/gpu/build.sh build/gpu miniapp amg_test cuda_kernels_test) >>"$out/build.txt" 2>&1
echo "sorted rows: rc $? at $SECONDS s" >>"$out/build.txt"
source tools/gpu/runtime.sh
date -u >>"$out/device.txt"
step amg_cuda 90 "$sorted/build/gpu/tests/solvers/amg_test" "[cuda]"
levels() {  # name, binary, mesh, cells per side
  step "$1" 60 "$2" poisson --backend cuda --mesh "$3" --cells "$4,$4,$4" --periodic none --preconditioner amg \
    --amg-float --level-kernels
}
for round in 1 2; do
  levels "as_numbered_hex_$round" "$bin" hex 215
  levels "sorted_hex_$round" "$sorted/build/gpu/miniapp/miniapp" hex 215
  levels "as_numbered_tet_$round" "$bin" tet 119
  levels "sorted_tet_$round" "$sorted/build/gpu/miniapp/miniapp" tet 119
done
step cuda_kernels 60 "$sorted/build/gpu/tests/cuda/cuda_kernels_test"
date -u >>"$out/device.txt"
