#pragma once
// Sizes as people type them, one parser for the CLI (collective --bytes) and the GUI (the
// collectives tab's size box): "1GiB", "1 GiB", "256MB", "8M", "4096", "1e9". K, M, G and T alone
// are powers of 1024, as nccl-tests' -b/-e read them; KB, MB, GB and TB are powers of 1000;
// KiB … TiB powers of 1024. Case and spaces do not matter.

#include <optional>
#include <string>

namespace parascope {

// Bytes; nullopt for anything else (no number, an unknown unit, 0 or less, not finite).
std::optional<double> parseByteSize(const std::string& text);

// "1 GiB", "256 MiB", "64 KiB", "512 B": three significant digits in the largest binary unit.
std::string byteSizeText(double bytes);

} // namespace parascope
