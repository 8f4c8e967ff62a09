#!/usr/bin/env bash
# Installs the Debian 12 packages ParaScope needs to build, test and run.
# Skips what is already installed; works as root or through sudo.
#   packaging/install-deps.sh            build + test + run dependencies
#   packaging/install-deps.sh --runtime  only what the installed app needs
#   packaging/install-deps.sh --web      what the web edition builds and tests with (packaging/web)
set -euo pipefail

build_pkgs=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools libqcustomplot-dev nlohmann-json3-dev libgl-dev
)
runtime_pkgs=(
  libqt6widgets6 libqt6svg6 libqt6printsupport6 libqcustomplot2.1-qt6
  qt6-qpa-plugins qt6-translations-l10n fonts-noto-cjk
)
# Packaging tests: build and unpack the .deb, validate the desktop entry, AppStream and MIME data;
# python3 runs the function-length check (tests/architecture/function_sizes.py), clang-format the
# format check (tests/architecture/format.sh).
test_pkgs=( python3 clang-format xvfb xauth imagemagick dpkg-dev file desktop-file-utils appstream shared-mime-info )
# Fuzzing (tests/fuzz/run-fuzz.sh): clang and its libFuzzer/sanitizer runtimes. The
# instruction-count guard (tests/perf/check-instructions.sh): valgrind (callgrind, and the
# client-request header count_instructions is built with).
fuzz_pkgs=( clang libclang-rt-14-dev valgrind )

# The web edition (packaging/web/build.sh): emscripten compiles the engine (its JavaScript tools
# run on node, with Debian's node-acorn), npm installs the page's libraries from the lockfile,
# chromium runs the browser tests headless, fonts-noto-cjk draws the Chinese in its screenshots.
# A machine whose node came from elsewhere (NodeSource) keeps it: npm is then asked for only when
# no npm is on the PATH.
web_pkgs=( cmake ninja-build git nlohmann-json3-dev emscripten chromium fonts-noto-cjk )
command -v node >/dev/null 2>&1 || web_pkgs+=( nodejs )
command -v npm >/dev/null 2>&1 || web_pkgs+=( npm )

case "${1:-}" in
  --runtime) wanted=("${runtime_pkgs[@]}") ;;
  --web) wanted=("${web_pkgs[@]}") ;;
  *) wanted=("${runtime_pkgs[@]}" "${build_pkgs[@]}" "${test_pkgs[@]}" "${fuzz_pkgs[@]}") ;;
esac

missing=()
for p in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#wanted[@]} packages already installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
