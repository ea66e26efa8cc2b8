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

# The demo job on a Spark standalone cluster over S3, without Docker: one command,
#   bash demo/run-on-cluster.sh        (from any directory)
#
# 1. builds the plugin jar, the test classes, the S3Proxy starter (module test-servers/s3proxy) and the deployment
#    classpath if they are missing or older than the sources (mvn -B -DskipTests package, without checkstyle and RAT);
# 2. starts S3Proxy (an S3 endpoint) and a Spark standalone Master with two Workers, each its own JVM on 127.0.0.1
#    (testutils ClusterServices: the code the tests start them with), and uploads demo/conf's job files to
#    s3a://demo/jobs/;
# 3. creates the source tables orders (COPY_ON_WRITE) and users (MERGE_ON_READ) under s3a://demo/warehouse/;
# 4. round 1: spark-submit of the stock HoodieStreamer to the cluster, the Hudi Spark bundle and the plugin in --jars
#    (as the standalone command of docs/deployment.md); prints the committed checkpoint and the target, and checks
#    the target;
# 5. appends to the sources, round 2 with the same command, prints and checks again;
# 6. stops everything it started, also when a step fails. Logs: demo/target/cluster/logs/ (kept); the rest of
#    demo/target/cluster/ (tables in S3Proxy's memory, the Spark home, the executors' folders) is removed after a
#    successful run and kept after a failure.
#
# Environment: SUBMIT_MASTER overrides the master of the two Streamer runs (e.g. 'local[2]', to time the same job in
# local mode against the same S3); DEMO_JAVA_HEAP (default 1g) is the -Xmx of the drivers and the SQL runs.

set -euo pipefail

DEMO_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${DEMO_SRC}/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=streamer-job.sh
source "${DEMO_SRC}/streamer-job.sh"
WORK="${DEMO_SRC}/target/cluster"
LOGS="${WORK}/logs"
BUCKET=demo
WAREHOUSE="s3a://${BUCKET}/warehouse"
JOBS="s3a://${BUCKET}/jobs"

MODULE="${ROOT}/hudi-utilities-ext"
PLUGIN_JAR="${MODULE}/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
TEST_CLASSES="${MODULE}/target/test-classes"
DEPLOYMENT_CP_FILE="${MODULE}/target/deployment-classpath.txt"
S3PROXY_MODULE="${ROOT}/test-servers/s3proxy"
S3PROXY_CLASSES="${S3PROXY_MODULE}/target/classes"
S3PROXY_CP_FILE="${S3PROXY_MODULE}/target/s3proxy-classpath.txt"
# The services' starter (test classes) and the S3Proxy launcher it calls (module test-servers/s3proxy).
STARTER_CLASSES=(
  "${TEST_CLASSES}/org/apache/hudi/utilities/testutils/ClusterServices.class"
  "${S3PROXY_CLASSES}/org/apache/hudi/utilities/testutils/S3ProxyServer.class"
)
LOG4J_CONF="${DEMO_SRC}/conf/log4j2.properties"

export SPARK_LOCAL_IP=127.0.0.1

SERVICES_PID=""
on_exit() {
  local status=$?
  if [[ -n "${SERVICES_PID}" ]] && kill -0 "${SERVICES_PID}" 2> /dev/null; then
    echo "stopping S3Proxy and the Spark cluster (pid ${SERVICES_PID})"
    kill -TERM "${SERVICES_PID}" 2> /dev/null || true
    wait "${SERVICES_PID}" 2> /dev/null || true
  fi
  if [[ "${status}" -ne 0 ]]; then
    echo >&2
    echo "run-on-cluster.sh: FAILED (exit status ${status}). Logs: ${LOGS}/ (drivers, SQL runs, services); the" >&2
    echo "cluster's under ${WORK}/spark-cluster/ (logs/, and each executor's stderr in worker-<n>/<app>/<id>/)" >&2
  elif [[ -d "${WORK}" ]]; then
    find "${WORK}" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf -- {} +
  fi
}
trap on_exit EXIT

now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s; fi; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
banner() { printf '\n==== %s ====\n' "$*"; }
die() { echo "run-on-cluster.sh: ERROR: $*" >&2; exit 1; }
# JOL's one unsilenceable stdout line (see run-demo.sh), dropped from the terminal only.
quiet() { sed -u '/^# WARNING: Unable to attach Serviceability Agent/d'; }

# Whether a build output is missing or older than the sources and poms it comes from, or a jar of a classpath file is
# gone from the local Maven repository. mvn -DskipTests package writes them all, the plugin jar last.
stale() {
  local output
  for output in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}" "${S3PROXY_CP_FILE}" "${STARTER_CLASSES[@]}"; do
    [[ -s "${output}" ]] || { echo "missing: ${output#"${ROOT}/"}"; return 0; }
  done
  local newer
  newer="$(find "${MODULE}/src" "${S3PROXY_MODULE}/src" "${ROOT}/pom.xml" "${MODULE}/pom.xml" "${S3PROXY_MODULE}/pom.xml" \
    "${ROOT}/hudi-utilities-slim-bundle/pom.xml" -newer "${PLUGIN_JAR}" -type f -print -quit)"
  [[ -z "${newer}" ]] || { echo "${newer#"${ROOT}/"} is newer than the plugin jar"; return 0; }
  local jar
  while IFS= read -r jar; do
    [[ -z "${jar}" || -e "${jar}" ]] || { echo "missing: ${jar}"; return 0; }
  done < <(for file in "${DEPLOYMENT_CP_FILE}" "${S3PROXY_CP_FILE}"; do tr ':' '\n' < "${file}"; echo; done)
  return 1
}

# Spark SQL on a local session that reaches the S3 endpoint (demo/RunSparkSql.java; DEMO_DIR is the warehouse).
run_sql() {
  local file="$1" log="$2"
  java "${JAVA_OPTS[@]}" "${S3A_SYSTEM_PROPERTIES[@]}" -cp "${DEPLOYMENT_CP}" "${DEMO_SRC}/RunSparkSql.java" "${file}" \
    "DEMO_DIR=${WAREHOUSE}" 2>&1 | tee "${LOGS}/${log}" | quiet
}

# One HoodieStreamer run, submitted as the standalone command of docs/deployment.md: Spark's jars/ on the driver's
# classpath (what spark-submit puts there), the Hudi Spark bundle and the plugin in --jars, the utilities bundle as the
# primary jar.
run_streamer() {
  local log="$1"
  local submit_args=(
    --master "${SUBMIT_MASTER:-${MASTER_URL}}" --deploy-mode client
    --jars "${SPARK_BUNDLE_JAR},${PLUGIN_JAR}"
    --conf spark.serializer=org.apache.spark.serializer.KryoSerializer
    --conf spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar
    --conf spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension
    --conf spark.ui.enabled=false
    --conf spark.executor.memory=1g --conf spark.executor.cores=1
    --conf "spark.executor.extraJavaOptions=${JAVA17_OPENS}"
    --conf spark.sql.shuffle.partitions=2 --conf spark.default.parallelism=2
    "${S3A_CONF[@]}"
    --class org.apache.hudi.utilities.streamer.HoodieStreamer
    "${SLIM_BUNDLE_JAR}"
  )
  local STREAMER_ARGS=()
  streamer_job_args "${JOBS}/streamer.properties" "${JOBS}/join.sql" "${WAREHOUSE}"
  local out="" arg
  for arg in "${submit_args[@]}" "${STREAMER_ARGS[@]}"; do
    if [[ "${arg}" == --* ]]; then out+=$' \\\n    '"${arg}"; else out+=" ${arg}"; fi
  done
  printf 'spark-submit (java <Java 17 flags> -cp %s/jars/* org.apache.spark.deploy.SparkSubmit)%s\n\n' \
    "${SPARK_HOME}" "${out//"${JAVA17_OPENS}"/<Java 17 flags>}"
  java "${JAVA_OPTS[@]}" -cp "${SPARK_HOME}/jars/*" org.apache.spark.deploy.SparkSubmit \
    "${submit_args[@]}" "${STREAMER_ARGS[@]}" > "${LOGS}/${log}" 2>&1 \
    || { tail -n 40 "${LOGS}/${log}"; die "the Streamer run failed: see ${LOGS}/${log}"; }
}

# Prints the checkpoint of the target's newest commit and the target, checked against the join of the sources
# (demo/sql/show-checkpoint.sql, then demo/sql/show-target.sql, in one Spark session: each costs a JVM start); sets
# CHECKPOINT.
show_round() {
  local log="$1" sql="${WORK}/show-round.sql"
  cat "${DEMO_SRC}/sql/show-checkpoint.sql" "${DEMO_SRC}/sql/show-target.sql" > "${sql}"
  run_sql "${sql}" "${log}"
  CHECKPOINT="$(grep -Eo 'orders=[0-9]+,users=[0-9]+' "${LOGS}/${log}" | head -n 1)"
  [[ -n "${CHECKPOINT}" ]] || die "no checkpoint found in the target's newest commit: see ${LOGS}/${log}"
  echo "deltastreamer.checkpoint.key = ${CHECKPOINT}"
}

# ---------------------------------------------------------------------------------------------------- preconditions

START="$(now)"
command -v java > /dev/null || die "java not found. Install a JDK 17, e.g.: sudo apt-get install openjdk-17-jdk-headless"
JAVA_MAJOR="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
[[ "${JAVA_MAJOR:-0}" -ge 17 ]] || die "java ${JAVA_MAJOR:-?} found; the demo needs Java 17 or later"
# The Java 17 flags Spark needs: one source of truth, the property spark.java17.opens of the root pom.
JAVA17_OPENS="$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' "${ROOT}/pom.xml")"
[[ -n "${JAVA17_OPENS}" ]] || die "cannot read <spark.java17.opens> from ${ROOT}/pom.xml"
read -r -a OPENS <<< "${JAVA17_OPENS}"
JAVA_OPTS=("-Xmx${DEMO_JAVA_HEAP:-1g}" "${OPENS[@]}" -Djol.skipHotspotSAAttach=true
  "-Dlog4j2.configurationFile=file://${LOG4J_CONF}")

rm -rf -- "${WORK}"
mkdir -p "${LOGS}"
cd "${WORK}"

banner "Build: plugin jar, test classes and S3Proxy starter (the services' starter), deployment classpath"
STEP="$(now)"
if reason="$(stale)"; then
  command -v mvn > /dev/null || die "mvn not found (needed to build: ${reason})"
  # Builds what the demo runs, not what CI checks: no tests, no checkstyle, no licence headers (RAT).
  echo "building (${reason}): mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package   (log: ${LOGS}/build.log)"
  (cd "${ROOT}" && mvn -B -DskipTests -Dcheckstyle.skip -Drat.skip package > "${LOGS}/build.log" 2>&1) \
    || { tail -n 40 "${LOGS}/build.log"; die "the build failed: see ${LOGS}/build.log"; }
  for output in "${PLUGIN_JAR}" "${DEPLOYMENT_CP_FILE}" "${S3PROXY_CP_FILE}" "${STARTER_CLASSES[@]}"; do
    [[ -s "${output}" ]] || die "the build did not write ${output}"
  done
  echo "built in $(elapsed "${STEP}") s"
else
  echo "up to date: ${PLUGIN_JAR#"${ROOT}/"}, test classes, ${S3PROXY_CLASSES#"${ROOT}/"}"
fi
DEPLOYMENT_CP="$(tr -d '\n' < "${DEPLOYMENT_CP_FILE}")"
SLIM_BUNDLE_JAR="$(tr ':' '\n' <<< "${DEPLOYMENT_CP}" | grep '/hudi-utilities-slim-bundle[^/]*\.jar$')"
SPARK_BUNDLE_JAR="$(tr ':' '\n' <<< "${DEPLOYMENT_CP}" | grep '/hudi-spark3.4-bundle[^/]*\.jar$')"

# --------------------------------------------------------------------------------------------------------- services

banner "Start S3Proxy and a Spark standalone cluster (Master + 2 Workers, separate JVMs on 127.0.0.1)"
# S3 credentials of this run: random, in the environment only (S3Proxy's, the Workers' and so the executors', the
# drivers'), never on a command line or in a log.
AWS_ACCESS_KEY_ID="demo$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
AWS_SECRET_ACCESS_KEY="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
STEP="$(now)"
java -Xmx512m "${OPENS[@]}" -Ds3proxy.classpath.file="${S3PROXY_CP_FILE}" \
  -Ddeployment.classpath.file="${DEPLOYMENT_CP_FILE}" "-Dspark.java17.opens=${JAVA17_OPENS}" \
  -Dtest.server.logs.dir="${LOGS}" -cp "${TEST_CLASSES}:${S3PROXY_CLASSES}:${DEPLOYMENT_CP}" \
  org.apache.hudi.utilities.testutils.ClusterServices "${WORK}" "${BUCKET}" \
  "jobs/streamer.properties=${DEMO_SRC}/conf/streamer.properties" "jobs/join.sql=${DEMO_SRC}/conf/join.sql" \
  > "${LOGS}/services.log" 2>&1 &
SERVICES_PID=$!
until [[ -s "${WORK}/services.env" ]]; do
  kill -0 "${SERVICES_PID}" 2> /dev/null || { tail -n 40 "${LOGS}/services.log"; die "the services did not start"; }
  sleep 1
done
# shellcheck source=/dev/null
source "${WORK}/services.env"
grep -v '^\s*at ' "${LOGS}/services.log" | grep -E '^(S3Proxy|uploaded|Spark master)' || true
echo "(up in $(elapsed "${STEP}") s)"
S3A_SETTINGS=(
  "fs.s3a.endpoint=${S3_ENDPOINT}" "fs.s3a.endpoint.region=${S3_REGION}" fs.s3a.path.style.access=true
  fs.s3a.connection.ssl.enabled=false fs.s3a.aws.credentials.provider=com.amazonaws.auth.EnvironmentVariableCredentialsProvider
)
S3A_CONF=()
S3A_SYSTEM_PROPERTIES=()
for setting in "${S3A_SETTINGS[@]}"; do
  S3A_CONF+=(--conf "spark.hadoop.${setting}")
  S3A_SYSTEM_PROPERTIES+=("-Dspark.hadoop.${setting}")
done

# ----------------------------------------------------------------------------------------------------------- rounds

banner "Round 1: create the source tables orders (COPY_ON_WRITE) and users (MERGE_ON_READ) on S3   [demo/sql/create-sources.sql]"
run_sql "${DEMO_SRC}/sql/create-sources.sql" round1-create-sources.log

banner "Round 1: HoodieStreamer on ${SUBMIT_MASTER:-${MASTER_URL}}: no checkpoint yet, both tables read from the start"
STEP="$(now)"
run_streamer round1-streamer.log
ROUND1_SECONDS="$(elapsed "${STEP}")"
echo "(Streamer round 1 took ${ROUND1_SECONDS} s)"

banner "Round 1: committed checkpoint and target table joined   [demo/sql/show-checkpoint.sql, demo/sql/show-target.sql]"
show_round round1-show.log
ROUND1_CHECKPOINT="${CHECKPOINT}"

banner "Round 2: append to the sources: new order o4, order o1 updated, user u1 renamed   [demo/sql/append.sql]"
run_sql "${DEMO_SRC}/sql/append.sql" round2-append.log

banner "Round 2: HoodieStreamer, same command: reads only what changed since the checkpoint"
STEP="$(now)"
run_streamer round2-streamer.log
ROUND2_SECONDS="$(elapsed "${STEP}")"
echo "(Streamer round 2 took ${ROUND2_SECONDS} s)"

banner "Round 2: committed checkpoint and target table joined   [demo/sql/show-checkpoint.sql, demo/sql/show-target.sql]"
show_round round2-show.log
ROUND2_CHECKPOINT="${CHECKPOINT}"
for table in orders users; do
  [[ "$(tr ',' '\n' <<< "${ROUND2_CHECKPOINT}" | grep "^${table}=")" != "$(tr ',' '\n' <<< "${ROUND1_CHECKPOINT}" | grep "^${table}=")" ]] \
    || die "the checkpoint of ${table} did not move between round 1 and round 2"
done
echo "check: the positions of both orders and users moved: OK"

for expected in "o1 *|u1 *|11.0 *|alicia" "o3 *|u1 *|30.0 *|alicia" "o4 *|u2 *|40.0 *|bob"; do
  grep -Eq "\|${expected}" "${LOGS}/round2-show.log" || die "round 2 target lacks the row ${expected//[ *]/}"
done
echo "check: o4 added, o1 updated, alicia on o1 and o3: OK"
if [[ -z "${SUBMIT_MASTER:-}" ]]; then
  grep -l "Fetching spark://.*/jars/$(basename "${PLUGIN_JAR}")" "${CLUSTER_DIR}"/worker-*/app-*/*/stderr > /dev/null \
    || die "no executor log shows the plugin jar fetched from the driver (--jars)"
  echo "check: the executors fetched the plugin jar from the driver (--jars): OK"
fi

banner "Done"
cat <<EOF
Cluster:   ${MASTER_URL} (Master + 2 Workers), S3 endpoint ${S3_ENDPOINT} (S3Proxy), both stopped now
Tables:    ${WAREHOUSE}/orders, ${WAREHOUSE}/users, ${WAREHOUSE}/joined (in S3Proxy's memory, gone with it)
Job files: demo/conf/streamer.properties, demo/conf/join.sql (uploaded to ${JOBS}/)
Logs:      ${LOGS}/
Timing:    Streamer round 1 ${ROUND1_SECONDS} s, round 2 ${ROUND2_SECONDS} s on ${SUBMIT_MASTER:-the cluster}, whole run $(elapsed "${START}") s

SUMMARY: 2 Streamer rounds on ${SUBMIT_MASTER:-${MASTER_URL}} joined orders+users on S3; checkpoint ${ROUND1_CHECKPOINT} -> ${ROUND2_CHECKPOINT}; target = full join (4 orders).
EOF
