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

# One-command demo of hudi-utilities-ext on the stock Hudi 0.14.0 HoodieStreamer:
#   bash demo/run-demo.sh          (from any directory)
#   bash demo/run-demo.sh --view   the same rounds, the join written as a view over whole tables (conf/view.sql)
#
# 1. builds the plugin jar and the deployment classpath if they are missing or older than the sources;
# 2. creates two Hudi source tables, orders (COPY_ON_WRITE) and users (MERGE_ON_READ), under demo-output/;
# 3. round 1: runs HoodieStreamer through SparkSubmit with HoodieIncrMultiSource + MultiDatasetSqlFileTransformer,
#    joining both tables into demo-output/joined; prints the multi-table checkpoint and the target;
# 4. appends to the sources (a new order, an updated order, a renamed user);
# 5. round 2: same Streamer command; prints the new checkpoint and the target, and checks both.
# Every step that fails stops the demo with a non-zero exit status. See demo/README.md.
#
# Environment: DEMO_JAVA_HEAP (default 2g) is the -Xmx of every JVM the demo starts.

set -euo pipefail

on_exit() {
  local status=$?
  if [[ "${status}" -ne 0 ]]; then
    echo >&2
    echo "run-demo.sh: FAILED (exit status ${status}). Logs: ${LOGS:-demo-output/logs}/" >&2
  fi
}
trap on_exit EXIT

DEMO_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${DEMO_SRC}/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=streamer-job.sh
source "${DEMO_SRC}/streamer-job.sh"
DEMO_DIR="${ROOT}/demo-output"
LOGS="${DEMO_DIR}/logs"

PLUGIN_JAR="${ROOT}/hudi-utilities-ext/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
DEPLOYMENT_CP_FILE="${ROOT}/hudi-utilities-ext/target/deployment-classpath.txt"
SLIM_BUNDLE_JAR="${ROOT}/hudi-utilities-slim-bundle/target/hudi-utilities-slim-bundle-rebuilt_2.12-0.1.0-SNAPSHOT.jar"
LOG4J_CONF="${DEMO_SRC}/conf/log4j2.properties"
STREAMER_PROPS="${DEMO_SRC}/conf/streamer.properties"
JOIN_SQL="${DEMO_SRC}/conf/join.sql"
ORDERING_FIELD=ts
if [[ "${1:-}" == "--view" ]]; then
  JOIN_SQL="${DEMO_SRC}/conf/view.sql"
  ORDERING_FIELD=commit_order
elif [[ -n "${1:-}" ]]; then
  echo "usage: bash demo/run-demo.sh [--view]" >&2
  exit 2
fi

# Spark binds to the loopback interface: no network needed, no warning about the host name.
export SPARK_LOCAL_IP=127.0.0.1

# ---------------------------------------------------------------------------------------------------------- helpers

now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s; fi; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
banner() { printf '\n==== %s ====\n' "$*"; }
die() { echo "run-demo.sh: ERROR: $*" >&2; exit 1; }

# The demo's job as the checkpoint tool takes it: the Streamer's --props and the overrides run_streamer passes.
TOOL_JOB=(--props "file://${STREAMER_PROPS}" --target-base-path "${DEMO_DIR}/joined"
  --hoodie-conf "hoodie.streamer.source.hudi.orders.path=${DEMO_DIR}/orders"
  --hoodie-conf "hoodie.streamer.source.hudi.users.path=${DEMO_DIR}/users")

# Reads the checkpoint tool's JSON (docs/tools.md#checkpoint-tools) on stdin; prints the commit that stored the
# checkpoint, the checkpoint, then "<table> <position> <newest instant of the table>" a table, "-" for what is missing.
checkpoint_facts() {
  python3 -c '
import json, sys
shown = json.load(sys.stdin)
print(shown["commit"] or "-")
print(shown["checkpoint"] or "-")
for table in shown["tables"]:
    print(table["table"], table["position"] or "-", table["latest_instant"] or "-")
'
}

# Whether the build outputs are missing or older than the sources and poms they come from.
build_needed() {
  local f
  for f in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}" "${SLIM_BUNDLE_JAR}"; do
    [[ -s "${f}" ]] || { echo "missing: ${f#"${ROOT}/"}"; return 0; }
  done
  for f in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}"; do
    local newer
    newer="$(find "${ROOT}/hudi-utilities-ext/src/main" "${ROOT}/pom.xml" "${ROOT}/hudi-utilities-ext/pom.xml" \
      "${ROOT}/hudi-utilities-slim-bundle/pom.xml" -newer "${f}" -type f -print -quit)"
    [[ -z "${newer}" ]] || { echo "${newer#"${ROOT}/"} is newer than ${f#"${ROOT}/"}"; return 0; }
  done
  local jar
  while IFS= read -r jar; do
    [[ -z "${jar}" || -e "${jar}" ]] || { echo "missing from the local Maven repository: ${jar}"; return 0; }
  done < <(tr ':' '\n' < "${DEPLOYMENT_CP_FILE}")
  return 1
}

# Drops from the terminal (not from the logs) the one line that log4j cannot silence: JOL prints
# "# WARNING: Unable to attach Serviceability Agent..." to stdout on every launch, even when told to skip it.
quiet() { sed -u '/^# WARNING: Unable to attach Serviceability Agent/d'; }

# Runs a SQL file of demo/sql on a local Hudi-enabled Spark session (demo/RunSparkSql.java).
run_sql() {
  local file="$1" log="$2"
  java "${JAVA_OPTS[@]}" -cp "${DEPLOYMENT_CP}" "${DEMO_SRC}/RunSparkSql.java" "${file}" "DEMO_DIR=${DEMO_DIR}" \
    2>&1 | tee "${LOGS}/${log}" | quiet
}

# One HoodieStreamer sync, launched as spark-submit launches it.
run_streamer() {
  local log="$1"
  local submit_args=(
    --master 'local[2]'
    --conf spark.serializer=org.apache.spark.serializer.KryoSerializer
    --conf spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar
    --conf spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension
    --conf spark.ui.enabled=false
    --conf spark.sql.shuffle.partitions=2
    --conf spark.default.parallelism=2
    --conf "spark.sql.warehouse.dir=file://${DEMO_DIR}/spark-warehouse"
    --class org.apache.hudi.utilities.streamer.HoodieStreamer
    "${SLIM_BUNDLE_JAR}"
  )
  local STREAMER_ARGS=()
  streamer_job_args "file://${STREAMER_PROPS}" "file://${JOIN_SQL}" "${DEMO_DIR}" "${ORDERING_FIELD}"
  print_command "${submit_args[@]}" "${STREAMER_ARGS[@]}"
  java "${JAVA_OPTS[@]}" -cp "${PLUGIN_JAR}:${DEPLOYMENT_CP}" org.apache.spark.deploy.SparkSubmit \
    "${submit_args[@]}" "${STREAMER_ARGS[@]}" 2>&1 | tee "${LOGS}/${log}" | quiet
}

# Prints a launch readably: one option (and its value) a line.
print_command() {
  local out="" arg
  for arg in "$@"; do
    if [[ "${arg}" == --* || "${arg}" == *.jar ]]; then out+=$' \\\n    '"${arg}"; else out+=" ${arg}"; fi
  done
  printf 'java <Java 17 flags> -cp <plugin jar>:<deployment classpath> org.apache.spark.deploy.SparkSubmit%s\n\n' "${out}"
}

# Prints the target's checkpoint, read by the checkpoint tool as the Streamer reads it, next to the newest instants of
# the sources, and checks that it holds them; sets CHECKPOINT. $1: the log of the tool's run.
show_checkpoint() {
  local log="$1" shown facts commit table position latest newest=()
  echo "bash demo/run-tool.sh checkpoint show --output json <the job's --props, --hoodie-conf and --target-base-path>"
  # Exit status 1 (a table's next batch no longer readable) fails the demo too.
  shown="$(bash "${DEMO_SRC}/run-tool.sh" checkpoint show --output json "${TOOL_JOB[@]}" 2> "${LOGS}/${log}")" \
    || die "the checkpoint tool failed: see ${LOGS}/${log}"
  facts="$(checkpoint_facts <<< "${shown}")" || die "cannot read the checkpoint tool's JSON: ${shown}"
  { read -r commit; read -r CHECKPOINT; } <<< "${facts}"
  [[ "${commit}" != - ]] || die "the target ${DEMO_DIR}/joined has no completed commit holding a checkpoint"
  echo "stored by target commit: ${commit}"
  echo "deltastreamer.checkpoint.key = ${CHECKPOINT}"
  while read -r table position latest; do
    [[ "${position}" != - && "${position}" == "${latest}" ]] \
      || die "the checkpoint of ${table} (${position}) is not the newest instant of ${table} (${latest}): the Streamer did not read it all"
    newest+=("${table}=${latest}")
  done < <(tail -n +3 <<< "${facts}")
  ((${#newest[@]} == 2)) || die "the checkpoint tool showed ${#newest[@]} tables, not orders and users"
  echo "newest source instants:  $(IFS=,; echo "${newest[*]}")"
  echo "check: the checkpoint holds the newest instant of both sources: OK"
}

# ---------------------------------------------------------------------------------------------------- preconditions

DEMO_START="$(now)"

command -v java > /dev/null || die "java not found. Install a JDK 17, e.g.: sudo apt-get install openjdk-17-jdk-headless"
command -v python3 > /dev/null || die "python3 not found (it reads the checkpoint tool's JSON). Install it, e.g.: sudo apt-get install python3"
JAVA_MAJOR="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
[[ "${JAVA_MAJOR:-0}" -ge 17 ]] || die "java ${JAVA_MAJOR:-?} found; the demo needs Java 17 or later, the runtime the plugin is tested on (its classes are Java 11 bytecode)"

# The Java 17 flags Spark needs: one source of truth, the property spark.java17.opens of the root pom.
JAVA17_OPENS="$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' "${ROOT}/pom.xml")"
[[ -n "${JAVA17_OPENS}" ]] || die "cannot read <spark.java17.opens> from ${ROOT}/pom.xml"
read -r -a OPENS <<< "${JAVA17_OPENS}"
# -Djol.skipHotspotSAAttach=true: Hudi's object size estimator (JOL, relocated in the bundles) does not start a helper
# JVM to attach the HotSpot Serviceability Agent, which fails in containers anyway; it works without it.
JAVA_OPTS=("-Xmx${DEMO_JAVA_HEAP:-2g}" "${OPENS[@]}" -Djol.skipHotspotSAAttach=true
  "-Dlog4j2.configurationFile=file://${LOG4J_CONF}")

# A fresh work directory on every run (gitignored).
[[ "${DEMO_DIR}" == "${ROOT}/demo-output" ]] || die "unexpected work directory ${DEMO_DIR}"
rm -rf -- "${DEMO_DIR}"
mkdir -p "${LOGS}" "${DEMO_DIR}/conf"
# Anything a JVM writes to its working directory (spark-warehouse, ...) lands in the work directory.
cd "${DEMO_DIR}"

# ------------------------------------------------------------------------------------------------------------ build

banner "Build: plugin jar, rebuilt slim utilities bundle, deployment classpath"
BUILD_START="$(now)"
if reason="$(build_needed)"; then
  command -v mvn > /dev/null || die "mvn not found (needed to build: ${reason}). Install it, e.g.:
    sudo apt-get install maven openjdk-17-jdk-headless"
  echo "building (${reason}): mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package   (log: demo-output/logs/build.log)"
  # The deployment classpath is written at generate-test-resources, which -DskipTests still runs. What the demo runs,
  # not what CI checks: no tests, no checkstyle, no licence headers (RAT).
  if ! (cd "${ROOT}" && mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package > "${LOGS}/build.log" 2>&1); then
    echo "build failed; retrying once in 30 s (another build may have been writing target/ at the same time)"
    tail -n 20 "${LOGS}/build.log" | sed 's/\x1b\[[0-9;]*m//g'; echo
    sleep 30
    (cd "${ROOT}" && mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package > "${LOGS}/build.log" 2>&1) \
      || { tail -n 60 "${LOGS}/build.log" | sed 's/\x1b\[[0-9;]*m//g'; echo; die "the build failed: see ${LOGS}/build.log"; }
  fi
  for f in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}" "${SLIM_BUNDLE_JAR}"; do
    [[ -s "${f}" ]] || die "the build did not write ${f}"
  done
  echo "built in $(elapsed "${BUILD_START}") s"
else
  echo "up to date, not rebuilding: ${PLUGIN_JAR#"${ROOT}/"}, ${DEPLOYMENT_CP_FILE#"${ROOT}/"}"
fi
DEPLOYMENT_CP="$(tr -d '\n' < "${DEPLOYMENT_CP_FILE}")"
echo "deployment classpath: $(tr ':' '\n' <<< "${DEPLOYMENT_CP}" | grep -c .) jars (Hudi bundles, Spark, Hive for MOR reads)"

# ---------------------------------------------------------------------------------------------------------- round 1

banner "Round 1: create the source tables orders (COPY_ON_WRITE) and users (MERGE_ON_READ)   [demo/sql/create-sources.sql]"
STEP_START="$(now)"
run_sql "${DEMO_SRC}/sql/create-sources.sql" round1-create-sources.log
echo "(sources written in $(elapsed "${STEP_START}") s)"

banner "Round 1: HoodieStreamer sync, first run: no checkpoint yet, both tables read from the start"
STEP_START="$(now)"
run_streamer round1-streamer.log
ROUND1_STREAMER_SECONDS="$(elapsed "${STEP_START}")"
echo "(Streamer round 1 took ${ROUND1_STREAMER_SECONDS} s)"

banner "Round 1: committed checkpoint"
show_checkpoint round1-checkpoint.log
ROUND1_CHECKPOINT="${CHECKPOINT}"

banner "Round 1: target table joined   [demo/sql/show-target.sql]"
run_sql "${DEMO_SRC}/sql/show-target.sql" round1-show-target.log

# ---------------------------------------------------------------------------------------------------------- round 2

banner "Round 2: append to the sources: new order o4, order o1 updated, user u1 renamed alice -> alicia   [demo/sql/append.sql]"
run_sql "${DEMO_SRC}/sql/append.sql" round2-append.log

banner "Round 2: HoodieStreamer sync, same command: reads only what changed since the checkpoint"
STEP_START="$(now)"
run_streamer round2-streamer.log
ROUND2_STREAMER_SECONDS="$(elapsed "${STEP_START}")"
echo "(Streamer round 2 took ${ROUND2_STREAMER_SECONDS} s)"

banner "Round 2: committed checkpoint"
show_checkpoint round2-checkpoint.log
ROUND2_CHECKPOINT="${CHECKPOINT}"
echo "round 1 checkpoint:      ${ROUND1_CHECKPOINT}"
for table in orders users; do
  [[ "$(position_of "${ROUND2_CHECKPOINT}" "${table}")" != "$(position_of "${ROUND1_CHECKPOINT}" "${table}")" ]] \
    || die "the checkpoint of ${table} did not move between round 1 and round 2"
done
echo "check: the positions of both orders and users moved: OK"

banner "Round 2: target table joined   [demo/sql/show-target.sql]"
run_sql "${DEMO_SRC}/sql/show-target.sql" round2-show-target.log
# The demo data: o4 is new, o1 was updated, and alicia reaches both her orders (o3 itself did not change).
for expected in "o1 *|u1 *|11.0 *|alicia" "o3 *|u1 *|30.0 *|alicia" "o4 *|u2 *|40.0 *|bob"; do
  grep -Eq "\|${expected}" "${LOGS}/round2-show-target.log" || die "round 2 target lacks the row ${expected//[ *]/}"
done
echo "check: o4 added, o1 updated, alicia on o1 and o3: OK"

# -------------------------------------------------------------------------------------------------------- summary

banner "Done"
cat <<EOF
Files of this run (demo-output/ is recreated on every run):
  source tables:    ${DEMO_DIR}/orders   (COPY_ON_WRITE)
                    ${DEMO_DIR}/users    (MERGE_ON_READ)
  target table:     ${DEMO_DIR}/joined   (COPY_ON_WRITE, written by HoodieStreamer)
  job SQL used:     ${JOIN_SQL}
  logs:             ${LOGS}/
Job definition:     ${STREAMER_PROPS}, ${JOIN_SQL}
Timing:             Streamer round 1 ${ROUND1_STREAMER_SECONDS} s, round 2 ${ROUND2_STREAMER_SECONDS} s, whole demo $(elapsed "${DEMO_START}") s

SUMMARY: 2 Streamer rounds joined orders+users incrementally; checkpoint ${ROUND1_CHECKPOINT} -> ${ROUND2_CHECKPOINT}; target = full join (4 orders).
EOF
