#include "miniapp/run/case_amg_options.hpp"

namespace miniapp::run {

amg::AmgOptions amg_options(const cases::NumericsConfig& n) {
  amg::AmgOptions options{.float_storage = n.amg_storage == cases::AmgStorage::float_values};
  if (n.amg_redundant_rows) options.redundant_rows = *n.amg_redundant_rows;
  return options;
}

}  // namespace miniapp::run
