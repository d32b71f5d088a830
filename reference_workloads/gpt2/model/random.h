// The trainer's random numbers: SplitMix64 (Steele, Lea & Flood, "Fast
// Splittable Pseudorandom Number Generators", OOPSLA 2014) for integers and
// seeds, Box-Muller for normals. Chosen over <random> because the standard
// distributions are implementation-defined: the same seed must give the same
// model and the same batches with any standard library.
#pragma once

#include <cmath>
#include <cstdint>

namespace damscope::gpt2 {

// One SplitMix64 output for a state; also a good 64-bit mixing function.
inline uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A seed for a sub-stream (a tensor, a batch, a sequence) of a run's seed.
inline uint64_t mixSeed(uint64_t seed, uint64_t stream) {
  return splitMix64(seed ^ splitMix64(stream));
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  // The generator of `seed` after k outputs: SplitMix64's state only adds a
  // constant per output, so any point of a stream is one multiply away.
  static Rng after(uint64_t seed, uint64_t k) { return Rng(seed + k * kGamma); }
  uint64_t next() {
    const uint64_t out = splitMix64(state_);  // adds the increment, then mixes
    state_ += kGamma;
    return out;
  }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below
  // 2^-32 for the small n used here).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * uint64_t{n}) >> 32); }
  // Uniform in (0, 1): 24 random bits, never 0 (Box-Muller takes its log).
  float uniform() { return (static_cast<float>(next() >> 40) + 0.5f) * 0x1.0p-24f; }

 private:
  static constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ull;  // splitMix64's increment
  uint64_t state_;
};

// Standard normal deviates by the Box-Muller transform (Box & Muller, 1958),
// both outputs of each pair used.
class Normal {
 public:
  explicit Normal(uint64_t seed) : rng_(seed) {}
  // The deviates of Normal(seed) from the pair `pair` on (deviates 2 pair,
  // 2 pair + 1, ...): each pair takes two uniforms.
  static Normal fromPair(uint64_t seed, uint64_t pair) {
    Normal n(0);
    n.rng_ = Rng::after(seed, 2 * pair);
    return n;
  }
  float next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(static_cast<double>(rng_.uniform())));
    const double theta = 6.283185307179586 * rng_.uniform();
    spare_ = static_cast<float>(r * std::sin(theta));
    has_spare_ = true;
    return static_cast<float>(r * std::cos(theta));
  }

 private:
  Rng rng_;
  float spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace damscope::gpt2
