// Checkpoints: see checkpoint.h.
#include "reference_workloads/gpt2/train/checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "base/input_fd.h"
#include "reference_workloads/gpt2/model/parameters.h"

namespace damscope::gpt2 {
namespace {

constexpr char kMagic[8] = {'G', 'P', 'T', '2', 'C', 'K', 'P', 'T'};
constexpr uint32_t kVersion = 1;

class Writer {
 public:
  explicit Writer(const std::string& path) : out_(path, std::ios::binary | std::ios::trunc) {}
  bool ok() const { return static_cast<bool>(out_); }
  template <typename T>
  void put(const T& v) {
    out_.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void putString(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    out_.write(s.data(), static_cast<std::streamsize>(s.size()));
  }
  void putFloats(const std::vector<float>& v) {
    out_.write(reinterpret_cast<const char*>(v.data()),
               static_cast<std::streamsize>(v.size() * sizeof(float)));
  }
  bool close() {
    out_.close();
    return !out_.fail();
  }

 private:
  std::ofstream out_;
};

// Reads a checkpoint through the one door of every input (base/input_fd.h:
// a FIFO or a directory is refused before a byte is read), never past the
// size the file had when it was opened.
class Reader {
 public:
  static Result<Reader> open(const std::string& path) {
    DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, InputFd::open(path));
    return Reader(std::move(file));
  }
  template <typename T>
  bool get(T& v) {
    return readExactly(reinterpret_cast<char*>(&v), sizeof v);
  }
  // A length-prefixed string of at most kMaxStringBytes printable bytes: a
  // length that points into the tensors would show their bytes as text.
  bool getString(std::string& s) {
    uint32_t n = 0;
    if (!get(n) || n > kMaxStringBytes) return false;
    s.resize(n);
    if (!readExactly(s.data(), n)) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0x20 && u != 0x7f;
    });
  }
  bool getFloats(float* v, size_t n) {
    return readExactly(reinterpret_cast<char*>(v), n * sizeof(float));
  }
  // Bytes after the current position, of the size the file had when opened.
  size_t remaining() const { return file_.sizeBytes() - offset_; }

 private:
  // The longest config name or data description written (a file name and
  // its size); longer is not a checkpoint of ours.
  static constexpr uint32_t kMaxStringBytes = 4096;

  explicit Reader(InputFd file) : file_(std::move(file)) {}
  bool readExactly(char* into, size_t n) {
    if (n > remaining()) return false;
    auto got = file_.read(into, n);
    if (!got || *got != n) return false;
    offset_ += n;
    return true;
  }

  InputFd file_;
  size_t offset_ = 0;
};

// The header, and the tensors' length checked against the file: each
// length in the file agrees with the config and with the bytes that follow,
// so that a damaged length is refused rather than read as something else.
struct CheckedHeader {
  CheckpointHeader header;
  uint64_t floats = 0;  // per state buffer
};

Result<CheckedHeader> readHeader(Reader& r, const std::string& path) {
  char magic[8];
  uint32_t version = 0;
  if (!r.get(magic) || std::memcmp(magic, kMagic, sizeof magic) != 0)
    return Error(path + ": not a gpt2-train checkpoint");
  if (!r.get(version) || version != kVersion) {
    return Error(path + ": checkpoint version " + std::to_string(version) + ", expected " +
                 std::to_string(kVersion));
  }
  CheckedHeader checked;
  CheckpointHeader& h = checked.header;
  ModelConfig& c = h.config;
  if (!r.get(c.layers) || !r.get(c.d_model) || !r.get(c.heads) || !r.get(c.max_seq) ||
      !r.get(c.vocab) || !r.get(c.padded_vocab) || !r.getString(c.name) || !r.get(h.steps) ||
      !r.get(h.seed) || !r.get(h.batch) || !r.get(h.seq) || !r.get(h.next_batch) ||
      !r.getString(h.data) || !r.get(checked.floats)) {
    return Error(path + ": truncated or damaged checkpoint header");
  }
  // Only the presets are trained (model/config.h): a config that is none of
  // them was not written by gpt2-train.
  auto preset = findConfig(c.name, c.padded_vocab != c.vocab);
  if (!preset || preset->layers != c.layers || preset->d_model != c.d_model ||
      preset->heads != c.heads || preset->max_seq != c.max_seq || preset->vocab != c.vocab ||
      preset->padded_vocab != c.padded_vocab || h.steps < 0 || h.batch <= 0 || h.seq <= 0 ||
      h.seq > c.max_seq || h.next_batch < 0) {
    return Error(path + ": the checkpoint header holds impossible values");
  }
  const uint64_t expected = ParameterLayout(c).total();
  if (checked.floats != expected) {
    return Error(path + ": the checkpoint holds " + std::to_string(checked.floats) +
                 " parameters, config " + c.name + " has " + std::to_string(expected));
  }
  // Three state buffers follow (parameters, AdamW m and v), then nothing.
  const uint64_t tensor_bytes = 3 * expected * sizeof(float);
  if (r.remaining() != tensor_bytes) {
    return Error(path + ": the checkpoint has " + std::to_string(r.remaining()) +
                 " bytes of tensors, its header announces " + std::to_string(tensor_bytes));
  }
  return checked;
}

}  // namespace

Status saveCheckpoint(const std::string& path, const CheckpointHeader& h, const Gpt2Model& model) {
  const std::string temporary = path + ".tmp";
  const size_t n = model.layout().total();
  std::vector<float> buffer(n);
  {
    Writer w(temporary);
    if (!w.ok()) return Error(temporary + ": cannot write the checkpoint", ErrorCode::kFailure);
    w.put(kMagic);
    w.put(kVersion);
    const ModelConfig& c = h.config;
    w.put(c.layers);
    w.put(c.d_model);
    w.put(c.heads);
    w.put(c.max_seq);
    w.put(c.vocab);
    w.put(c.padded_vocab);
    w.putString(c.name);
    w.put(h.steps);
    w.put(h.seed);
    w.put(h.batch);
    w.put(h.seq);
    w.put(h.next_batch);
    w.putString(h.data);
    w.put(static_cast<uint64_t>(n));
    for (StateBuffer which : {StateBuffer::kParams, StateBuffer::kAdamM, StateBuffer::kAdamV}) {
      model.download(which, buffer.data());
      w.putFloats(buffer);
    }
    if (!w.close()) {
      std::remove(temporary.c_str());
      return Error(temporary + ": writing the checkpoint failed", ErrorCode::kFailure);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return Error(path + ": cannot rename the checkpoint into place", ErrorCode::kFailure);
  }
  return okStatus();
}

Result<CheckpointHeader> readCheckpointHeader(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Reader r, Reader::open(path));
  DAMSCOPE_ASSIGN_OR_RETURN(CheckedHeader checked, readHeader(r, path));
  return checked.header;
}

Status loadCheckpointState(const std::string& path, Gpt2Model& model) {
  DAMSCOPE_ASSIGN_OR_RETURN(Reader r, Reader::open(path));
  DAMSCOPE_ASSIGN_OR_RETURN(const CheckedHeader checked, readHeader(r, path));
  const uint64_t n = checked.floats;
  if (n != model.layout().total()) {
    return Error(path + ": the checkpoint holds " + std::to_string(n) +
                 " parameters, the model has " + std::to_string(model.layout().total()));
  }
  std::vector<float> buffer(n);
  for (StateBuffer which : {StateBuffer::kParams, StateBuffer::kAdamM, StateBuffer::kAdamV}) {
    if (!r.getFloats(buffer.data(), n)) return Error(path + ": truncated checkpoint");
    model.upload(which, buffer.data());
  }
  model.setOptimizerSteps(checked.header.steps);
  return okStatus();
}

}  // namespace damscope::gpt2
