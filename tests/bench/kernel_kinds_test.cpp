// The kernel-name table that splits a CUPTI timeline into kernel classes, on names as nvcc mangles the
// backend's kernels (copied from its object files: anonymous namespaces with a per-file tag, templates).
#include <catch2/catch.hpp>

#include "miniapp/bench/kernel_trace.hpp"

using namespace miniapp;
using bench::backend_kernel_kind;

TEST_CASE("Backend kernels are classed as their front ends count them", "[bench][trace]") {
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda47_GLOBAL__N__abc10e39_14_aip_kernels_cu_ad9337f417sell_float_"
                            "kernelENS_13SellFloatViewEPKdPdS4_") == KernelKind::spmv);
  // The AIP's first pass with the CG update joined: a product first.
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda47_GLOBAL__N__abc10e39_14_aip_kernels_cu_ad9337f425sell_float_advance_"
                            "kernelENS_13SellFloatViewENS1_14AdvanceVectorsEPdPKd") == KernelKind::spmv);
  // AMG's fused SpMVs: one template over the matrix's view and the epilogue.
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda46_GLOBAL__N__5c1e0a77_13_fused_spmv_cu_2b9c5d1e17spmv_fused_kernelINS_"
                            "13SellFloatViewENS_14JacobiEpilogueEEEvT_PKdT0_") == KernelKind::spmv);
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda46_GLOBAL__N__4640d6e1_13_cg_kernels_cu_8571656910rho_kernelILb0EEEviPKdS4_"
                            "NS_2cg11ScalarsViewE") == KernelKind::dot);
  // map_kernel serves several front ends: its functor decides.
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda46_GLOBAL__N__68372394_13_vector_ops_cu_1a78a8aeL10map_kernelINS1_"
                            "14WaxpbyInMemoryELb0EEEviT_PKdS6_Pd") == KernelKind::axpy);
  CHECK(backend_kernel_kind("_ZN7miniapp4cuda46_GLOBAL__N__68372394_13_vector_ops_cu_1a78a8aeL10map_kernelINS1_"
                            "4FillELb1EEEviT_PKdS6_Pd") == KernelKind::pointwise);
}

TEST_CASE("Kernels the table does not know are not classed", "[bench][trace]") {
  CHECK_FALSE(backend_kernel_kind("_ZN7miniapp4cuda12_GLOBAL__N_114unknown_kernelEv").has_value());
  CHECK_FALSE(backend_kernel_kind("regular_fft_factor").has_value());  // a vendor kernel, not mangled
  CHECK_FALSE(backend_kernel_kind("").has_value());
  // A functor that map_kernel does not serve yet: unknown rather than guessed.
  CHECK_FALSE(backend_kernel_kind("_ZN7miniapp4cuda12_GLOBAL__N_110map_kernelINS0_6DivideELb1EEEviT_PKdS5_Pd").has_value());
}

TEST_CASE("A kernel's own name drops namespaces, template arguments and parameters", "[bench][trace]") {
  CHECK(bench::kernel_base_name("_ZN7miniapp4cuda46_GLOBAL__N__68372394_13_vector_ops_cu_1a78a8aeL10map_kernelINS1_"
                                "14WaxpbyInMemoryELb0EEEviT_PKdS6_Pd") == "map_kernel");
  CHECK(bench::kernel_base_name("_ZN7miniapp4cuda47_GLOBAL__N__abc10e39_14_aip_kernels_cu_ad9337f417sell_float_"
                                "kernelENS_13SellFloatViewEPKdPdS4_") == "sell_float_kernel");
  CHECK(bench::kernel_base_name("regular_fft_factor") == "regular_fft_factor");
}
