// The backend's CUDA kernels by name, in the kernel classes their front ends count them in
// (operators/kernels/*.cpp, solvers/fft/batched_kernels.cpp): what lets a CUPTI timeline be split into
// SpMV, AXPY, DOT and the rest. map_kernel (vector_ops.cu) serves several front ends: its functor
// (the first template argument) tells which.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>

#include "miniapp/bench/kernel_trace.hpp"

namespace miniapp::bench {

namespace {

// The demangled name, or the name itself when it is not a mangled C++ name.
std::string demangled(std::string_view mangled) {
  const std::string name(mangled);
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

struct FunctionName {
  std::string base;       // the function's own name, without namespaces
  std::string arguments;  // its template arguments, without the angle brackets; empty if none
};

// "void ns::(anonymous namespace)::f<A<1>, true>(int, double*)" → {"f", "A<1>, true"}.
FunctionName function_name(std::string name) {
  const std::string anonymous = "(anonymous namespace)";
  for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous))
    name.replace(at, anonymous.size(), "anonymous");
  int depth = 0;
  std::size_t end = name.size();
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    else if (name[i] == '>') --depth;
    else if (name[i] == '(' && depth == 0) {
      end = i;
      break;
    }
  }
  std::string head = name.substr(0, end);
  FunctionName f;
  if (!head.empty() && head.back() == '>') {
    depth = 0;
    for (std::size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++depth;
      else if (head[i] == '<' && --depth == 0) {
        f.arguments = head.substr(i + 1, head.size() - i - 2);
        head.resize(i);
        break;
      }
    }
  }
  const auto colon = head.rfind("::");
  const auto space = head.rfind(' ');
  std::size_t start = 0;
  if (colon != std::string::npos) start = colon + 2;
  else if (space != std::string::npos) start = space + 1;
  f.base = head.substr(start);
  return f;
}

}  // namespace

std::string kernel_base_name(std::string_view mangled_name) { return function_name(demangled(mangled_name)).base; }

std::optional<KernelKind> backend_kernel_kind(std::string_view mangled_name) {
  static const std::unordered_map<std::string, KernelKind> kinds = {
      // SpMV: sELL and CSR products (AMG's with their epilogues), the CG product with its dot, the AIP
      // factors (the first pass with the CG update joined), the batched planes.
      {"spmv_sell_kernel", KernelKind::spmv}, {"spmv_sell_multi_kernel", KernelKind::spmv},
      {"spmv_fused_kernel", KernelKind::spmv},
      {"spmv_csr_kernel", KernelKind::spmv}, {"spmv_csr_warp_kernel", KernelKind::spmv},
      {"spmv_dot_kernel", KernelKind::spmv},
      {"direction_spmv_dot_kernel", KernelKind::spmv},
      {"sell_float_kernel", KernelKind::spmv}, {"sell_float_rho_kernel", KernelKind::spmv},
      {"sell_float_advance_kernel", KernelKind::spmv},  // G (r − α q) with x += α p: the SpMV's bytes lead
      {"batched_spmv_kernel", KernelKind::spmv},
      // AXPY: the CG updates and directions, the mean's subtraction, the batched updates.
      {"update_kernel", KernelKind::axpy},
      {"subtract_mean_kernel", KernelKind::axpy},
      {"batched_direction_jacobi_kernel", KernelKind::axpy},
      {"batched_subtract_mean_kernel", KernelKind::axpy},
      // DOT: plain and fused reductions, the batched column sums and their scalar steps.
      {"dot_kernel", KernelKind::dot}, {"rho_kernel", KernelKind::dot}, {"mean_kernel", KernelKind::dot},
      {"start_kernel", KernelKind::dot}, {"tiled_kernel", KernelKind::dot}, {"column_sums_kernel", KernelKind::dot},
      {"finish_curvature_kernel", KernelKind::dot}, {"finish_residual_kernel", KernelKind::dot},
      // Pointwise: LES and CFL kernels and their max reduction, the device loop's test, batched Jacobi.
      {"eddy_viscosity_kernel", KernelKind::pointwise}, {"abs_value_kernel", KernelKind::pointwise},
      {"reduce_partial_kernel", KernelKind::pointwise}, {"reduce_final_kernel", KernelKind::pointwise},
      {"loop_test_kernel", KernelKind::pointwise}, {"batched_jacobi_kernel", KernelKind::pointwise},
      // Copies: halo gather and scatter.
      {"gather_kernel", KernelKind::copy}, {"scatter_kernel", KernelKind::copy}};
  const FunctionName f = function_name(demangled(mangled_name));
  if (f.base == "map_kernel") {  // vector_ops.cu: WAXPBY and AXPBY are AXPY; multiply and fill pointwise
    if (f.arguments.find("Waxpby") != std::string::npos) return KernelKind::axpy;
    if (f.arguments.find("Multiply") != std::string::npos || f.arguments.find("Fill") != std::string::npos)
      return KernelKind::pointwise;
    return std::nullopt;
  }
  const auto it = kinds.find(f.base);
  if (it == kinds.end()) return std::nullopt;
  return it->second;
}

}  // namespace miniapp::bench
