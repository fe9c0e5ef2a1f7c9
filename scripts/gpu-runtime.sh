# Sourced by the GPU scripts: makes the Debian libraries of .debs/ (METIS, toml++, ...) and NCCL
# (the CUDA toolkit's, or the nvidia-nccl wheel's) visible to prebuilt or freshly built binaries on a
# lent GPU machine, which has CUDA, Open MPI and FFTW but no package registry.
deps=/tmp/miniapp-deps
mkdir -p "$deps"
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
nccl_dir=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(os.path.dirname(nvidia.nccl.__file__), "lib"))' \
  2>/dev/null || true)
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu${nccl_dir:+:$nccl_dir}:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
