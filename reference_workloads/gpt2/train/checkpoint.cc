// Checkpoints: see checkpoint.h.
#include "reference_workloads/gpt2/train/checkpoint.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

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

class Reader {
 public:
  explicit Reader(const std::string& path) : in_(path, std::ios::binary) {}
  bool ok() const { return static_cast<bool>(in_); }
  template <typename T>
  bool get(T& v) {
    return static_cast<bool>(in_.read(reinterpret_cast<char*>(&v), sizeof v));
  }
  bool getString(std::string& s) {
    uint32_t n = 0;
    if (!get(n) || n > 4096) return false;
    s.resize(n);
    return static_cast<bool>(in_.read(s.data(), n));
  }
  bool getFloats(float* v, size_t n) {
    return static_cast<bool>(
        in_.read(reinterpret_cast<char*>(v), static_cast<std::streamsize>(n * sizeof(float))));
  }
  bool atEnd() { return in_.peek() == std::char_traits<char>::eof(); }

 private:
  std::ifstream in_;
};

Result<CheckpointHeader> readHeader(Reader& r, const std::string& path) {
  if (!r.ok()) return Error(path + ": cannot open the checkpoint");
  char magic[8];
  uint32_t version = 0;
  if (!r.get(magic) || std::memcmp(magic, kMagic, sizeof magic) != 0)
    return Error(path + ": not a gpt2-train checkpoint");
  if (!r.get(version) || version != kVersion) {
    return Error(path + ": checkpoint version " + std::to_string(version) + ", expected " +
                 std::to_string(kVersion));
  }
  CheckpointHeader h;
  ModelConfig& c = h.config;
  if (!r.get(c.layers) || !r.get(c.d_model) || !r.get(c.heads) || !r.get(c.max_seq) ||
      !r.get(c.vocab) || !r.get(c.padded_vocab) || !r.getString(c.name) || !r.get(h.steps) ||
      !r.get(h.seed) || !r.get(h.batch) || !r.get(h.seq) || !r.get(h.next_batch) ||
      !r.getString(h.data)) {
    return Error(path + ": truncated checkpoint header");
  }
  if (c.layers <= 0 || c.d_model <= 0 || c.heads <= 0 || c.d_model % c.heads != 0 ||
      c.max_seq <= 0 || c.vocab <= 0 || c.padded_vocab < c.vocab || h.steps < 0 || h.batch <= 0 ||
      h.seq <= 0 || h.seq > c.max_seq) {
    return Error(path + ": the checkpoint header holds impossible values");
  }
  return h;
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
  Reader r(path);
  return readHeader(r, path);
}

Status loadCheckpointState(const std::string& path, Gpt2Model& model) {
  Reader r(path);
  DAMSCOPE_ASSIGN_OR_RETURN(const CheckpointHeader h, readHeader(r, path));
  uint64_t n = 0;
  if (!r.get(n)) return Error(path + ": truncated checkpoint");
  if (n != model.layout().total()) {
    return Error(path + ": the checkpoint holds " + std::to_string(n) +
                 " parameters, the model has " + std::to_string(model.layout().total()));
  }
  std::vector<float> buffer(n);
  for (StateBuffer which : {StateBuffer::kParams, StateBuffer::kAdamM, StateBuffer::kAdamV}) {
    if (!r.getFloats(buffer.data(), n)) return Error(path + ": truncated checkpoint");
    model.upload(which, buffer.data());
  }
  if (!r.atEnd()) return Error(path + ": unexpected bytes after the checkpoint's data");
  model.setOptimizerSteps(h.steps);
  return okStatus();
}

}  // namespace damscope::gpt2
