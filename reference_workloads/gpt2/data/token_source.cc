// Token sources: see token_source.h.
#include "reference_workloads/gpt2/data/token_source.h"

#include "base/input_fd.h"
#include "reference_workloads/gpt2/model/random.h"

namespace damscope::gpt2 {
namespace {

// Stream ids for the seed mixer, so that the words, the batches and the
// sequences draw from unrelated streams.
constexpr uint64_t kWordsStream = 0x776f726473ull;
constexpr uint64_t kBatchStream = 0x6261746368ull;

std::string withThousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

uint64_t sequenceSeed(uint64_t seed, int64_t batch, int b) {
  return mixSeed(mixSeed(seed, kBatchStream + static_cast<uint64_t>(batch)), b);
}

}  // namespace

Result<TokenSource> TokenSource::fromFile(const std::string& path, int64_t min_tokens) {
  auto file = InputFd::open(path);
  if (!file) return file.error();
  if (file->sizeBytes() > kMaxDataBytes) {
    return Error(path + ": the data file has " + withThousands(file->sizeBytes()) +
                 " bytes; at most " + withThousands(kMaxDataBytes) + " are read");
  }
  TokenSource s;
  // The size taken when the file was opened: a file that grows meanwhile is
  // read no further.
  s.bytes_.resize(file->sizeBytes());
  auto got = file->read(reinterpret_cast<char*>(s.bytes_.data()), s.bytes_.size());
  if (!got) return got.error();
  s.bytes_.resize(*got);
  if (s.bytes_.empty()) return Error(path + ": the data file is empty");
  if (static_cast<int64_t>(s.bytes_.size()) < min_tokens) {
    return Error(path + ": the data file has " + withThousands(s.bytes_.size()) +
                 " bytes; one sequence needs " + withThousands(min_tokens) +
                 " (--seq + 1 byte tokens)");
  }
  const size_t slash = path.find_last_of('/');
  s.description_ = (slash == std::string::npos ? path : path.substr(slash + 1)) + " (" +
                   withThousands(s.bytes_.size()) + " bytes)";
  return s;
}

// The synthetic language: 32 words of 2 to 7 lowercase letters, each followed
// by a space and then by one of three successors with probabilities 0.6, 0.3
// and 0.1 (a first-order Markov chain over words). Within a word every byte
// is determined, so a model that learns the words and the chain reaches a
// loss far below ln(256); the successor choice keeps it above zero.
TokenSource TokenSource::synthetic(uint64_t seed) {
  TokenSource s;
  Rng rng(mixSeed(seed, kWordsStream));
  constexpr int kWords = 32;
  s.words_.resize(kWords);
  for (Word& w : s.words_) {
    const int length = 2 + static_cast<int>(rng.below(6));
    for (int i = 0; i < length; ++i) w.letters += static_cast<char>('a' + rng.below(26));
    for (int& n : w.next) n = static_cast<int>(rng.below(kWords));
  }
  s.description_ = "synthetic (seed " + std::to_string(seed) + ")";
  return s;
}

void TokenSource::fillSequence(uint64_t seed, int64_t batch, int b, int length,
                               int32_t* out) const {
  Rng rng(sequenceSeed(seed, batch, b));
  if (!bytes_.empty()) {
    const uint64_t windows = bytes_.size() - length + 1;  // fromFile checked size >= length
    const uint64_t start = rng.next() % windows;
    for (int i = 0; i < length; ++i) out[i] = bytes_[start + i];
    return;
  }
  int word = static_cast<int>(rng.below(static_cast<uint32_t>(words_.size())));
  size_t letter = rng.below(static_cast<uint32_t>(words_[word].letters.size() + 1));
  for (int i = 0; i < length; ++i) {
    const std::string& letters = words_[word].letters;
    if (letter < letters.size()) {
      out[i] = static_cast<uint8_t>(letters[letter++]);
      continue;
    }
    out[i] = ' ';
    const uint32_t r = rng.below(10);
    word = words_[word].next[r < 6 ? 0 : r < 9 ? 1 : 2];
    letter = 0;
  }
}

}  // namespace damscope::gpt2
