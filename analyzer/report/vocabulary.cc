// How the result model's vocabularies look: see vocabulary.h.
#include "analyzer/report/vocabulary.h"

namespace damscope {

std::string_view axisColour(Axis axis) {
  switch (axis) {
    case Axis::kDataStall:
      return "#d55e00";
    case Axis::kHostStall:
      return "#e69f00";
    case Axis::kSyncStall:
      return "#f0e442";
    case Axis::kExposedCommunication:
      return "#cc79a7";
    case Axis::kMemoryBound:
      return "#56b4e9";
    case Axis::kComputeBound:
      return "#0072b2";
    case Axis::kOtherIdle:
      return "#bdbdbd";
  }
  return "#bdbdbd";
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
      return "#6a51a3";
    case KernelCategory::kConvolution:
      return "#9e9ac8";
    case KernelCategory::kAttention:
      return "#762a83";
    case KernelCategory::kNormalization:
      return "#a6dba0";
    case KernelCategory::kElementwise:
      return "#7fbc41";
    case KernelCategory::kReduction:
      return "#4d9221";
    case KernelCategory::kOptimizer:
      return "#80cdc1";
    case KernelCategory::kCommunication:
      return "#1b7837";
    case KernelCategory::kMemory:
      return "#c2a5cf";
    case KernelCategory::kOther:
      return "#737373";
  }
  return "#737373";
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
