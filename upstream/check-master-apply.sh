#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# Checks the patch series of upstream/series against the apache/hudi master base kept in upstream/master-base
# (its README says what the base is and how it was read). Light: git only, no build.
#
# Creates a temporary git repository holding the base's source files (not its MANIFEST.tsv, scripts or notes),
# commits it, then for each patch of upstream/series, in order:
#   - git apply --check; if it passes, git am --3way (the patch becomes a commit, as a committer would apply it);
#   - if either fails: prints the failing files and hunks (file and hunk header), then applies what it can
#     (git apply --reject) and commits that, so that the patches after it are still checked against the files
#     it adds; such a later result is marked as checked on top of a partial patch.
# Prints one line per patch (applies / FAILS) and a summary.
#
# Exit status: 0 when every patch applies, 1 otherwise. With --report it always exits 0 (to see the state while the
# series does not apply yet). Not wired into upstream/build.sh or .ci/run yet.
#
# Usage: bash upstream/check-master-apply.sh [--report]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE_DIR="${ROOT}/upstream/master-base"
SERIES="${ROOT}/upstream/series"
PATCH_DIR="${ROOT}/upstream/patches"
REPORT=0
for arg in "$@"; do
  case "${arg}" in
    --report) REPORT=1 ;;
    -h|--help) sed -n '19,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: ${arg} (usage: $0 [--report])" >&2; exit 2 ;;
  esac
done

GIT=(git -c user.name=check-master-apply -c user.email=check-master-apply@localhost
  -c core.autocrlf=false -c advice.detachedHead=false -c init.defaultBranch=master-base)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/check-master-apply.XXXXXX")"
trap 'rm -rf "${WORK}"' EXIT
REPO="${WORK}/hudi"

bash "${BASE_DIR}/checkout.sh" "${REPO}"
nfiles="$("${GIT[@]}" -C "${REPO}" ls-files | wc -l | tr -d ' ')"
echo "master base: upstream/master-base, ${nfiles} files (commits per file in upstream/master-base/MANIFEST.tsv)"

# The hunk header of a patch's hunk for FILE whose old-side start line is LINE.
hunk_header() {
  local patch="$1" file="$2" line="$3"
  awk -v f="${file}" -v l="${line}" '
    /^diff --git / { cur = $3; sub(/^a\//, "", cur); next }
    /^@@ / && cur == f {
      split($2, o, ","); s = substr(o[1], 2)
      if (s == l) { print; exit }
    }' "${patch}"
}

mapfile -t PATCHES < <(grep -v '^\s*\(#\|$\)' "${SERIES}")
total=${#PATCHES[@]}
ok=0
failed=0
partial_before=""
step=0
for patch in "${PATCHES[@]}"; do
  step=$((step + 1))
  file="${PATCH_DIR}/${patch}"
  label="[${step}/${total}] ${patch}"
  note=""
  if [[ -n "${partial_before}" ]]; then
    note=" (checked on top of the partial application of ${partial_before})"
  fi
  if check_out="$("${GIT[@]}" -C "${REPO}" apply --check "${file}" 2>&1)"; then
    if am_out="$("${GIT[@]}" -C "${REPO}" am -q --3way "${file}" 2>&1)"; then
      echo "${label}: applies (git apply --check, git am --3way)${note}"
      ok=$((ok + 1))
      continue
    fi
    "${GIT[@]}" -C "${REPO}" am --abort >/dev/null 2>&1 || true
    echo "${label}: FAILS at git am --3way (git apply --check passed)${note}"
    while IFS= read -r l; do echo "    ${l}"; done <<< "${am_out}"
    failed=$((failed + 1))
    continue
  fi
  echo "${label}: FAILS at git apply --check${note}"
  failed=$((failed + 1))
  # What git apply --check says, one line per failing file.
  grep -E '^error: ' <<< "${check_out}" | grep -v '^error: while searching for:' | sed 's/^/    /' || true
  # Every failing hunk, with its header: git apply --reject goes on past the first failing hunk of a file.
  reject_out="$("${GIT[@]}" -C "${REPO}" apply --reject --verbose "${file}" 2>&1 || true)"
  current=""
  while IFS= read -r line; do
    case "${line}" in
      "Checking patch "*) current="${line#Checking patch }"; current="${current%...}" ;;
      "error: while searching for:"*) ;;
      "error: patch failed: "*)
        spec="${line#error: patch failed: }"
        f="${spec%:*}"; l="${spec##*:}"
        echo "    failing hunk: ${f} $(hunk_header "${file}" "${f}" "${l}")"
        ;;
      "error: "*) echo "    ${line}" ;;
      "Applied patch "*" cleanly.") f="${line#Applied patch }"; echo "    file applies: ${f% cleanly.}" ;;
      "Applying patch "*" with "*" reject"*)
        f="${line#Applying patch }"; n="${f##* with }"; f="${f% with *}"
        echo "    file fails: ${f} (${n%...})"
        ;;
    esac
  done <<< "${reject_out}"
  # Carry what applied forward, so the next patches are checked against the files this one adds.
  find "${REPO}" -name '*.rej' -delete
  find "${REPO}" -name '*.orig' -delete
  "${GIT[@]}" -C "${REPO}" add -A
  "${GIT[@]}" -C "${REPO}" commit -q --allow-empty -m "partial: ${patch}"
  partial_before="${partial_before:+${partial_before}, }${patch}"
done

echo "result: ${ok} of ${total} patches apply to the master base in order, ${failed} fail"
if [[ ${failed} -gt 0 && ${REPORT} -eq 0 ]]; then
  exit 1
fi
exit 0
