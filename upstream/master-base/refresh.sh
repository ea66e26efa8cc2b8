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
# Refreshes the apache/hudi master base (upstream/master-base) from GitHub.
#
# For each file of MANIFEST.tsv, downloads
#   https://raw.githubusercontent.com/apache/hudi/<commit>/<path>
# with curl, where <commit> is the file's own commit in the manifest, or, when a ref is given as $1
# (a branch, tag or commit, e.g. `master`), that ref resolved once to one commit for every file (so the
# base is then read at a single commit). It rewrites the manifest's commit, sha256 and length columns.
# A file missing at that ref (moved or deleted upstream) fails the refresh, naming the file: move it in
# the manifest by hand, then run again.
#
# NOTE: this script needs network access to github.com; it cannot run on the machine that built the base
# (no network there: the base was read through a stored-copy search tool, see upstream/master-base/README.md). It stops at the
# first download that fails, leaving the base and the manifest as they were.
#
# Usage: bash upstream/master-base/refresh.sh [ref]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MANIFEST="${HERE}/MANIFEST.tsv"
REPO="apache/hudi"
REF="${1:-}"

command -v curl >/dev/null 2>&1 || { echo "refresh: curl is required" >&2; exit 1; }
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
else
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
fi

COMMIT_FOR_ALL=""
if [[ -n "${REF}" ]]; then
  if ! COMMIT_FOR_ALL="$(curl -fsSL --connect-timeout 20 -H 'Accept: application/vnd.github.sha' \
      "https://api.github.com/repos/${REPO}/commits/${REF}")"; then
    echo "refresh: could not resolve ref '${REF}' of ${REPO} (network or unknown ref)" >&2
    exit 1
  fi
  if [[ ! "${COMMIT_FOR_ALL}" =~ ^[0-9a-f]{40}$ ]]; then
    echo "refresh: unexpected answer resolving '${REF}': ${COMMIT_FOR_ALL}" >&2
    exit 1
  fi
  echo "refresh: ${REF} is ${COMMIT_FOR_ALL}"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/master-base-refresh.XXXXXX")"
trap 'rm -rf "${WORK}"' EXIT
NEW_ROWS="${WORK}/rows.tsv"
: > "${NEW_ROWS}"

# Download everything first; replace the base only when every file arrived.
n=0
while IFS=$'\t' read -r path commit _sha _len; do
  [[ -z "${path}" || "${path}" == \#* ]] && continue
  use="${COMMIT_FOR_ALL:-${commit}}"
  url="https://raw.githubusercontent.com/${REPO}/${use}/${path}"
  n=$((n + 1))
  mkdir -p "${WORK}/files/$(dirname "${path}")"
  if ! curl -fsSL --connect-timeout 20 --retry 2 -o "${WORK}/files/${path}" "${url}"; then
    echo "refresh: download failed: ${url}" >&2
    echo "refresh: nothing was changed (no network, or ${path} moved or was deleted at ${use})" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\t%s\n' "${path}" "${use}" "$(sha256 "${WORK}/files/${path}")" \
    "$(wc -c < "${WORK}/files/${path}" | tr -d ' ')" >> "${NEW_ROWS}"
done < "${MANIFEST}"

if [[ ${n} -eq 0 ]]; then
  echo "refresh: no files in ${MANIFEST}" >&2
  exit 1
fi

# Every file downloaded: install them and rewrite the manifest (its comment lines kept, plus one line saying
# when and from what it was refreshed).
while IFS=$'\t' read -r path _rest; do
  mkdir -p "${HERE}/$(dirname "${path}")"
  cp "${WORK}/files/${path}" "${HERE}/${path}"
done < "${NEW_ROWS}"
{
  grep '^#' "${MANIFEST}" | grep -v '^# refreshed '
  echo "# refreshed by refresh.sh on $(date -u +%Y-%m-%d) from ${REF:-the commit of each file}${COMMIT_FOR_ALL:+ (${COMMIT_FOR_ALL})}"
  cat "${NEW_ROWS}"
} > "${WORK}/MANIFEST.tsv"
cp "${WORK}/MANIFEST.tsv" "${MANIFEST}"
echo "refresh: ${n} files refreshed; run bash upstream/check-master-apply.sh --report to see where the series stands"
