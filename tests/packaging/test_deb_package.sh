#!/usr/bin/env bash
# Builds the Debian package(s) from this build tree with CPack, unpacks them into a temporary root
# (dpkg -x, nothing installed on the machine) and runs the installed programs from there:
# parascope-cli --version and evaluate, parascope --version and a headless --export.
#   test_deb_package.sh BUILD_DIR VERSION PROBE_BUILT(0|1)
set -euo pipefail
build=$1 version=$2 probe=$3
id=io.github.parascope.ParaScope
fail() { echo "FAIL: $*"; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || fail "$tool is missing (packaging/install-deps.sh installs it)"
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
app_deb=$(ls "$work"/out/parascope_"$version"-1_*.deb 2>/dev/null | head -1)
[[ -n "$app_deb" ]] || { ls "$work/out"; fail "no parascope_${version}-1_*.deb"; }
echo "built $(basename "$app_deb") ($(du -h "$app_deb" | cut -f1))"

# Dependencies: Qt 6 and QCustomPlot from dpkg-shlibdeps, the platform plugins, a CJK font.
depends=$(dpkg-deb -f "$app_deb" Depends)
recommends=$(dpkg-deb -f "$app_deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
for dep in libqt6widgets6 libqt6core6 libqcustomplot2.1 qt6-qpa-plugins libstdc++6; do
  [[ "$depends" == *"$dep"* ]] || fail "Depends lacks $dep"
done
[[ "$recommends" == *fonts-noto-cjk* ]] || fail "Recommends lacks fonts-noto-cjk"
[[ "$recommends" == *qt6-translations-l10n* ]] || fail "Recommends lacks qt6-translations-l10n"
[[ "$(dpkg-deb -f "$app_deb" Version)" == "$version-1" ]] || fail "package version is not $version-1"

root="$work/root"
dpkg -x "$app_deb" "$root"
for f in usr/bin/parascope usr/bin/parascope-cli \
         "usr/share/applications/$id.desktop" "usr/share/metainfo/$id.metainfo.xml" \
         "usr/share/mime/packages/$id.xml" "usr/share/icons/hicolor/scalable/apps/$id.svg" \
         usr/share/parascope/scenarios/default.parascope.json usr/share/parascope/presets/models/llama2-70b.json \
         usr/share/doc/parascope/copyright; do
  [[ -e "$root/$f" ]] || fail "the package lacks /$f"
done
for size in 16 24 32 48 64 128 256; do
  png="$root/usr/share/icons/hicolor/${size}x${size}/apps/$id.png"
  [[ -s "$png" ]] || fail "no ${size}px icon"
  file "$png" | grep -q "PNG image data, $size x $size" || fail "$png is not a ${size}×${size} PNG"
done
desktop-file-validate "$root/usr/share/applications/$id.desktop"

# The installed programs run from the unpacked root and find everything they need.
cli="$root/usr/bin/parascope-cli"
"$cli" --version | grep -q "^parascope-cli $version" || fail "parascope-cli --version: $("$cli" --version)"
"$cli" evaluate "$root/usr/share/parascope/scenarios/default.parascope.json" >"$work/report.txt" \
  || fail "installed parascope-cli evaluate failed"
grep -q "Llama-2 70B" "$work/report.txt" || { head -20 "$work/report.txt"; fail "unexpected report"; }
gui="$root/usr/bin/parascope"
QT_QPA_PLATFORM=offscreen "$gui" --version | grep -q "^ParaScope $version" || fail "parascope --version"
QT_QPA_PLATFORM=offscreen "$gui" "$root/usr/share/parascope/scenarios/default.parascope.json" \
  --export memory --out "$work/memory.png" --size 800x600 || fail "installed parascope --export failed"
file "$work/memory.png" | grep -q "PNG image data, 800 x 600" || fail "the export is not an 800×600 PNG"

if [[ "$probe" == 1 ]]; then
  probe_deb=$(ls "$work"/out/parascope-probe_"$version"-1_*.deb 2>/dev/null | head -1)
  [[ -n "$probe_deb" ]] || fail "the probe was built but no parascope-probe package was made"
  dpkg-deb -c "$probe_deb" | grep -q "usr/bin/parascope-probe$" || fail "the probe package lacks the probe"
  [[ "$(dpkg-deb -f "$probe_deb" Depends)" == *"parascope (= $version-1)"* ]] || fail "the probe package does not depend on parascope"
  echo "built $(basename "$probe_deb")"
fi
echo "package: OK"
