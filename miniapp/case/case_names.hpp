#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "miniapp/case/case_config.hpp"

// The spelling of each enumerated value in case files: one table per enum, read by the parser
// (text -> value), by name() (value -> text) and by error messages (the allowed values).
namespace miniapp::cases {

template <class E, std::size_t N>
using NameTable = std::pair<std::string_view, E>[N];

inline constexpr std::pair<std::string_view, MeshGenerator> mesh_generator_names[] = {
    {"hex", MeshGenerator::hex}, {"tet", MeshGenerator::tet},
    {"prism", MeshGenerator::prism}, {"file", MeshGenerator::file}};
inline constexpr std::pair<std::string_view, Decomposition> decomposition_names[] = {
    {"metis", Decomposition::metis}, {"z-layers", Decomposition::z_layers}};
inline constexpr std::pair<std::string_view, LesModel> les_model_names[] = {
    {"none", LesModel::none}, {"smagorinsky", LesModel::smagorinsky}, {"wale", LesModel::wale},
    {"vreman", LesModel::vreman}, {"sigma", LesModel::sigma}};
inline constexpr std::pair<std::string_view, InitialType> initial_type_names[] = {
    {"rest", InitialType::rest}, {"uniform", InitialType::uniform},
    {"taylor-green-2d", InitialType::taylor_green_2d}, {"taylor-green-3d", InitialType::taylor_green_3d},
    {"channel", InitialType::channel}};
inline constexpr std::pair<std::string_view, BoundaryType> boundary_type_names[] = {
    {"wall", BoundaryType::wall}, {"moving-wall", BoundaryType::moving_wall},
    {"inlet", BoundaryType::inlet}, {"outlet", BoundaryType::outlet}, {"slip", BoundaryType::slip}};
inline constexpr std::pair<std::string_view, Backend> backend_names[] = {
    {"auto", Backend::automatic}, {"cpu", Backend::cpu}, {"cuda", Backend::cuda}};
inline constexpr std::pair<std::string_view, Preconditioner> preconditioner_names[] = {
    {"auto", Preconditioner::automatic}, {"jacobi", Preconditioner::jacobi}, {"aip1", Preconditioner::aip1},
    {"aip2", Preconditioner::aip2}, {"aip3", Preconditioner::aip3}, {"amg", Preconditioner::amg}};
inline constexpr std::pair<std::string_view, AipFormChoice> aip_form_names[] = {
    {"auto", AipFormChoice::automatic}, {"two-pass", AipFormChoice::two_pass}, {"product", AipFormChoice::product}};
inline constexpr std::pair<std::string_view, AmgStorage> amg_storage_names[] = {
    {"double", AmgStorage::double_values}, {"float", AmgStorage::float_values}};
inline constexpr std::pair<std::string_view, PoissonSolver> poisson_solver_names[] = {
    {"auto", PoissonSolver::automatic}, {"pcg", PoissonSolver::pcg}, {"fft", PoissonSolver::fft}};
inline constexpr std::pair<std::string_view, TimeStepMethod> time_step_method_names[] = {
    {"cfl", TimeStepMethod::cfl}, {"eigenvalue", TimeStepMethod::eigenvalue}};
inline constexpr std::pair<std::string_view, OutputField> output_field_names[] = {
    {"velocity", OutputField::velocity}, {"pressure", OutputField::pressure},
    {"eddy_viscosity", OutputField::eddy_viscosity}, {"vorticity", OutputField::vorticity},
    {"q_criterion", OutputField::q_criterion}};
inline constexpr std::pair<std::string_view, VtkCompression> vtk_compression_names[] = {
    {"lz4", VtkCompression::lz4}, {"zlib", VtkCompression::zlib}, {"none", VtkCompression::none}};

// The value spelled `text`, or nullptr.
template <class E, std::size_t N>
const E* find_value(const NameTable<E, N>& table, std::string_view text) {
  for (const auto& [spelling, value] : table)
    if (spelling == text) return &value;
  return nullptr;
}

// The spelling of `value` ("?" if the table lacks it, which would be a bug in the table).
template <class E, std::size_t N>
std::string_view spelling(const NameTable<E, N>& table, E value) {
  for (const auto& [text, v] : table)
    if (v == value) return text;
  return "?";
}

// "a", "b" or "c": the allowed spellings, for error messages.
template <class E, std::size_t N>
std::string allowed_list(const NameTable<E, N>& table) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? " or " : ", ";
    out.append("\"").append(table[i].first).append("\"");
  }
  return out;
}

}  // namespace miniapp::cases
