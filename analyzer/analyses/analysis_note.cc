// Analysis notes: see analysis_note.h.
#include "analyzer/analyses/analysis_note.h"

namespace damscope {

std::string_view toText(Remedy remedy) {
  switch (remedy) {
    case Remedy::kNone:
      return "";
    case Remedy::kDevice:
      return "device";
    case Remedy::kModel:
      return "model";
    case Remedy::kTokens:
      return "tokens";
  }
  return "";
}

}  // namespace damscope
