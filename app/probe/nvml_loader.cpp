#include "nvml_loader.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace probe {

namespace {
// The few NVML entry points used, declared here (nvml.h is not needed at build time).
using nvmlReturn = int;
using nvmlDevice = void*;
using InitFn = nvmlReturn (*)();
using ShutdownFn = nvmlReturn (*)();
using HandleFn = nvmlReturn (*)(unsigned, nvmlDevice*);
using UintFn = nvmlReturn (*)(nvmlDevice, unsigned*);
using LinkStateFn = nvmlReturn (*)(nvmlDevice, unsigned, int*);
using LinkVersionFn = nvmlReturn (*)(nvmlDevice, unsigned, unsigned*);
using AncestorFn = nvmlReturn (*)(nvmlDevice, nvmlDevice, int*);

void* symbol(void* lib, const char* name)
{
#if defined(_WIN32)
    return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(lib), name));
#else
    return dlsym(lib, name);
#endif
}

template <typename F> F fn(void* lib, const char* name) { return reinterpret_cast<F>(symbol(lib, name)); }
} // namespace

Nvml::Nvml()
{
#if defined(_WIN32)
    lib_ = LoadLibraryA("nvml.dll");
#else
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
#endif
    if (!lib_) {
        why_ = "NVML (libnvidia-ml) is not installed: no driver";
        return;
    }
    auto init = fn<InitFn>(lib_, "nvmlInit_v2");
    if (!init || init() != 0) {
        why_ = "nvmlInit failed";
        return;
    }
    ok_ = true;
}

Nvml::~Nvml()
{
    if (ok_)
        if (auto shutdown = fn<ShutdownFn>(lib_, "nvmlShutdown"))
            shutdown();
#if defined(_WIN32)
    if (lib_)
        FreeLibrary(static_cast<HMODULE>(lib_));
#else
    if (lib_)
        dlclose(lib_);
#endif
}

namespace {
std::optional<int> uintQuery(void* lib, bool ok, int dev, const char* name)
{
    if (!ok)
        return std::nullopt;
    auto handle = fn<HandleFn>(lib, "nvmlDeviceGetHandleByIndex_v2");
    auto query = fn<UintFn>(lib, name);
    nvmlDevice d = nullptr;
    unsigned v = 0;
    if (!handle || !query || handle(unsigned(dev), &d) != 0 || query(d, &v) != 0)
        return std::nullopt;
    return int(v);
}
} // namespace

std::optional<int> Nvml::pcieGeneration(int dev) const
{
    return uintQuery(lib_, ok_, dev, "nvmlDeviceGetCurrPcieLinkGeneration");
}
std::optional<int> Nvml::pcieWidth(int dev) const
{
    return uintQuery(lib_, ok_, dev, "nvmlDeviceGetCurrPcieLinkWidth");
}

std::optional<int> Nvml::activeNvlinks(int dev) const
{
    if (!ok_)
        return std::nullopt;
    auto handle = fn<HandleFn>(lib_, "nvmlDeviceGetHandleByIndex_v2");
    auto state = fn<LinkStateFn>(lib_, "nvmlDeviceGetNvLinkState");
    nvmlDevice d = nullptr;
    if (!handle || !state || handle(unsigned(dev), &d) != 0)
        return std::nullopt;
    int active = 0;
    for (unsigned link = 0; link < 18; ++link) { // NVML_NVLINK_MAX_LINKS
        int on = 0;
        if (state(d, link, &on) == 0 && on)
            ++active;
    }
    return active;
}

std::optional<int> Nvml::nvlinkVersion(int dev) const
{
    if (!ok_)
        return std::nullopt;
    auto handle = fn<HandleFn>(lib_, "nvmlDeviceGetHandleByIndex_v2");
    auto state = fn<LinkStateFn>(lib_, "nvmlDeviceGetNvLinkState");
    auto version = fn<LinkVersionFn>(lib_, "nvmlDeviceGetNvLinkVersion");
    nvmlDevice d = nullptr;
    if (!handle || !state || !version || handle(unsigned(dev), &d) != 0)
        return std::nullopt;
    for (unsigned link = 0; link < 18; ++link) {
        int on = 0;
        unsigned v = 0;
        if (state(d, link, &on) == 0 && on && version(d, link, &v) == 0)
            return int(v);
    }
    return std::nullopt;
}

std::optional<std::string> Nvml::topology(int a, int b) const
{
    if (!ok_)
        return std::nullopt;
    auto handle = fn<HandleFn>(lib_, "nvmlDeviceGetHandleByIndex_v2");
    auto ancestor = fn<AncestorFn>(lib_, "nvmlDeviceGetTopologyCommonAncestor");
    nvmlDevice da = nullptr, db = nullptr;
    int level = 0;
    if (!handle || !ancestor || handle(unsigned(a), &da) != 0 || handle(unsigned(b), &db) != 0
        || ancestor(da, db, &level) != 0)
        return std::nullopt;
    // nvmlGpuTopologyLevel_t: 0 internal, 10 single switch, 20 multiple switches, 30 host bridge,
    // 40 NUMA node, 50 system.
    switch (level) {
    case 0: return std::string("INTERNAL");
    case 10: return std::string("SINGLE");
    case 20: return std::string("MULTIPLE");
    case 30: return std::string("HOSTBRIDGE");
    case 40: return std::string("NODE");
    case 50: return std::string("SYSTEM");
    default: return std::to_string(level);
    }
}

} // namespace probe
