# Every dependency is a Debian 12 package (scripts/install-deps.sh installs them); nothing is downloaded here.
find_package(MPI REQUIRED COMPONENTS CXX)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(cxxopts REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
# Eigen (header-only): the dense eigen-decomposition of AMG's coarsest matrix.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# VTK writes the ParaView output. MINIAPP_VTK=OFF builds without it (e.g. benchmark builds on a GPU
# machine that lacks VTK); output then fails with a message saying so.
set(MINIAPP_VTK ON CACHE BOOL "Build VTK output (requires libvtk9-dev)")
if(MINIAPP_VTK)
  find_package(VTK 9 REQUIRED COMPONENTS CommonCore CommonDataModel IOXML IOParallelXML)
endif()

# METIS ships no CMake package on Debian: locate header and library directly.
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
add_library(miniapp_metis INTERFACE)
target_include_directories(miniapp_metis INTERFACE ${METIS_INCLUDE_DIR})
target_link_libraries(miniapp_metis INTERFACE ${METIS_LIBRARY})

# FFTW3 ships no CMake package usable for the double-precision library on Debian: use pkg-config.
find_package(PkgConfig REQUIRED)
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)

if(MINIAPP_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()
