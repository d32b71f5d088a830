// Valid UTF-8, the one encoding damscope stores and prints. Traces are
// untrusted input: a kernel name, a path, an nsys string table can hold any
// bytes, and one invalid byte would make every JSON writer fail on the file
// forever after. So text is made valid once, where it enters the store
// (StringPool::intern, the writer's text columns) and where it is read back
// from a file someone else may have written; invalid bytes become U+FFFD, the
// replacement character (Unicode 15, section 3.9, "U+FFFD Substitution of
// Maximal Subparts": here simply one per invalid byte).
#pragma once

#include <string>
#include <string_view>

namespace damscope {

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF).
bool isValidUtf8(std::string_view text);

// `text` with every byte that is not part of a well-formed sequence replaced
// by U+FFFD; valid text comes back unchanged.
std::string toValidUtf8(std::string_view text);

}  // namespace damscope
