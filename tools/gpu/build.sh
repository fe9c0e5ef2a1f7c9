#!/usr/bin/env bash
# Builds miniapp with CUDA on a GPU machine that has the CUDA toolkit, CMake, Open MPI and FFTW but no
# package registry: the other Debian packages travel as .deb files in .debs/ (fetched on a machine
# with apt by `apt-get download libmetis5 libmetis-dev libcxxopts-dev catch2 libtomlplusplus-dev libtomlplusplus3
# nlohmann-json3-dev libeigen3-dev libfftw3-dev libfftw3-double3 libfftw3-single3 libfftw3-long3 libfftw3-quad3 pkgconf pkgconf-bin
# libpkgconf3`) and are unpacked into a private prefix. VTK is left out (-DMINIAPP_VTK=OFF).
# Usage: tools/gpu/build.sh BUILD_DIR [TARGET...]   (default: everything)
set -euo pipefail
build=${1:-build/gpu}
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done
mkdir -p "$build"
source "$(dirname "$0")/deps.sh"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMINIAPP_CUDA=ON -DMINIAPP_VTK=OFF -DMINIAPP_TOOLS=ON \
  -DCMAKE_PREFIX_PATH="$deps/usr;$libdir/cmake" -DCMAKE_CUDA_ARCHITECTURES=90 >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$build/build.log" 2>&1 ||
  { grep -E -A3 "error|Error" "$build/build.log" | head -60; exit 1; }
test -x "$build/miniapp/miniapp"
