// Who already holds CUPTI: see cupti_holder.h.
#include "collector/cupti_holder.h"

#include <vector>

namespace damscope::collector {

std::string describeCuptiHolder(std::string_view proc_maps, const GetEnv& getenv) {
  struct Signature {
    const char* library;  // substring of a mapped file name
    const char* tool;
  };
  // The injection libraries each tool loads into the profiled process.
  static const Signature kSignatures[] = {
      {"libToolsInjection", "Nsight Systems (nsys)"},
      {"libTreeLauncherTargetInjection", "Nsight Compute (ncu)"},
      {"libInterceptorInjectionTarget", "Nsight Compute (ncu)"},
      {"libdcgm", "DCGM (NVIDIA Data Center GPU Manager) profiling"},
      {"libkineto", "PyTorch's profiler (Kineto)"},
      {"libtorch_cuda",
       "PyTorch's profiler (torch.profiler / Kineto), if a profiling session is active"},
      {"libtensorflow", "TensorFlow's profiler"},
      {"xla_extension", "JAX/XLA's profiler"},
  };
  std::vector<std::string> found;
  auto add = [&](const std::string& what) {
    for (const auto& f : found) {
      if (f == what) return;
    }
    found.push_back(what);
  };
  for (const Signature& s : kSignatures) {
    const size_t at = proc_maps.find(s.library);
    if (at == std::string_view::npos) continue;
    // Quote the file name as mapped (up to the end of its line).
    const size_t slash = proc_maps.rfind('/', at);
    const size_t start = slash == std::string_view::npos ? at : slash + 1;
    const size_t end = proc_maps.find('\n', at);
    std::string file(proc_maps.substr(
        start, end == std::string_view::npos ? std::string_view::npos : end - start));
    add(std::string(s.tool) + " (" + file + " is loaded)");
  }
  if (const char* v = getenv("NSYS_PROFILING_SESSION_ID"); v && *v) {
    add("Nsight Systems (NSYS_PROFILING_SESSION_ID is set)");
  }
  if (found.empty()) {
    return "another profiling tool in this process (Nsight Systems, Nsight Compute, PyTorch's "
           "profiler, DCGM, ...)";
  }
  std::string text = found[0];
  for (size_t i = 1; i < found.size(); ++i)
    text += (i + 1 == found.size() ? " or " : ", ") + found[i];
  return text;
}

}  // namespace damscope::collector
