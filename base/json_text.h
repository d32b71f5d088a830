// Writing JSON text for the store's `args` columns (source arguments, NVTX
// payloads): the one escaping routine importers and the collector share.
#pragma once

#include <string>
#include <string_view>

namespace damscope {

// Appends `text` as a JSON string literal, quotes included: `"`, `\` and
// control characters are escaped (RFC 8259, section 7); other bytes pass
// through, so UTF-8 stays UTF-8.
void appendJsonString(std::string& out, std::string_view text);

}  // namespace damscope
