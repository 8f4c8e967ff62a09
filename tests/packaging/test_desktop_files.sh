#!/usr/bin/env bash
# The desktop entry, the AppStream metainfo and the MIME type validate with the freedesktop
# tools, and the metainfo's latest release is the project version. The metainfo is the one the
# build configured: it names the public URL it was given (PARASCOPE_PUBLIC_URL), or none at all.
#   test_desktop_files.sh SOURCE_DIR VERSION METAINFO [PUBLIC_URL]
set -euo pipefail
src=$1 version=$2 metainfo=$3 url=${4:-}
linux="$src/packaging/linux"
id=io.github.parascope.ParaScope
for tool in desktop-file-validate appstreamcli update-mime-database; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (packaging/install-deps.sh installs it)"; exit 1; }
done

desktop-file-validate "$linux/$id.desktop"
appstreamcli validate --no-net "$metainfo"

if [[ -z "$url" ]]; then
  ! grep -n '<url\|<image>' "$metainfo" || { echo "FAIL: built without PARASCOPE_PUBLIC_URL, the metainfo still names an address"; exit 1; }
else
  grep -q "<url type=\"homepage\">$url</url>" "$metainfo" || { echo "FAIL: the metainfo's homepage is not $url"; exit 1; }
fi

latest=$(grep -o '<release version="[^"]*"' "$metainfo" | head -1 | cut -d'"' -f2)
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
