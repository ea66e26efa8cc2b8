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
# Builds the master form: the patch series of upstream/master/series, as pull requests to apache/hudi master.
# For each patch, in order and with only the patches before it: git apply --check and git am onto the apache/hudi
# master files kept in upstream/master-base (a git work tree under upstream/master/target/hudi), which fails if the
# patch does not apply to master; then stages (staging.sh), with master's packages mapped to Hudi 1.0.2's
# (upstream/master/package-map.tsv):
#   - with their bodies: every file the patches so far add, and the master-base files of
#     upstream/master/compile-with.txt;
#   - as signature-only stubs (upstream/master/src/build/java/SignatureStubs.java): every other master-base file, main
#     and test, as patched so far, including those a patch changes (StreamSync, ...): their bodies call master classes
#     that are not served here, so a changed file is checked for its signatures only, unless compile-with.txt lists it;
#     upstream/master/not-compiled.txt names the base files left out, and why;
#   - the series' own tests (upstream/master/src/test/java): TestMasterSignatures compares InputBatch, Source and
#     SourceFormatAdapter as patched with the base's (staged as stubs under base-signatures/);
# and runs the master-form module (mvn -Pupstream -pl upstream/master test): compiled against Hudi 1.0.2's Spark 3.5
# bundle, the newest 1.x release served here, and the jars the stubs need (upstream/master/pom.xml); Hudi's checkstyle
# on the files the patches add or change, as they write them, and on the series' tests (not on stubs or other base
# files); the tests the patch adds or changes with TestMasterSignatures, and after the last patch every test of the
# series, except those upstream/master/compile-only-tests.txt lists (compiled, not run: they run on stubbed master
# classes). Stops at the first failure.
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o offline).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MASTER="${ROOT}/upstream/master"
WORK="${MASTER}/target"
HUDI="${WORK}/hudi"
read -r -a MVN_FLAGS <<< "${MAVEN_ARGS:-}"
# shellcheck source-path=SCRIPTDIR source=staging.sh
source "${ROOT}/upstream/staging.sh"
GIT=(git -c user.name=build-master -c user.email=build-master@localhost -c core.autocrlf=false)

rm -rf "${HUDI}"
bash "${ROOT}/upstream/master-base/checkout.sh" "${HUDI}"
BASE="$("${GIT[@]}" -C "${HUDI}" rev-parse HEAD)"

MAPPING=()
while IFS=$'\t' read -r from to; do
  MAPPING+=(-e "s/\\b${from//./\\.}/${to}/g")
done < <(grep -v '^\s*\(#\|$\)' "${MASTER}/package-map.tsv")
declare -A COMPILE_WITH NOT_COMPILED
while read -r file; do COMPILE_WITH["${file}"]=1; done < <(grep -v '^\s*\(#\|$\)' "${MASTER}/compile-with.txt")
while read -r file; do NOT_COMPILED["${file}"]=1; done < <(grep -v '^\s*\(#\|$\)' "${MASTER}/not-compiled.txt")
mapfile -t COMPILE_ONLY_TESTS < <(grep -v '^\s*\(#\|$\)' "${MASTER}/compile-only-tests.txt")
STUBS="${MASTER}/src/build/java/SignatureStubs.java"
SERIES_TESTS="${MASTER}/src/test/java"
# The classes the series leaves as master has them (the #19299 thread), compared by TestMasterSignatures.
SIGNATURES_KEPT=(
  hudi-utilities/src/main/java/org/apache/hudi/utilities/sources/InputBatch.java
  hudi-utilities/src/main/java/org/apache/hudi/utilities/sources/Source.java
  hudi-utilities/src/main/java/org/apache/hudi/utilities/streamer/SourceFormatAdapter.java
)

# Stages FILE of the work tree (staging.sh): mapped for the compiler (and listed in TO_STUB if HOW is stub), and as
# written for checkstyle if the patches add or change it.
stage() {
  local file="$1" staged="$2" how="$3"
  stage_file "${HUDI}" "${file}" "${staged}" "${CHANGED[${file}]:+checked}" "${MAPPING[@]}"
  if [[ "${how}" == stub ]]; then
    TO_STUB+=("${STAGED_COPY}")
  fi
}

mapfile -t PATCHES < <(grep -v '^\s*\(#\|$\)' "${MASTER}/series")
step=0
for patch in "${PATCHES[@]}"; do
  step=$((step + 1))
  echo "==== master patch ${step}: ${patch} ===="
  if ! "${GIT[@]}" -C "${HUDI}" apply --check "${MASTER}/patches/${patch}" \
    || ! "${GIT[@]}" -C "${HUDI}" am -q --3way "${MASTER}/patches/${patch}"; then
    echo "${patch} does not apply to apache/hudi master (upstream/master-base, MANIFEST.tsv says at which commits)" >&2
    exit 1
  fi
  echo "applies to apache/hudi master (git apply --check, git am --3way on upstream/master-base)"
  staged="${WORK}/patch-${step}"
  rm -rf "${staged}"
  mkdir -p "${staged}/compile/main" "${staged}/compile/test" "${staged}/as-patched/main" "${staged}/as-patched/test"
  declare -A ADDED=() CHANGED=()
  while read -r file; do ADDED["${file}"]=1; done \
    < <("${GIT[@]}" -C "${HUDI}" diff --name-only --diff-filter=A "${BASE}" HEAD -- '*/src/*.java')
  while read -r file; do CHANGED["${file}"]=1; done \
    < <("${GIT[@]}" -C "${HUDI}" diff --name-only --diff-filter=AM "${BASE}" HEAD -- '*/src/*.java')
  TO_STUB=()
  stubbed=0
  while read -r file; do
    if [[ -n "${ADDED[${file}]:-}" || -n "${COMPILE_WITH[${file}]:-}" ]]; then
      stage "${file}" "${staged}" body
    elif [[ -z "${NOT_COMPILED[${file}]:-}" ]]; then
      stage "${file}" "${staged}" stub
      stubbed=$((stubbed + 1))
    fi
  done < <("${GIT[@]}" -C "${HUDI}" ls-files -- '*/src/main/java/*.java' '*/src/test/java/*.java')
  mkdir -p "${staged}/base-signatures"
  for file in "${SIGNATURES_KEPT[@]}"; do
    "${GIT[@]}" -C "${HUDI}" show "${BASE}:${file}" | sed "${MAPPING[@]}" > "${staged}/base-signatures/${file##*/}"
    TO_STUB+=("${staged}/base-signatures/${file##*/}")
  done
  java "${STUBS}" "${TO_STUB[@]}"
  echo "compiled with their bodies: the files the patches add and compile-with.txt's;" \
    "as signature-only stubs: ${stubbed} master-base files"
  stage_series_tests "${SERIES_TESTS}" "${staged}"
  "${GIT[@]}" -C "${HUDI}" diff --stat "${BASE}" HEAD | tail -1
  not_run="$(printf '!%s,' "${COMPILE_ONLY_TESTS[@]}")"
  if (( step < ${#PATCHES[@]} )); then
    own="$("${GIT[@]}" -C "${HUDI}" diff --name-only --diff-filter=AM HEAD~1 HEAD -- '*/src/test/*.java' \
      | sed -n 's:.*/\(Test[^/]*\)\.java$:\1:p' | paste -sd, -)"
    TESTS=(-Dtest="${own:+${own},}TestMasterSignatures,${not_run%,}" -Dsurefire.failIfNoSpecifiedTests=false)
    echo "tests of this patch: ${own:-none}; and TestMasterSignatures"
  else
    TESTS=(-Dtest="${not_run%,}" -Dsurefire.failIfNoSpecifiedTests=false)
  fi
  echo "compiled, not run (compile-only-tests.txt): ${COMPILE_ONLY_TESTS[*]}"
  (cd "${ROOT}" && mvn "${MVN_FLAGS[@]}" -B -Pupstream -pl upstream/master test -Dpatched.dir="${staged}" "${TESTS[@]}")
done
echo "==== upstream master form: every patch applied to master, compiled against Hudi 1.0.2 and master's signatures," \
  "checked and tested ===="
