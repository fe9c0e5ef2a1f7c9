# Sourced by the GPU scripts, which set `out` (their output folder), `build` and `budget` first: makes
# the Debian libraries of .debs/ (METIS, toml++, ...) and NCCL
# (the CUDA toolkit's, or the nvidia-nccl wheel's) visible to prebuilt or freshly built binaries on a
# lent GPU machine, which has CUDA, Open MPI and FFTW but no package registry; and the helpers step
# and mpi that the GPU scripts run their measurements with.
deps=/tmp/miniapp-deps
mkdir -p "$deps"
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
nccl_dir=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(os.path.dirname(nvidia.nccl.__file__), "lib"))' \
  2>/dev/null || true)
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu${nccl_dir:+:$nccl_dir}:${LD_LIBRARY_PATH:-}
# CUPTI (bench step's timeline): the machine's own, else one carried in $build/lib by the caller.
if [[ -d ${build:-}/lib ]] && ! ldconfig -p | grep -q libcupti.so.13 &&
  ! ls /usr/local/cuda/lib*/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13 >/dev/null 2>&1; then
  export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$build/lib
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0

# `step NAME LIMIT COMMAND...`: runs COMMAND within LIMIT seconds, output to $out/NAME.txt, unless
# the script's budget ($budget seconds since it started) would be exceeded; logs rc and seconds (or
# the skip) to $out/steps.txt. The sourcing script sets `out` and `budget`.
step() {
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  if ((SECONDS + limit > budget)); then echo "$name: skipped (budget)" >>"$out/steps.txt"; return; fi
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1
  echo "$name: rc $? in $((SECONDS - start)) s" >>"$out/steps.txt"
}

# `mpi NP COMMAND...`: mpirun with the environment above passed to every rank, and the host's cores
# shared out between the ranks' OpenMP teams (set-up runs on the host); a script rather than a
# function, so that `timeout` (in step) can run it.
mkdir -p "$deps/bin"
printf '#!/usr/bin/env bash\nnp=$1; shift\nexport OMP_NUM_THREADS=$(( $(nproc) / np ))\nexec mpirun -np "$np" --bind-to none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS "$@"\n' \
  >"$deps/bin/mpi"
chmod +x "$deps/bin/mpi"
export PATH=$deps/bin:$PATH

# What every GPU script starts with: its output folder (absolute), the binary, the device, a fresh
# steps.txt.
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$build/miniapp/miniapp
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt" 2>&1
# The kernel names the machine's runtime (a lent machine runs under Firecracker or gVisor), on which a
# set-up that faults in gigabytes of fresh memory may depend.
{ echo "kernel $(uname -r), $(nproc) cores"; echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"; } >>"$out/device.txt"
gpus=$(nvidia-smi -L | grep -c GPU)
: >"$out/steps.txt"
