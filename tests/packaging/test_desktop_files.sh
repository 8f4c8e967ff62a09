#!/usr/bin/env bash
# The desktop entry, the AppStream metainfo and the MIME type validate with the freedesktop
# tools, and the metainfo's latest release is the project version.
#   test_desktop_files.sh SOURCE_DIR VERSION
set -euo pipefail
src=$1 version=$2
linux="$src/packaging/linux"
id=io.github.parascope.ParaScope
for tool in desktop-file-validate appstreamcli update-mime-database; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (packaging/install-deps.sh installs it)"; exit 1; }
done

desktop-file-validate "$linux/$id.desktop"
appstreamcli validate --no-net "$linux/$id.metainfo.xml"

latest=$(grep -o '<release version="[^"]*"' "$linux/$id.metainfo.xml" | head -1 | cut -d'"' -f2)
[[ "$latest" == "$version" ]] || { echo "FAIL: metainfo's latest release is $latest, project(VERSION) is $version"; exit 1; }

# The MIME type compiles, and *.parascope.json maps to it ahead of plain JSON.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mime/packages"
cp "$linux/parascope-mime.xml" "$tmp/mime/packages/$id.xml"
# (It notes that the folder is not on XDG_DATA_DIRS: expected here, so only failures are shown.)
update-mime-database "$tmp/mime" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
grep -q '^60:application/vnd.parascope.scenario+json:\*\.parascope\.json$' "$tmp/mime/globs2" \
  || { echo "FAIL: globs2 has no *.parascope.json entry"; cat "$tmp/mime/globs2"; exit 1; }
# The desktop entry opens that type.
grep -q '^MimeType=application/vnd.parascope.scenario+json;$' "$linux/$id.desktop"
echo "desktop entry, metainfo and MIME type: OK"
