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
# The staging that build.sh (0.14 form) and build-master.sh (master form) share, sourced by both. A patch's files are
# staged in two copies under STAGED: compile/{main,test}/, what the compiler reads, rewritten by the caller's sed
# expressions (0.14: the bundles' relocations; master: master's packages mapped to Hudi 1.0.2's), and
# as-patched/{main,test}/, the files as the patches write them, what checkstyle reads.

# stage_file TREE FILE STAGED CHECKED SED_EXPRESSION...
# Stages FILE of the work tree TREE (a path as in apache/hudi: <module>/src/<main|test>/java/<package path>): under
# STAGED/compile through sed with the SED_EXPRESSIONs, and as written under STAGED/as-patched if CHECKED is "checked".
# Sets STAGED_COPY to the compiler's copy, for a further step on it (build-master.sh stubs some).
stage_file() {
  local tree="$1" file="$2" staged="$3" checked="$4"
  shift 4
  local kind relative
  kind="$(sed -n 's:^[^/]*/src/\(main\|test\)/java/.*:\1:p' <<< "${file}")"
  relative="${file#*/src/"${kind}"/java/}"
  mkdir -p "$(dirname "${staged}/compile/${kind}/${relative}")"
  sed "$@" "${tree}/${file}" > "${staged}/compile/${kind}/${relative}"
  if [[ "${checked}" == checked ]]; then
    mkdir -p "$(dirname "${staged}/as-patched/${kind}/${relative}")"
    cp "${tree}/${file}" "${staged}/as-patched/${kind}/${relative}"
  fi
  # shellcheck disable=SC2034 # read by the caller
  STAGED_COPY="${staged}/compile/${kind}/${relative}"
}

# stage_series_tests SOURCES STAGED
# Stages the series' own tests (the source root SOURCES: not part of any patch, they check the series as a whole) as
# they are, for the compiler and for checkstyle.
stage_series_tests() {
  local sources="$1" staged="$2"
  (cd "${sources}" && find . -name '*.java') | while read -r test; do
    for copy in compile as-patched; do
      mkdir -p "$(dirname "${staged}/${copy}/test/${test}")"
      cp "${sources}/${test}" "${staged}/${copy}/test/${test}"
    done
  done
}
