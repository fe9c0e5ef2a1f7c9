#!/usr/bin/env bash
# Installs the Debian 12 packages miniapp builds against, only those that are missing.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin
  libmetis-dev libvtk9-dev libcxxopts-dev catch2 libfftw3-dev libtomlplusplus-dev nlohmann-json3-dev libeigen3-dev
  python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "miniapp: installing missing packages: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
