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
# For each patch, in order and with only the patches before it: git apply --check and git am onto the apache/hudi master files kept in
# upstream/master-base (a git work tree under upstream/master/target/hudi), which fails if the patch does not apply to
# master; then stages every file the patches so far add or change, with the master-base files of
# upstream/master/compile-with.txt, their packages mapped to Hudi 1.0.2's (upstream/master/package-map.tsv), and runs
# the master-form module (mvn -Pupstream -pl upstream/master test): compiled against Hudi 1.0.2's Spark 3.5 bundle, the
# newest 1.x release served here; Hudi's checkstyle on the files as the patches write them; the tests the patch adds
# or changes, and after the last patch every test of the series. Stops at the first failure.
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o offline).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MASTER="${ROOT}/upstream/master"
WORK="${MASTER}/target"
HUDI="${WORK}/hudi"
read -r -a MVN_FLAGS <<< "${MAVEN_ARGS:-}"
GIT=(git -c user.name=build-master -c user.email=build-master@localhost -c core.autocrlf=false)

rm -rf "${HUDI}"
bash "${ROOT}/upstream/master-base/checkout.sh" "${HUDI}"
BASE="$("${GIT[@]}" -C "${HUDI}" rev-parse HEAD)"

MAPPING=()
while IFS=$'\t' read -r from to; do
  MAPPING+=(-e "s/\\b${from//./\\.}/${to}/g")
done < <(grep -v '^\s*\(#\|$\)' "${MASTER}/package-map.tsv")
mapfile -t COMPILE_WITH < <(grep -v '^\s*\(#\|$\)' "${MASTER}/compile-with.txt")

# Copies FILE of the work tree into the staged folders: mapped for the compiler, and as written for checkstyle.
stage() {
  local file="$1" staged="$2" checked="$3"
  local kind relative
  kind="$(sed -n 's:^[^/]*/src/\(main\|test\)/java/.*:\1:p' <<< "${file}")"
  relative="${file#*/src/"${kind}"/java/}"
  mkdir -p "$(dirname "${staged}/compile/${kind}/${relative}")"
  sed "${MAPPING[@]}" "${HUDI}/${file}" > "${staged}/compile/${kind}/${relative}"
  if [[ "${checked}" == yes ]]; then
    mkdir -p "$(dirname "${staged}/as-patched/${kind}/${relative}")"
    cp "${HUDI}/${file}" "${staged}/as-patched/${kind}/${relative}"
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
  mapfile -t CHANGED < <("${GIT[@]}" -C "${HUDI}" diff --name-only --diff-filter=AM "${BASE}" HEAD -- '*/src/*.java')
  for file in "${CHANGED[@]}"; do
    stage "${file}" "${staged}" yes
  done
  for file in "${COMPILE_WITH[@]}"; do
    if [[ ! " ${CHANGED[*]} " =~ " ${file} " ]]; then
      stage "${file}" "${staged}" no
    fi
  done
  "${GIT[@]}" -C "${HUDI}" diff --stat "${BASE}" HEAD | tail -1
  TESTS=()
  if (( step < ${#PATCHES[@]} )); then
    own="$("${GIT[@]}" -C "${HUDI}" diff --name-only --diff-filter=AM HEAD~1 HEAD -- '*/src/test/*.java' \
      | sed -n 's:.*/\(Test[^/]*\)\.java$:\1:p' | paste -sd, -)"
    TESTS=(-Dtest="${own:-none}" -Dsurefire.failIfNoSpecifiedTests=false)
    echo "tests of this patch: ${own:-none}"
  fi
  (cd "${ROOT}" && mvn "${MVN_FLAGS[@]}" -B -Pupstream -pl upstream/master test -Dpatched.dir="${staged}" "${TESTS[@]}")
done
echo "==== upstream master form: every patch applied to master, compiled against Hudi 1.0.2, checked and tested ===="
