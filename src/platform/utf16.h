// UTF-8 <-> UTF-16 for the Win32 calls that take paths. dccuda's strings,
// the public API's included, are UTF-8; every Win32 call dccuda makes with a
// path goes through its "W" form with the converted text, never the "A" form
// (whose code page mangles names outside it). Windows only.
#pragma once
#if defined(_WIN32)

#include <string>

namespace dc::platform {

// The UTF-16 form of UTF-8 text; empty (with *ok false, where given) if the
// text is not valid UTF-8.
std::wstring widen(const std::string& utf8, bool* ok = nullptr);

// The UTF-8 form of UTF-16 text (an unpaired surrogate becomes U+FFFD).
std::string narrow(const std::wstring& utf16);

// A Win32 error code as text ("The system cannot find the file specified.
// (error 2)").
std::string windows_error_text(unsigned long code);

}  // namespace dc::platform

#endif  // _WIN32
