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
# Runs the plugin's command-line tools as docs/tools.md launches them, with this build's jars in place of a deployment's
# (from any directory; relative paths in the arguments are relative to where it is run):
#
#   bash demo/run-tool.sh checkpoint show|override --props <file> [--hoodie-conf <key>=<value>]... \
#       --target-base-path <path> [--set <table>=<instant|LATEST|EARLIEST>]... [--output text|json]
#     = java -cp "<Hudi bundles>:<Spark jars>:<plugin jar>" org.apache.hudi.utilities.cli.CheckpointCli ...
#
#   bash demo/run-tool.sh explain --props <file> [--hoodie-conf <key>=<value>]... --target-base-path <path> \
#       [--checkpoint <checkpoint>] [--explain-mode <mode>] [--output text|json]
#     = spark-submit --master 'local[2]' --jars <Hudi Spark bundle>,<utilities slim bundle>,<plugin jar> \
#         --conf <Kryo settings> --class org.apache.hudi.utilities.cli.ExplainCli <utilities slim bundle> ...
#       where spark-submit is Spark's launcher class (org.apache.spark.deploy.SparkSubmit) on Spark's jars with the
#       Java 17 flags, as demo/run-on-cluster.sh launches it: no Spark distribution needed.
#
# <Hudi bundles> and <Spark jars> are this build's deployment classpath (hudi-utilities-ext/target/
# deployment-classpath.txt); the plugin jar is hudi-utilities-ext/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar.
# Both are built first (mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package) if they are missing or older than
# the sources. demo/README.md runs both tools against the demo's target. The tool's result goes to stdout, its errors
# and logs to stderr. Exit status: the tool's (docs/tools.md#exit-status-and-output).
#
# Environment: TOOL_JAVA_HEAP (default 1g) is the -Xmx of the tool's JVM.

set -euo pipefail

DEMO_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${DEMO_SRC}/.." && pwd)"
PLUGIN_JAR="${ROOT}/hudi-utilities-ext/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
DEPLOYMENT_CP_FILE="${ROOT}/hudi-utilities-ext/target/deployment-classpath.txt"
LOG4J_CONF="${DEMO_SRC}/conf/log4j2.properties"

die() { echo "run-tool.sh: ERROR: $*" >&2; exit 2; }

usage() {
  sed -n 's/^#   bash demo/bash demo/p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

# Whether the plugin jar or the deployment classpath is missing or older than the sources and poms they come from.
build_needed() {
  local f
  for f in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}"; do
    [[ -s "${f}" ]] || { echo "missing: ${f#"${ROOT}/"}"; return 0; }
  done
  local newer
  newer="$(find "${ROOT}/hudi-utilities-ext/src/main" "${ROOT}/pom.xml" "${ROOT}/hudi-utilities-ext/pom.xml" \
    "${ROOT}/hudi-utilities-slim-bundle/pom.xml" -newer "${PLUGIN_JAR}" -type f -print -quit)"
  [[ -z "${newer}" ]] || { echo "${newer#"${ROOT}/"} is newer than the plugin jar"; return 0; }
  local jar
  while IFS= read -r jar; do
    [[ -z "${jar}" || -e "${jar}" ]] || { echo "missing: ${jar}"; return 0; }
  done < <(tr ':' '\n' < "${DEPLOYMENT_CP_FILE}")
  return 1
}

(($# >= 1)) || usage
TOOL="$1"
shift
[[ "${TOOL}" == checkpoint || "${TOOL}" == explain ]] || usage

command -v java > /dev/null || die "java not found. Install a JDK 17, e.g.: sudo apt-get install openjdk-17-jdk-headless"
if reason="$(build_needed)"; then
  command -v mvn > /dev/null || die "mvn not found (needed to build: ${reason})"
  echo "run-tool.sh: building (${reason}): mvn -B -q -DskipTests -Dcheckstyle.skip -Drat.skip package" >&2
  (cd "${ROOT}" && mvn -B -q -Dstyle.color=never -DskipTests -Dcheckstyle.skip -Drat.skip package >&2) \
    || die "the build failed"
  for f in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}"; do
    [[ -s "${f}" ]] || die "the build did not write ${f}"
  done
fi
DEPLOYMENT_CP="$(tr -d '\n' < "${DEPLOYMENT_CP_FILE}")"

if [[ "${TOOL}" == checkpoint ]]; then
  # Reads timelines and commit metadata only: no Spark session, no Java 17 flags.
  exec java "-Xmx${TOOL_JAVA_HEAP:-1g}" "-Dlog4j2.configurationFile=file://${LOG4J_CONF}" \
    -cp "${DEPLOYMENT_CP}:${PLUGIN_JAR}" org.apache.hudi.utilities.cli.CheckpointCli "$@"
fi

# explain: spark-submit as the Streamer is launched (demo/README.md): the Hudi bundles and the plugin together in
# --jars, so that Hudi and the plugin share a class loader; the utilities slim bundle is the primary resource.
JAVA17_OPENS="$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' "${ROOT}/pom.xml")"
[[ -n "${JAVA17_OPENS}" ]] || die "cannot read <spark.java17.opens> from ${ROOT}/pom.xml"
read -r -a OPENS <<< "${JAVA17_OPENS}"
HUDI_BUNDLES=()
SPARK_JARS=()
while IFS= read -r jar; do
  case "$(basename "${jar}")" in
    hudi-spark3.4-bundle_*.jar | hudi-utilities-slim-bundle*.jar) HUDI_BUNDLES+=("${jar}") ;;
    *.jar) SPARK_JARS+=("${jar}") ;;
  esac
done < <(tr ':' '\n' <<< "${DEPLOYMENT_CP}")
((${#HUDI_BUNDLES[@]} == 2)) || die "expected the Hudi Spark bundle and the utilities slim bundle in ${DEPLOYMENT_CP_FILE}, found: ${HUDI_BUNDLES[*]}"
SLIM_BUNDLE=""
for jar in "${HUDI_BUNDLES[@]}"; do
  [[ "$(basename "${jar}")" != hudi-utilities-slim-bundle* ]] || SLIM_BUNDLE="${jar}"
done
[[ -n "${SLIM_BUNDLE}" ]] || die "no utilities slim bundle in ${DEPLOYMENT_CP_FILE}"
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
# -Djol.skipHotspotSAAttach=true: see demo/run-demo.sh.
exec java "-Xmx${TOOL_JAVA_HEAP:-1g}" "${OPENS[@]}" -Djol.skipHotspotSAAttach=true \
  "-Dlog4j2.configurationFile=file://${LOG4J_CONF}" -cp "$(IFS=:; echo "${SPARK_JARS[*]}")" \
  org.apache.spark.deploy.SparkSubmit --master 'local[2]' \
  --jars "$(IFS=,; echo "${HUDI_BUNDLES[*]}"),${PLUGIN_JAR}" \
  --conf spark.serializer=org.apache.spark.serializer.KryoSerializer \
  --conf spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar \
  --conf spark.ui.enabled=false \
  --class org.apache.hudi.utilities.cli.ExplainCli "${SLIM_BUNDLE}" "$@"
