#!/usr/bin/env bash
# clang-format over every C++ source of the project (core/, ui/, app/, tests/; .clang-format at
# the root).
#   bash tests/architecture/format.sh           rewrite the files in place
#   bash tests/architecture/format.sh --check   change nothing; list the files it would change
#                                               and fail if any (CTest clang_format, CI)
set -euo pipefail
cd "$(dirname "$0")/../.."
formatter=${CLANG_FORMAT:-clang-format}
command -v "$formatter" >/dev/null || { echo "format: $formatter is not installed (packaging/install-deps.sh)" >&2; exit 1; }
# Another major version lays some lines out differently: the check is Debian 12's clang-format 14.
major=$("$formatter" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [[ "${1:-}" == "--check" && "$major" != 14 ]]; then
  echo "format: $formatter is version $major, not 14: check skipped" >&2
  exit 77
fi
mapfile -t files < <(find core ui app tests -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) \
                       -not -path 'tests/data/*' | sort)
(( ${#files[@]} > 200 )) || { echo "format: only ${#files[@]} files found: wrong folder?" >&2; exit 1; }
if [[ "${1:-}" != "--check" ]]; then
  "$formatter" -i "${files[@]}"
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
# One process for every file: clang-format names each file it would change.
if ! report=$("$formatter" --dry-run --Werror "${files[@]}" 2>&1); then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<<"$report" | cut -d: -f1 | sort -u | sed 's/$/ would change (bash tests\/architecture\/format.sh rewrites it)/' >&2
  exit 1
fi
echo "format: ${#files[@]} files, all clang-format clean"
