// The FFT benchmark's table, JSON and per-frequency CSV.
#include <fstream>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "miniapp/bench/bench_output.hpp"
#include "miniapp/bench/fft_bench.hpp"

namespace miniapp::bench {

namespace {

double gb_per_s(double bytes, double seconds) { return seconds > 0 ? bytes / seconds / 1e9 : 0.0; }

}  // namespace

void print_fft_report(std::ostream& out, const FftBenchReport& r) {
  out << "FFT Poisson vs 3D AIP-CG on " << r.device << " (copy bandwidth " << std::fixed << std::setprecision(1)
      << r.copy_gb_per_s << " GB/s, tolerance " << std::scientific << std::setprecision(0) << r.tolerance
      << ", median of " << r.repeat << ")\n"
      << std::fixed;
  out << "    N2d  Nper  | FFT ms/solve   it | AIP-CG ms/solve   it | speed-up | unified SpMV ms  GB/s  copy% |"
         " per-freq SpMV ms  GB/s  copy% | speed-up\n";
  for (const FftBenchRecord& x : r.records) {
    const double unified = gb_per_s(x.unified_spmv_bytes, x.unified_spmv_seconds);
    const double naive = gb_per_s(x.naive_spmv_bytes, x.naive_spmv_seconds);
    out << std::setw(7) << x.plane_cells << std::setw(6) << x.planes << "  | " << std::setprecision(2) << std::setw(12)
        << 1e3 * x.fft_seconds << std::setw(5) << x.fft_iterations << " | " << std::setw(15) << 1e3 * x.aip_cg_seconds
        << std::setw(5) << x.aip_cg_iterations << " | " << std::setw(7) << x.aip_cg_seconds / x.fft_seconds << "x | "
        << std::setw(15) << 1e3 * x.unified_spmv_seconds << std::setw(6) << std::setprecision(0) << unified
        << std::setw(6) << 100 * unified / r.copy_gb_per_s << "% | " << std::setprecision(2) << std::setw(16)
        << 1e3 * x.naive_spmv_seconds << std::setw(6) << std::setprecision(0) << naive << std::setw(6)
        << 100 * naive / r.copy_gb_per_s << "% | " << std::setprecision(2) << std::setw(7)
        << x.naive_spmv_seconds / x.unified_spmv_seconds << "x\n";
  }
  for (const FftBenchRecord& x : r.records)
    out << "preconditioner " << x.plane_cells << " x " << x.planes << " (set-up " << std::setprecision(2)
        << x.fft_setup_seconds << " s): " << x.preconditioner << "\n";
}

void write_fft_json(const std::string& path, const FftBenchReport& r) {
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  for (const FftBenchRecord& x : r.records)
    records.push_back({{"plane_cells", x.plane_cells},
                       {"planes", x.planes},
                       {"cells", static_cast<long long>(x.plane_cells) * x.planes},
                       {"fft_setup_seconds", x.fft_setup_seconds},
                       {"preconditioner", x.preconditioner},
                       {"fft_seconds", x.fft_seconds},
                       {"fft_iterations", x.fft_iterations},
                       {"aip_cg_seconds", x.aip_cg_seconds},
                       {"aip_cg_iterations", x.aip_cg_iterations},
                       {"unified_spmv_seconds", x.unified_spmv_seconds},
                       {"unified_spmv_bytes", x.unified_spmv_bytes},
                       {"naive_spmv_seconds", x.naive_spmv_seconds},
                       {"naive_spmv_bytes", x.naive_spmv_bytes},
                       {"iterations_jacobi", x.iterations_jacobi},
                       {"iterations_tuned", x.iterations_tuned}});
  write_json_file(path,
                  {{"benchmark", "fft"},
                   {"device", r.device},
                   {"date", r.date},
                   {"copy_gb_per_s", r.copy_gb_per_s},
                   {"tolerance", r.tolerance},
                   {"repeat", r.repeat},
                   {"records", records}},
                  "--json");
}

void write_fft_iterations_csv(const std::string& path, const FftBenchReport& r) {
  std::ofstream out(path);
  if (!out) throw Error("--csv: cannot write " + path);
  out << "plane_cells,planes,k,xi,iterations_jacobi,iterations_tuned\n";
  for (const FftBenchRecord& x : r.records)
    for (std::size_t k = 0; k < x.iterations_jacobi.size(); ++k)
      out << x.plane_cells << "," << x.planes << "," << k << "," << 2.0 * k / x.planes << "," << x.iterations_jacobi[k]
          << "," << x.iterations_tuned[k] << "\n";
  if (!out) throw Error("--csv: writing " + path + " failed");
}

}  // namespace miniapp::bench
