// libFuzzer target: hardware profiles, nccl-tests logs, runs files, Hugging Face configs, Megatron
// arguments and PyTorch profiler traces (see fuzz_targets.h). Built by the
// "fuzz" preset (clang); run by tests/fuzz/run-fuzz.sh.

#include "fuzz_targets.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    parascope::fuzz::measurementFile(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
