#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace parascope {

std::string writeFileAtomically(const std::string& file, const std::string& bytes)
{
    namespace fs = std::filesystem;
    const fs::path target(file);
    const fs::path tmp = target.string() + ".parascope-tmp";
    std::error_code ec;
    {
        errno = 0;
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            return "cannot write " + file + (errno ? ": " + std::string(std::strerror(errno)) : std::string());
        f.write(bytes.data(), std::streamsize(bytes.size()));
        f.flush();
        if (!f) {
            f.close();
            fs::remove(tmp, ec);
            return "cannot write " + file + " (disk full or file too large?)";
        }
    }
    const auto size = fs::file_size(tmp, ec);
    if (ec || size != bytes.size()) {
        fs::remove(tmp, ec);
        return "cannot write " + file + ": only part of it reached the disk (disk full or file too large?)";
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(tmp, ec);
        return "cannot write " + file + ": " + why;
    }
    return {};
}

} // namespace parascope
