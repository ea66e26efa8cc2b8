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
# Runs the standalone freshness reporter on this build's deployment classpath (the Hudi bundles, Spark's jars, the
# Kafka client, the YAML parser) plus the plugin jar, building them first if needed:
#   bash docs/freshness/run-reporter.sh --config <pipelines.yaml> [--interval <seconds>] [--max-commit-depth <n>]
#   bash docs/freshness/run-reporter.sh --config <pipelines.yaml> --history [--history-limit <n>]
# On a cluster, use the same main class with the deployed jars instead (docs/freshness.md#running-the-reporter).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PLUGIN_JAR="${ROOT}/hudi-utilities-ext/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
DEPLOYMENT_CP_FILE="${ROOT}/hudi-utilities-ext/target/deployment-classpath.txt"

# The build skips checkstyle and the licence header check (RAT): a pipelines.yaml written next to the sources, as the
# examples of docs/freshness.md do, has no licence header and would fail it.
if [[ ! -s "${PLUGIN_JAR}" || ! -s "${DEPLOYMENT_CP_FILE}" ]]; then
  (cd "${ROOT}" && mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -Dmaven.test.skip=true -Dcheckstyle.skip -Drat.skip \
    -pl hudi-utilities-ext -am package)
fi

exec java ${REPORTER_JAVA_OPTS:--Xmx1g} -cp "${PLUGIN_JAR}:$(cat "${DEPLOYMENT_CP_FILE}")" \
  org.apache.hudi.utilities.cli.FreshnessReporterCli "$@"
