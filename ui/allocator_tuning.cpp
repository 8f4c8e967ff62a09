#include "allocator_tuning.h"

#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__GLIBC__) && defined(__linux__)
#include <unistd.h>
#endif

namespace parascope::ui {

void tuneAllocatorForRedraws(char** argv)
{
#if defined(__GLIBC__) && defined(__linux__)
    const char* current = std::getenv("GLIBC_TUNABLES");
    if (current && std::strstr(current, "glibc.malloc.trim_threshold"))
        return; // already tuned (by this function, or by the user's choice)
    const std::string tunables
        = current && *current ? std::string(current) + ":" + kAllocatorTunables : kAllocatorTunables;
    if (::setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0)
        return;
    ::execv("/proc/self/exe", argv);
    // Still here: /proc is not mounted or exec is refused; run as is.
#else
    (void)argv;
#endif
}

} // namespace parascope::ui
