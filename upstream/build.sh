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
# Builds the upstream form: Hudi 0.14.0's hudi-utilities sources with the patch series applied, one patch at a time.
# For each patch of upstream/series, in order, with only the patches before it: applies it to the unpacked sources
# (a git work tree under upstream/target/hudi, laid out as apache/hudi), stages every file the patches so far added
# or changed (staging.sh: relocated for the compiler, as written for checkstyle), and runs the upstream module
# (mvn -Pupstream -pl upstream -am test): those files compiled against the released hudi-utilities they replace,
# Hudi's checkstyle on them, and the tests the patch adds or changes; after the last patch, every test of the series
# and the series' own tests (upstream/src/test: RFC-108's configuration table is the patched config class's). Stops at
# the first failure. Then builds the master form (build-master.sh).
# MAVEN_ARGS adds Maven flags (e.g. MAVEN_ARGS=-o offline).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${ROOT}/upstream/target"
HUDI="${WORK}/hudi"
MODULE="hudi-utilities"
SOURCES_JAR="${HOME}/.m2/repository/org/apache/hudi/hudi-utilities_2.12/0.14.0/hudi-utilities_2.12-0.14.0-sources.jar"
read -r -a MVN_FLAGS <<< "${MAVEN_ARGS:-}"
# shellcheck source-path=SCRIPTDIR source=staging.sh
source "${ROOT}/upstream/staging.sh"

if [[ ! -f "${SOURCES_JAR}" ]]; then
  mvn "${MVN_FLAGS[@]}" -B -q dependency:get -Dtransitive=false \
    -Dartifact=org.apache.hudi:hudi-utilities_2.12:0.14.0:jar:sources
fi

rm -rf "${HUDI}"
mkdir -p "${HUDI}/${MODULE}/src/main/java"
unzip -q "${SOURCES_JAR}" 'org/*' -d "${HUDI}/${MODULE}/src/main/java"
git -C "${HUDI}" init -q
git -C "${HUDI}" add -A
git -C "${HUDI}" -c user.name=upstream -c user.email=upstream@localhost commit -q -m "hudi-utilities 0.14.0 sources"
BASE="$(git -C "${HUDI}" rev-parse HEAD)"

# The bundles' relocations, from the one place that declares them (the rebuilt slim bundle's shade plugin): a patched
# file that imports a relocated package is compiled against the relocated classes, as shading it would leave it.
RELOCATIONS=()
while read -r pattern shaded; do
  RELOCATIONS+=(-e "s/\\b${pattern//./\\.}/${shaded}/g")
done < <(sed -n 's:.*<pattern>\(.*\)</pattern><shadedPattern>\(.*\)</shadedPattern>.*:\1 \2:p' \
  "${ROOT}/hudi-utilities-slim-bundle/pom.xml")

PATCHES="$(grep -cv '^\s*\(#\|$\)' "${ROOT}/upstream/series")"
step=0
grep -v '^\s*\(#\|$\)' "${ROOT}/upstream/series" | while read -r patch; do
  step=$((step + 1))
  echo "==== upstream patch ${step}: ${patch} ===="
  git -C "${HUDI}" apply --index "${ROOT}/upstream/patches/${patch}"
  git -C "${HUDI}" -c user.name=upstream -c user.email=upstream@localhost commit -q -m "${patch}"
  staged="${WORK}/patch-${step}"
  rm -rf "${staged}"
  git -C "${HUDI}" diff --name-only --diff-filter=AM "${BASE}" HEAD -- "${MODULE}/src" | while read -r file; do
    stage_file "${HUDI}" "${file}" "${staged}" checked "${RELOCATIONS[@]}"
  done
  if (( step == PATCHES )); then
    # The series' own tests (upstream/src/test/java), not part of any patch: they check the series as a whole.
    stage_series_tests "${ROOT}/upstream/src/test/java" "${staged}"
  fi
  git -C "${HUDI}" diff --stat "${BASE}" HEAD | tail -1
  TESTS=()
  if (( step < PATCHES )); then
    own="$(git -C "${HUDI}" diff --name-only --diff-filter=AM HEAD~1 HEAD -- "${MODULE}/src/test" \
      | sed -n 's:.*/\(Test[^/]*\)\.java$:\1:p' | paste -sd, -)"
    TESTS=(-Dtest="${own:-none}" -Dsurefire.failIfNoSpecifiedTests=false)
    echo "tests of this patch: ${own:-none}"
  fi
  (cd "${ROOT}" && mvn "${MVN_FLAGS[@]}" -B -Pupstream -pl upstream -am test -Dpatched.dir="${staged}" "${TESTS[@]}")
done
echo "==== upstream: every patch applied, compiled, checked and tested ===="

# The same features as pull requests to apache/hudi master: applied to master's files, compiled against Hudi 1.0.2.
bash "${ROOT}/upstream/build-master.sh"
