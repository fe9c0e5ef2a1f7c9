#!/usr/bin/env bash
# On a GPU host's CPU: builds miniapp (CPU only) as the tree is (base: the gather) and with
# loads_everywhere.patch (new: four scalar loads on every processor), runs the harness and ab.sh.
# Run from the repository root with this folder's files in build/ab/ (h2.cpp = harness.cpp).
# Usage: build/ab/device.sh OUT
set -uo pipefail
out=$1
source tools/gpu/deps.sh
lscpu > "$out/lscpu.txt"
g++ -O3 -std=c++20 -o /tmp/h2 build/ab/h2.cpp && /tmp/h2 24 48 96 160 > "$out/harness.txt" 2>&1
rm -rf /tmp/src-new && mkdir /tmp/src-new && tar --exclude=./build --exclude=./.debs -cf - . | tar -C /tmp/src-new -xf -
(cd /tmp/src-new && patch -p1 -s < "$OLDPWD/build/ab/loads.patch")
for v in base new; do
  src=.; [ $v = new ] && src=/tmp/src-new
  cmake -S $src -B /tmp/b-$v -DCMAKE_BUILD_TYPE=Release -DMINIAPP_CUDA=OFF -DMINIAPP_VTK=OFF -DMINIAPP_TOOLS=ON \
    -DMINIAPP_TESTS=OFF -DCMAKE_PREFIX_PATH="$deps/usr;$libdir/cmake" > /tmp/cfg-$v.log 2>&1 || { tail -20 /tmp/cfg-$v.log; exit 1; }
  cmake --build /tmp/b-$v -j "$(nproc)" --target miniapp > /tmp/bld-$v.log 2>&1 || { grep -A3 error /tmp/bld-$v.log | head -30; exit 1; }
done
echo "built $(date -u)"
build/ab/ab.sh /tmp/b-base/miniapp/miniapp /tmp/b-new/miniapp/miniapp 2 1 > "$out/ab_1thread.txt" 2>&1
build/ab/ab.sh /tmp/b-base/miniapp/miniapp /tmp/b-new/miniapp/miniapp 1 16 > "$out/ab_16threads.txt" 2>&1
date -u
