#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "mesh/generators.hpp"
#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"
#include "miniapp/output/checkpoint.hpp"
#include "miniapp/output/checkpoint_generations.hpp"
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
  d.settings = {{"physics.re", "100"}, {"physics.les", "none"}};
  d.scalars = {{"average_samples", 42}, {"average_time", -0.0}};
  return d;
}

void write_checkpoint(const std::filesystem::path& dir, int rank, int rank_count, const CheckpointData& data) {
  write_checkpoint_temporary(dir, rank, rank_count, data);
  commit_checkpoint(dir, data.step, rank);
}

constexpr long sample_step = 1234;

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  // memcmp of an empty vector's data(), which may be null, is undefined.
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Reads the checkpoint of rank 0 and returns the error message (empty if reading succeeds).
std::string read_error(const std::filesystem::path& dir, int rank_count, const MeshFingerprint& m) {
  try {
    read_checkpoint(dir, sample_step, 0, rank_count, m);
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
  const CheckpointData read = read_checkpoint(dir.path() / "sub", sample_step, 1, 3, mesh_fingerprint(m));

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
  CHECK(read.settings == written.settings);
  REQUIRE(read.scalars.size() == 2);
  CHECK(read.scalar("average_samples") == 42);
  CHECK(std::signbit(read.scalar("average_time")));
  CHECK_THROWS_WITH(read.scalar("nothing"), Catch::Contains("no scalar 'nothing'"));
  CHECK(bitwise_equal(read.array("pressure", m.cell_count()), written.arrays[1].second));
  CHECK_THROWS_WITH(read.array("u_old", m.cell_count()), Catch::Contains("no array 'u_old'"));
  CHECK_THROWS_WITH(read.array("u", 3), Catch::Contains("'u' has 8 values, this run needs 3"));
}

TEST_CASE("checkpoint reading names the file and the problem", "[output][checkpoint]") {
  ScratchDir dir("ckpt_errors");
  const mesh::Mesh m = small_box();
  const MeshFingerprint fp = mesh_fingerprint(m);
  const auto file = checkpoint_path(dir.path(), sample_step, 0);

  CHECK_THAT(read_error(dir.path(), 2, fp), Catch::Contains(file.string()) && Catch::Contains("does not exist"));

  write_checkpoint(dir.path(), 0, 4, sample_data(m));
  const std::string good = read_text(file);
  REQUIRE(read_error(dir.path(), 4, fp).empty());

  SECTION("different rank count: a mismatch, not damage") {
    CHECK_THAT(read_error(dir.path(), 2, fp),
               Catch::Contains(file.string()) && Catch::Contains("written by 4 ranks, this run has 2"));
    CHECK_THROWS_AS(read_checkpoint(dir.path(), sample_step, 0, 2, fp), CheckpointMismatch);
  }
  SECTION("a file renamed to another step") {
    std::filesystem::rename(file, checkpoint_path(dir.path(), 7, 0));
    CHECK_THROWS_WITH(read_checkpoint(dir.path(), 7, 0, 4, fp), Catch::Contains("does not match"));
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
  SECTION("a damaged length: the checksum says so before the parse runs past the payload") {
    std::string bad = good;
    bad[72 + 7] = 0x7f;  // the top byte of the case name's length, the payload's first field
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
    CHECK_THROWS_AS(read_checkpoint(dir.path(), sample_step, 0, 4, mesh_fingerprint(moved)), CheckpointMismatch);
  }
}

TEST_CASE("an interrupted checkpoint write leaves the previous one readable", "[output][checkpoint]") {
  ScratchDir dir("ckpt_interrupted");
  const mesh::Mesh m = small_box();
  CheckpointData first = sample_data(m);
  write_checkpoint(dir.path(), 0, 1, first);

  // A crash during the next write of the same step leaves a partial temporary file beside it.
  const auto temp = temporary_path(checkpoint_path(dir.path(), first.step, 0));
  write_text(temp, read_text(checkpoint_path(dir.path(), first.step, 0)).substr(0, 30));
  CHECK(read_checkpoint(dir.path(), first.step, 0, 1, mesh_fingerprint(m)).step == first.step);

  // The next complete write replaces both.
  CheckpointData second = first;
  second.dt = 0.5;
  write_checkpoint(dir.path(), 0, 1, second);
  CHECK(read_checkpoint(dir.path(), first.step, 0, 1, mesh_fingerprint(m)).dt == 0.5);
  CHECK_FALSE(std::filesystem::exists(temp));
}

TEST_CASE("checkpoint generations: complete ones listed newest first, others' files removed", "[output][checkpoint]") {
  ScratchDir dir("ckpt_generations");
  const mesh::Mesh m = small_box();
  CHECK(complete_generations(dir.path() / "absent").empty());
  CheckpointData data = sample_data(m);
  for (long step : {10, 20, 30}) {
    data.step = step;
    for (int rank = 0; rank < 2; ++rank) write_checkpoint(dir.path(), rank, 2, data);
    if (step != 30) mark_generation_complete(dir.path(), step, 2);  // 30: both files, no marker yet
  }
  write_text(temporary_path(checkpoint_path(dir.path(), 40, 1)), "half");
  CHECK(complete_generations(dir.path()) == std::vector<long>{20, 10});

  remove_generation_marker(dir.path(), 10);
  CHECK(complete_generations(dir.path()) == std::vector<long>{20});
  remove_rank_files_except(dir.path(), 1, {20});
  for (long step : {10, 30}) {
    CHECK(std::filesystem::exists(checkpoint_path(dir.path(), step, 0)));  // rank 0's own business
    CHECK_FALSE(std::filesystem::exists(checkpoint_path(dir.path(), step, 1)));
  }
  CHECK(std::filesystem::exists(checkpoint_path(dir.path(), 20, 1)));
  CHECK_FALSE(std::filesystem::exists(temporary_path(checkpoint_path(dir.path(), 40, 1))));
}

TEST_CASE("changed case settings are listed one by one", "[output][checkpoint]") {
  const CaseSettings before = {{"physics.re", "100"}, {"physics.les", "none"}, {"boundary.lid.velocity", "[1, 0, 0]"}};
  CHECK(describe_setting_changes(before, before).empty());
  const CaseSettings after = {{"physics.re", "400"}, {"physics.les", "wale"}, {"boundary.lid.velocity", "[1, 0, 0]"},
                              {"boundary.inlet.type", "inlet"}};
  CHECK(describe_setting_changes(before, after) ==
        "physics.re: 100 in the checkpoint, 400 now; physics.les: none in the checkpoint, wale now; "
        "boundary.inlet.type: (not set) in the checkpoint, inlet now");
}

TEST_CASE("a checksum taken in pieces is the one-call checksum of their concatenation", "[output][checkpoint]") {
  // 61 bytes: whole words and a partial one, so that every split below cuts through some word.
  std::string bytes;
  for (int i = 0; i < 61; ++i) bytes.push_back(static_cast<char>(37 * i + 11));
  Fnv1a64 whole;
  whole.update(bytes.data(), bytes.size());
  for (std::size_t first = 0; first <= bytes.size(); ++first)
    for (std::size_t second = first; second <= bytes.size(); second += 3) {
      Fnv1a64OfConcatenation pieces;
      pieces.update(bytes.data(), first);
      pieces.update(bytes.data() + first, 0);
      pieces.update(bytes.data() + first, second - first);
      pieces.update(bytes.data() + second, bytes.size() - second);
      INFO("pieces of " << first << ", " << second - first << " and " << bytes.size() - second << " bytes");
      REQUIRE(pieces.value() == whole.value());
    }
  // Fed in pieces, the plain hash is another value (why the writer needs the one above).
  Fnv1a64 split;
  split.update(bytes.data(), 3);
  split.update(bytes.data() + 3, bytes.size() - 3);
  CHECK(split.value() != whole.value());
}
