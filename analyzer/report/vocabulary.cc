// How the result model's vocabularies look: see vocabulary.h.
#include "analyzer/report/vocabulary.h"

namespace damscope {

std::string_view axisColour(Axis axis) {
  switch (axis) {
    case Axis::kDataStall:
      return "#d1495b";
    case Axis::kHostStall:
      return "#f28e2b";
    case Axis::kSyncStall:
      return "#9c6ade";
    case Axis::kExposedCommunication:
      return "#3b82c4";
    case Axis::kMemoryBound:
      return "#2bb3a3";
    case Axis::kComputeBound:
      return "#4c9f38";
    case Axis::kOtherIdle:
      return "#b8b8b8";
  }
  return "#b8b8b8";
}

std::string_view causeColour(GapCause cause) {
  switch (cause) {
    case GapCause::kDataLoading:
      return axisColour(Axis::kDataStall);
    case GapCause::kHostLaunch:
      return axisColour(Axis::kHostStall);
    case GapCause::kSynchronization:
      return axisColour(Axis::kSyncStall);
    case GapCause::kCommunicationWait:
      return axisColour(Axis::kExposedCommunication);
    case GapCause::kOther:
      return axisColour(Axis::kOtherIdle);
  }
  return axisColour(Axis::kOtherIdle);
}

std::string_view causeLabel(GapCause cause) {
  switch (cause) {
    case GapCause::kDataLoading:
      return "data loading";
    case GapCause::kHostLaunch:
      return "host launch";
    case GapCause::kSynchronization:
      return "synchronization";
    case GapCause::kCommunicationWait:
      return "communication wait";
    case GapCause::kOther:
      return "other";
  }
  return "other";
}

std::string_view categoryColour(KernelCategory category) {
  switch (category) {
    case KernelCategory::kGemm:
      return "#2f6eb5";
    case KernelCategory::kConvolution:
      return "#6a51a3";
    case KernelCategory::kAttention:
      return "#c0392b";
    case KernelCategory::kNormalization:
      return "#e6a100";
    case KernelCategory::kElementwise:
      return "#27a59a";
    case KernelCategory::kReduction:
      return "#8c6d31";
    case KernelCategory::kOptimizer:
      return "#d4589c";
    case KernelCategory::kCommunication:
      return "#1b9e3e";
    case KernelCategory::kMemory:
      return "#7f8c8d";
    case KernelCategory::kOther:
      return "#a3a3a3";
  }
  return "#a3a3a3";
}

std::string_view verdictColour(Verdict verdict) {
  switch (verdict) {
    case Verdict::kDataBound:
      return axisColour(Axis::kDataStall);
    case Verdict::kHostBound:
      return axisColour(Axis::kHostStall);
    case Verdict::kCommunicationBound:
      return axisColour(Axis::kExposedCommunication);
    case Verdict::kMemoryBound:
      return axisColour(Axis::kMemoryBound);
    case Verdict::kComputeBound:
      return axisColour(Axis::kComputeBound);
    case Verdict::kStarved:
      return axisColour(Axis::kOtherIdle);
    case Verdict::kNone:
      break;
  }
  return "#6b7280";
}

}  // namespace damscope
