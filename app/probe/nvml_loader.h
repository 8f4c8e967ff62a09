#pragma once
// NVML, loaded at run time (dlopen on Linux, LoadLibrary on Windows) so the probe starts on
// machines without a driver; every query answers "unknown" when NVML is not there.

#include <optional>
#include <string>

namespace probe {

class Nvml {
public:
    Nvml();
    ~Nvml();
    bool available() const { return ok_; }
    const std::string& why() const { return why_; }
    std::optional<int> pcieGeneration(int dev) const;
    std::optional<int> pcieWidth(int dev) const;
    std::optional<int> activeNvlinks(int dev) const;
    std::optional<int> nvlinkVersion(int dev) const; // of the first active link
    std::optional<std::string> topology(int a, int b) const; // NVML common ancestor: SINGLE, NODE, SYSTEM, …

private:
    void* lib_ = nullptr;
    bool ok_ = false;
    std::string why_;
};

} // namespace probe
