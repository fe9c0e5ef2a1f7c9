#include "miniapp/output/checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <fstream>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"
#include "miniapp/output/folder.hpp"

namespace miniapp::output {
namespace {

// File layout (native byte order, which the endianness mark records):
//   header: magic[8] | endian_mark u32 | version u32 | rank u32 | rank_count u32 | step i64 | time f64 |
//           settings_hash u64 | mesh_hash u64 | payload_bytes u64 | payload_fnv1a u64
//   payload: case name | fingerprint (4 × u64) | step i64 | time, dt, dt_old f64 |
//            setting count u64 | per setting: key | value |
//            array count u64 | per array: name | value count u64 | values f64... |
//            scalar count u64 | per scalar: name | value f64
//   (a string is its length u64 and its bytes)
// The header repeats what identifies the generation, so that a set of files can be checked against
// each other from their first bytes.
constexpr char magic[8] = {'M', 'I', 'N', 'I', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t endian_mark = 0x01020304;
constexpr std::uint32_t version = 2;

struct Header {
  char magic[8];
  std::uint32_t endian_mark, version, rank, rank_count;
  std::int64_t step;
  double time;
  std::uint64_t settings_hash, mesh_hash, payload_bytes, payload_checksum;
};
static_assert(sizeof(Header) == 72 && std::is_trivially_copyable_v<Header>);

// The payload as pieces in file order: the small fields gathered into buffers of their own, the
// arrays' values where they lie (the data written must outlive the writer), so that a checkpoint of
// gigabytes is written without a copy of it.
class ByteWriter {
 public:
  template <class T>
  void put(const T& value) { put_small(&value, sizeof(T)); }
  void put_string(std::string_view s) {
    put<std::uint64_t>(s.size());
    put_small(s.data(), s.size());
  }
  void put_array(const std::vector<double>& values) {
    put<std::uint64_t>(values.size());
    if (values.empty()) return;
    pieces_.emplace_back(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
    small_open_ = false;
  }
  // The pieces in order; the writer must outlive them.
  const std::vector<std::string_view>& pieces() const { return pieces_; }

 private:
  void put_small(const void* data, std::size_t n) {
    if (!small_open_) {
      small_.emplace_back();  // a deque: earlier buffers, and the pieces that view them, stay in place
      pieces_.emplace_back();
      small_open_ = true;
    }
    small_.back().append(static_cast<const char*>(data), n);
    pieces_.back() = small_.back();  // taken afresh: an append may move the buffer's bytes
  }
  std::deque<std::string> small_;
  std::vector<std::string_view> pieces_;
  bool small_open_ = false;
};

// Reads the payload from the file as the parse asks for it, with a bounds check on every field (a
// checksum collision or a writer bug must not read past the payload), and hashes every byte read:
// arrays go from the file straight into their vectors, no copy of the file is held.
class PayloadReader {
 public:
  PayloadReader(std::ifstream& in, std::uint64_t bytes, const std::string& path)
      : in_(in), remaining_(bytes), path_(path) {}
  template <class T>
  T get() {
    T value;
    read(&value, sizeof(T));
    return value;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    if (n > remaining_) throw corrupt("a field runs past the end of the payload");  // before allocating n
    std::string text(n, '\0');
    read(text.data(), n);
    return text;
  }
  std::vector<double> get_doubles() {
    const auto n = get<std::uint64_t>();
    if (n > remaining_ / sizeof(double)) throw corrupt("an array is longer than the file");
    std::vector<double> values(n);
    read(values.data(), n * sizeof(double));
    return values;
  }
  std::uint64_t remaining() const { return remaining_; }
  // The checksum of the whole payload, once what the parse left of it is read too.
  std::uint64_t checksum_of_all() {
    std::vector<char> chunk(std::min<std::uint64_t>(remaining_, std::uint64_t{1} << 20));
    while (remaining_ > 0) read(chunk.data(), std::min<std::uint64_t>(remaining_, chunk.size()));
    return checksum_.value();
  }
  Error corrupt(const std::string& why) const { return file_error(path_, "corrupt checkpoint payload: " + why); }

 private:
  void read(void* to, std::uint64_t n) {
    if (n > remaining_) throw corrupt("a field runs past the end of the payload");
    if (n == 0) return;  // an empty vector's data() may be null
    if (!in_.read(static_cast<char*>(to), static_cast<std::streamsize>(n))) throw file_error(path_, "read error");
    checksum_.update(to, n);
    remaining_ -= n;
  }
  std::ifstream& in_;
  std::uint64_t remaining_;
  const std::string& path_;
  Fnv1a64OfConcatenation checksum_;  // the writer's, over the same bytes in the same order
};

std::string describe(const MeshFingerprint& m) {
  return std::to_string(m.cell_count) + " cells, " + std::to_string(m.face_count) + " faces, " +
         std::to_string(m.node_count) + " nodes, hash " + std::to_string(m.hash);
}

template <class T>
void hash_array(Fnv1a64& h, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  h.update(values.data(), values.size() * sizeof(T));
}

// The file opened for reading, and its size in bytes.
std::pair<std::ifstream, std::uint64_t> open_checkpoint(const std::string& path) {
  if (!std::filesystem::exists(path)) throw file_error(path, "checkpoint file does not exist");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw file_error(path, "cannot open checkpoint file");
  const std::streamoff size = in.tellg();
  if (size < 0) throw file_error(path, "cannot tell the checkpoint file's size");
  in.seekg(0);
  return {std::move(in), static_cast<std::uint64_t>(size)};
}

// Reads the header and checks everything it states against this run and the file's size.
Header read_header(std::ifstream& in, std::uint64_t file_bytes, const std::string& path, int rank, int rank_count) {
  if (file_bytes < sizeof(Header))
    throw file_error(path, "truncated checkpoint: " + std::to_string(file_bytes) +
                               " bytes, shorter than its " + std::to_string(sizeof(Header)) + "-byte header");
  Header h;
  if (!in.read(reinterpret_cast<char*>(&h), sizeof(Header))) throw file_error(path, "read error");
  if (std::memcmp(h.magic, magic, sizeof(magic)) != 0)
    throw file_error(path, "not a miniapp checkpoint (bad magic string)");
  if (h.endian_mark != endian_mark)
    throw file_error(path, "checkpoint was written on a machine of the other byte order");
  if (h.version != version)
    throw file_error(path, "checkpoint format version " + std::to_string(h.version) +
                               ", this build reads version " + std::to_string(version));
  if (h.rank_count != static_cast<std::uint32_t>(rank_count))
    throw CheckpointMismatch(path + ": " + "checkpoint was written by " + std::to_string(h.rank_count) +
                               " ranks, this run has " + std::to_string(rank_count) +
                             " (restart on the same rank count)");
  if (h.rank != static_cast<std::uint32_t>(rank))
    throw file_error(path, "checkpoint belongs to rank " + std::to_string(h.rank) +
                               ", read by rank " + std::to_string(rank));
  const std::uint64_t payload = file_bytes - sizeof(Header);
  if (payload < h.payload_bytes)
    throw file_error(path, "truncated checkpoint: payload has " + std::to_string(payload) + " of " +
                               std::to_string(h.payload_bytes) + " bytes");
  if (payload > h.payload_bytes)
    throw file_error(path, "checkpoint has " + std::to_string(payload - h.payload_bytes) +
                               " bytes after its payload");
  return h;
}

CheckpointData parse_payload(PayloadReader& in) {
  CheckpointData data;
  data.case_name = in.get_string();
  data.mesh.cell_count = in.get<std::uint64_t>();
  data.mesh.face_count = in.get<std::uint64_t>();
  data.mesh.node_count = in.get<std::uint64_t>();
  data.mesh.hash = in.get<std::uint64_t>();
  data.step = in.get<std::int64_t>();
  data.time = in.get<double>();
  data.dt = in.get<double>();
  data.dt_old = in.get<double>();
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::string key = in.get_string();
    data.settings.emplace_back(std::move(key), in.get_string());
  }
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::string name = in.get_string();
    data.arrays.emplace_back(std::move(name), in.get_doubles());
  }
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::string name = in.get_string();
    data.scalars.emplace_back(std::move(name), in.get<double>());
  }
  if (in.remaining() != 0) throw in.corrupt(std::to_string(in.remaining()) + " bytes left after the last scalar");
  return data;
}

std::uint64_t settings_hash(const CaseSettings& settings) {
  Fnv1a64 h;
  for (const auto& [key, value] : settings) {
    h.update(key.data(), key.size());
    h.update(value.data(), value.size());
  }
  return h.value();
}

std::string value_in(const CaseSettings& settings, const std::string& key) {
  for (const auto& [k, v] : settings)
    if (k == key) return v;
  return "(not set)";
}

}  // namespace

std::string describe_setting_changes(const CaseSettings& checkpoint, const CaseSettings& now) {
  std::string changes;
  const auto note = [&](const std::string& key) {
    const std::string before = value_in(checkpoint, key), after = value_in(now, key);
    if (before == after || changes.find(key + ":") != std::string::npos) return;
    changes += (changes.empty() ? "" : "; ") + key + ": " + before + " in the checkpoint, " + after + " now";
  };
  for (const auto& [key, value] : checkpoint) note(key);
  for (const auto& [key, value] : now) note(key);
  return changes;
}

MeshFingerprint mesh_fingerprint(const mesh::Mesh& mesh) {
  Fnv1a64 h;
  hash_array(h, mesh.nodes);
  hash_array(h, mesh.cell_types);
  hash_array(h, mesh.cell_node_offsets);
  hash_array(h, mesh.cell_nodes);
  hash_array(h, mesh.face_node_offsets);
  hash_array(h, mesh.face_nodes);
  hash_array(h, mesh.face_owner);
  hash_array(h, mesh.face_neighbour);
  return {static_cast<std::uint64_t>(mesh.cell_count()), static_cast<std::uint64_t>(mesh.face_count()),
          static_cast<std::uint64_t>(mesh.node_count()), h.value()};
}

const std::vector<double>& CheckpointData::array(std::string_view name, std::size_t size) const {
  for (const auto& [array_name, values] : arrays) {
    if (array_name != name) continue;
    if (values.size() != size)
      throw Error("checkpoint array '" + array_name + "' has " + std::to_string(values.size()) +
                  " values, this run needs " + std::to_string(size));
    return values;
  }
  throw Error("checkpoint has no array '" + std::string(name) + "'");
}

const std::vector<double>* CheckpointData::find(std::string_view name) const {
  for (const auto& [array_name, values] : arrays)
    if (array_name == name) return &values;
  return nullptr;
}

double CheckpointData::scalar(std::string_view name) const {
  for (const auto& [scalar_name, value] : scalars)
    if (scalar_name == name) return value;
  throw Error("checkpoint has no scalar '" + std::string(name) + "'");
}

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, long step, int rank) {
  return dir / ("checkpoint_" + std::to_string(step) + "_r" + std::to_string(rank) + ".bin");
}

void write_checkpoint_temporary(const std::filesystem::path& dir, int rank, int rank_count, const CheckpointData& data) {
  ByteWriter payload;
  payload.put_string(data.case_name);
  for (std::uint64_t v : {data.mesh.cell_count, data.mesh.face_count, data.mesh.node_count, data.mesh.hash})
    payload.put(v);
  payload.put<std::int64_t>(data.step);
  for (double v : {data.time, data.dt, data.dt_old}) payload.put(v);
  payload.put<std::uint64_t>(data.settings.size());
  for (const auto& [key, value] : data.settings) {
    payload.put_string(key);
    payload.put_string(value);
  }
  payload.put<std::uint64_t>(data.arrays.size());
  for (const auto& [name, values] : data.arrays) {
    payload.put_string(name);
    payload.put_array(values);
  }
  payload.put<std::uint64_t>(data.scalars.size());
  for (const auto& [name, value] : data.scalars) {
    payload.put_string(name);
    payload.put(value);
  }
  Header h;
  std::memcpy(h.magic, magic, sizeof(magic));
  h.endian_mark = endian_mark;
  h.version = version;
  h.rank = static_cast<std::uint32_t>(rank);
  h.rank_count = static_cast<std::uint32_t>(rank_count);
  h.step = data.step;
  h.time = data.time;
  h.settings_hash = settings_hash(data.settings);
  h.mesh_hash = data.mesh.hash;
  h.payload_bytes = 0;
  Fnv1a64OfConcatenation checksum;  // the reader's one pass over the whole payload
  for (const std::string_view piece : payload.pieces()) {
    h.payload_bytes += piece.size();
    checksum.update(piece.data(), piece.size());
  }
  h.payload_checksum = checksum.value();

  std::vector<std::string_view> file{std::string_view(reinterpret_cast<const char*>(&h), sizeof(h))};
  file.insert(file.end(), payload.pieces().begin(), payload.pieces().end());
  create_folder(dir);
  write_temporary(checkpoint_path(dir, data.step, rank), file);
}

void commit_checkpoint(const std::filesystem::path& dir, long step, int rank) {
  commit_temporary(checkpoint_path(dir, step, rank));
}

CheckpointData read_checkpoint(const std::filesystem::path& dir, long step, int rank, int rank_count,
                               const MeshFingerprint& mesh) {
  const std::string path = checkpoint_path(dir, step, rank).string();
  auto [in, file_bytes] = open_checkpoint(path);
  const Header h = read_header(in, file_bytes, path, rank, rank_count);
  // The payload is parsed as it is read; a damaged one is reported as such (the checksum) before
  // whatever the parse made of it.
  PayloadReader payload(in, h.payload_bytes, path);
  const auto checksum_mismatch = [&] { return file_error(path, "checkpoint checksum mismatch: the payload is corrupt"); };
  CheckpointData data;
  try {
    data = parse_payload(payload);
  } catch (const Error&) {
    if (payload.checksum_of_all() != h.payload_checksum) throw checksum_mismatch();
    throw;
  }
  if (payload.checksum_of_all() != h.payload_checksum) throw checksum_mismatch();
  if (data.step != step || h.step != step || std::memcmp(&h.time, &data.time, sizeof(double)) != 0 ||
      h.settings_hash != settings_hash(data.settings) || h.mesh_hash != data.mesh.hash)
    throw file_error(path, "the header (step " + std::to_string(h.step) + ") does not match the payload (step " +
                               std::to_string(data.step) + ") or the file name (step " + std::to_string(step) + ")");
  if (!(data.mesh == mesh))
    throw CheckpointMismatch(path + ": checkpoint was written on another mesh (" + describe(data.mesh) +
                             "); this run's mesh has " + describe(mesh));
  return data;
}

}  // namespace miniapp::output
