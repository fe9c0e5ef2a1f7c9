#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "mesh/generators.hpp"
#include "core/error.hpp"
#include "miniapp/output/checkpoint.hpp"
#include "scratch_dir.hpp"

using namespace miniapp;
using namespace miniapp::output;
using miniapp::output::test::read_text;
using miniapp::output::test::ScratchDir;
using miniapp::output::test::write_text;

namespace {

mesh::Mesh small_box() {
  mesh::BoxSpec spec;
  spec.cells = {2, 2, 2};
  return mesh::make_hex_box(spec);
}

CheckpointData sample_data(const mesh::Mesh& m) {
  CheckpointData d;
  d.case_name = "channel";
  d.mesh = mesh_fingerprint(m);
  d.step = 1234;
  d.time = 0.1 + 0.2;
  d.dt = 1e-3 / 3;
  d.dt_old = 2e-3 / 7;
  const auto cells = static_cast<std::size_t>(m.cell_count());
  std::vector<double> u(cells), p(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    u[i] = std::sin(1.0 + i) / 3;
    p[i] = std::exp(-double(i)) * 1e-300;  // denormals at the end
  }
  // Values that a formatted write would lose: NaN payload, −0, infinities.
  u[0] = std::numeric_limits<double>::quiet_NaN();
  u[1] = -0.0;
  p[0] = -std::numeric_limits<double>::infinity();
  d.arrays = {{"u", u}, {"pressure", p}, {"face_velocity", std::vector<double>(m.face_count(), 0.5)}, {"empty", {}}};
  return d;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Reads the checkpoint of rank 0 and returns the error message (empty if reading succeeds).
std::string read_error(const std::filesystem::path& dir, int rank_count, const MeshFingerprint& m) {
  try {
    read_checkpoint(dir, 0, rank_count, m);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("checkpoint round trip is bitwise", "[output][checkpoint]") {
  ScratchDir dir("ckpt_roundtrip");
  const mesh::Mesh m = small_box();
  const CheckpointData written = sample_data(m);
  write_checkpoint(dir.path() / "sub", 1, 3, written);
  const CheckpointData read = read_checkpoint(dir.path() / "sub", 1, 3, mesh_fingerprint(m));

  CHECK(read.case_name == written.case_name);
  CHECK(read.mesh == written.mesh);
  CHECK(read.step == written.step);
  CHECK(read.time == written.time);
  CHECK(read.dt == written.dt);
  CHECK(read.dt_old == written.dt_old);
  REQUIRE(read.arrays.size() == written.arrays.size());
  for (std::size_t i = 0; i < read.arrays.size(); ++i) {
    CHECK(read.arrays[i].first == written.arrays[i].first);
    CHECK(bitwise_equal(read.arrays[i].second, written.arrays[i].second));
  }
  CHECK(bitwise_equal(read.array("pressure", m.cell_count()), written.arrays[1].second));
  CHECK_THROWS_WITH(read.array("u_old", m.cell_count()), Catch::Contains("no array 'u_old'"));
  CHECK_THROWS_WITH(read.array("u", 3), Catch::Contains("'u' has 8 values, this run needs 3"));
}

TEST_CASE("checkpoint reading names the file and the problem", "[output][checkpoint]") {
  ScratchDir dir("ckpt_errors");
  const mesh::Mesh m = small_box();
  const MeshFingerprint fp = mesh_fingerprint(m);
  const auto file = checkpoint_path(dir.path(), 0);

  CHECK_THAT(read_error(dir.path(), 2, fp), Catch::Contains(file.string()) && Catch::Contains("does not exist"));

  write_checkpoint(dir.path(), 0, 4, sample_data(m));
  const std::string good = read_text(file);
  REQUIRE(read_error(dir.path(), 4, fp).empty());

  SECTION("different rank count") {
    CHECK_THAT(read_error(dir.path(), 2, fp),
               Catch::Contains(file.string()) && Catch::Contains("written by 4 ranks, this run has 2"));
  }
  SECTION("bad magic") {
    write_text(file, "X" + good.substr(1));
    CHECK_THAT(read_error(dir.path(), 4, fp), Catch::Contains("bad magic"));
  }
  SECTION("unknown version") {
    std::string bad = good;
    bad[12] = 9;  // the version field follows magic (8) and endianness mark (4)
    write_text(file, bad);
    CHECK_THAT(read_error(dir.path(), 4, fp), Catch::Contains("version 9"));
  }
  SECTION("truncated payload") {
    write_text(file, good.substr(0, good.size() - 5));
    CHECK_THAT(read_error(dir.path(), 4, fp), Catch::Contains(file.string()) && Catch::Contains("truncated"));
  }
  SECTION("truncated header") {
    write_text(file, good.substr(0, 10));
    CHECK_THAT(read_error(dir.path(), 4, fp), Catch::Contains("truncated"));
  }
  SECTION("a flipped byte in the payload") {
    std::string bad = good;
    bad[bad.size() / 2] ^= 0x10;
    write_text(file, bad);
    CHECK_THAT(read_error(dir.path(), 4, fp), Catch::Contains("checksum mismatch"));
  }
  SECTION("another mesh of other size") {
    mesh::BoxSpec spec;
    spec.cells = {2, 2, 3};
    CHECK_THAT(read_error(dir.path(), 4, mesh_fingerprint(mesh::make_hex_box(spec))),
               Catch::Contains("another mesh") && Catch::Contains("12 cells"));
  }
  SECTION("the same mesh sizes with one node moved") {
    mesh::Mesh moved = m;
    moved.nodes[5].x += 1e-12;
    CHECK_THAT(read_error(dir.path(), 4, mesh_fingerprint(moved)), Catch::Contains("another mesh"));
  }
}

TEST_CASE("an interrupted checkpoint write leaves the previous one readable", "[output][checkpoint]") {
  ScratchDir dir("ckpt_interrupted");
  const mesh::Mesh m = small_box();
  CheckpointData first = sample_data(m);
  write_checkpoint(dir.path(), 0, 1, first);

  // A crash during the next write leaves a partial temporary file beside the good checkpoint.
  auto temp = checkpoint_path(dir.path(), 0);
  temp += ".tmp";
  write_text(temp, read_text(checkpoint_path(dir.path(), 0)).substr(0, 30));
  CHECK(read_checkpoint(dir.path(), 0, 1, mesh_fingerprint(m)).step == first.step);

  // The next complete write replaces both.
  CheckpointData second = first;
  second.step = first.step + 10;
  write_checkpoint(dir.path(), 0, 1, second);
  CHECK(read_checkpoint(dir.path(), 0, 1, mesh_fingerprint(m)).step == second.step);
  CHECK_FALSE(std::filesystem::exists(temp));
}
