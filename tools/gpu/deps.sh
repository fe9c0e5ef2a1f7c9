# Sourced by the scripts of a GPU machine without a package registry: unpacks the Debian packages of
# .debs/ (the list is in build.sh) into a private prefix and points the loader, pkg-config and CMake
# (through $deps and $libdir) at it.
deps=/tmp/miniapp-deps
mkdir -p "$deps"
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
libdir=$deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$libdir:${LD_LIBRARY_PATH:-}
export PATH=$PATH:$deps/usr/bin
if ! pkg-config --exists fftw3 2>/dev/null; then
  export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$deps
fi
