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
# Runs one benchmark of this module:   bash benchmarks/run.sh <name> [args]
# Without a name, lists the benchmarks. Builds the plugin and this module first (tests neither built nor run).
# Maven's own flags may be added through MAVEN_ARGS (e.g. MAVEN_ARGS=-o for an offline machine); BENCHMARK_JAVA_HEAP
# sets the heap (default 3g), BENCHMARK_LOG4J another log4j2 configuration (e.g. Spark's job timings at INFO).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"

# One build, so that the classpath names the sibling modules' jars just built (see shared build facts). It builds what
# runs, not what CI checks: no checkstyle, no licence headers (RAT), which a scratch file in the tree would fail.
mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -Dmaven.test.skip=true -DskipTests -Dcheckstyle.skip -Drat.skip \
  -pl benchmarks -am package dependency:build-classpath \
  -Dmdep.outputFile=target/benchmark-classpath.txt -Dmdep.includeScope=runtime

# The Java 17 flags Spark needs: one source of truth, the property spark.java17.opens of the root pom.
JAVA17_OPENS="$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' "${ROOT}/pom.xml")"
[[ -n "${JAVA17_OPENS}" ]] || { echo "run.sh: cannot read <spark.java17.opens> from ${ROOT}/pom.xml" >&2; exit 1; }
read -r -a OPENS <<< "${JAVA17_OPENS}"

export SPARK_LOCAL_IP=127.0.0.1
exec java "-Xmx${BENCHMARK_JAVA_HEAP:-3g}" "${OPENS[@]}" -Djol.skipHotspotSAAttach=true \
  -Ds3proxy.classpath.file="${ROOT}/test-servers/s3proxy/target/s3proxy-classpath.txt" \
  -Dtest.server.logs.dir="${ROOT}/benchmarks/target/test-server-logs" \
  -Dlog4j2.configurationFile="${BENCHMARK_LOG4J:-${ROOT}/benchmarks/log4j2.properties}" \
  -cp "${ROOT}/benchmarks/target/classes:$(cat "${ROOT}/benchmarks/target/benchmark-classpath.txt")" \
  org.apache.hudi.utilities.benchmarks.Benchmarks "$@"
