// Wave quantization: see wave_quantization.h.
#include "analyzer/analyses/wave_quantization.h"

#include <cmath>

namespace damscope {

double waveUtilization(double units, double slots) {
  if (!(units > 0) || !(slots > 0)) return 0;
  // Each wave fills `slots`; ceil(units / slots) waves run, the last one
  // partly empty.
  return units / (std::ceil(units / slots) * slots);
}

}  // namespace damscope
