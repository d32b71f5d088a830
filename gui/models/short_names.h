// Names short enough to read in a chart's axis or a table's column, the
// same in both. Kernels: "void " and the argument list dropped, template
// arguments folded to "<…>", then elided to a length, and made unique among
// the names shown together. The whole name stays in tooltips and the Event
// dock. nsys offers the same as its "base" kernel names
// (`nsys stats --report cuda_gpu_kern_sum:base`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace damscope {

// "void at::native::vectorized_elementwise_kernel<4, ...>(...)" ->
// "at::native::vectorized_elementwise_kernel<…>"; longer than `max`
// characters, leading namespaces go first ("…::implicit_convolve_sgemm<…>"),
// then the middle.
std::string kernelLabel(std::string_view name, size_t max = 44);

// The labels made unique, in order: a label already taken by an earlier one
// gets " (2)", " (3)", ... A chart's category axis merges equal labels, and a
// table must tell its rows apart.
std::vector<std::string> uniqueLabels(std::vector<std::string> labels);

// kernelLabel of each name, made unique ("f<…>", "f<…> (2)" for f<int> and
// f<float>), so the chart and the table name the same kernel alike.
std::vector<std::string> kernelLabels(const std::vector<std::string_view>& names, size_t max = 44);

}  // namespace damscope
