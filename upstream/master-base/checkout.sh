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
# Checks the master base out as a git work tree: copies its source tree (the top-level directories, hudi-common/,
# hudi-utilities/, ...) into DIR, a new repository with one commit, on which patches can be applied with git am.
# Usage: bash upstream/master-base/checkout.sh DIR
set -euo pipefail
BASE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="${1:?usage: $0 DIR}"
GIT=(git -c user.name=master-base -c user.email=master-base@localhost -c core.autocrlf=false
  -c init.defaultBranch=master-base)

shopt -s nullglob
dirs=("${BASE_DIR}"/*/)
if [[ ${#dirs[@]} -eq 0 ]]; then
  echo "no source files under ${BASE_DIR}" >&2
  exit 2
fi
mkdir -p "${REPO}"
for d in "${dirs[@]}"; do
  cp -R "${d%/}" "${REPO}/"
done
"${GIT[@]}" -C "${REPO}" init -q
"${GIT[@]}" -C "${REPO}" add -A
"${GIT[@]}" -C "${REPO}" commit -q -m "apache/hudi master base (upstream/master-base)"
