#pragma once
// Writing a file so that a failed write never costs the old one: the bytes go to a temporary file
// next to the target, which must then hold every byte (a full disk or the file-size limit can
// cut a write short), and only then is it renamed over the target.

#include <string>

namespace parascope {

// Returns the error ("" on success); on failure the target is untouched.
std::string writeFileAtomically(const std::string& file, const std::string& bytes);

} // namespace parascope
