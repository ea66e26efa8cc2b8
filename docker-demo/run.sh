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

# The demo job of demo/ on a Spark 3.4 standalone cluster in Docker, with its tables on MinIO over s3a://:
#   bash docker-demo/run.sh        (from any directory; needs Docker with Compose, and Java 17 + Maven to build)
#
# 1. builds the plugin jar and the rebuilt slim utilities bundle if they are missing or older than the sources, and
#    fetches hadoop-aws 3.3.4 and aws-java-sdk-bundle 1.12.262 into the local Maven repository if they are missing;
# 2. starts docker-demo/docker-compose.yml (Spark master + 2 workers, MinIO and its bucket, Kafka, pushgateway,
#    Prometheus) and waits for both workers;
# 3. creates the source tables orders and users under s3a://hudi-demo/warehouse/ (demo/sql/create-sources.sql);
# 4. round 1: spark-submit of the stock HoodieStreamer against spark://spark-master:7077 with the job files of
#    demo/conf (streamer.properties and join.sql, uploaded to s3a://hudi-demo/jobs/); prints checkpoint and target;
# 5. appends to the sources (demo/sql/append.sql); round 2; prints and checks the checkpoint and the target;
# 6. prints the freshness metrics the commit callback pushed to the pushgateway, as Prometheus scraped them;
# 7. tears the stack down (containers and networks), also when a step fails.
#
# Environment:
#   MINIO_ROOT_USER, MINIO_ROOT_PASSWORD  MinIO's credentials, which Spark gets as AWS_ACCESS_KEY_ID and
#                                         AWS_SECRET_ACCESS_KEY; random ones are generated when unset. Never printed.
#   MAVEN_REPOSITORY                      the local Maven repository mounted into the Spark containers
#                                         (default ~/.m2/repository)
#   KEEP_STACK=1                          leave the stack running at the end (stop it with the command printed)

set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${HERE}/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=../demo/streamer-job.sh
source "${ROOT}/demo/streamer-job.sh"
LOGS="${HERE}/target/logs"
PROJECT=hudi-ext-demo

# Build outputs on the host (mounted at /opt/hudi-ext/plugin and /opt/hudi-ext/slim-bundle).
PLUGIN_JAR="${ROOT}/hudi-utilities-ext/target/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
SLIM_BUNDLE_JAR="${ROOT}/hudi-utilities-slim-bundle/target/hudi-utilities-slim-bundle-rebuilt_2.12-0.1.0-SNAPSHOT.jar"
# The local Maven repository (mounted at /opt/hudi-ext/m2) and what the job takes from it.
export MAVEN_REPOSITORY="${MAVEN_REPOSITORY:-${HOME}/.m2/repository}"
M2_JARS=(
  org/apache/hudi/hudi-spark3.4-bundle_2.12/0.14.0/hudi-spark3.4-bundle_2.12-0.14.0.jar
  org/apache/hadoop/hadoop-aws/3.3.4/hadoop-aws-3.3.4.jar
  com/amazonaws/aws-java-sdk-bundle/1.12.262/aws-java-sdk-bundle-1.12.262.jar
)

BUCKET=hudi-demo
WAREHOUSE="s3a://${BUCKET}/warehouse"
JOBS="s3a://${BUCKET}/jobs"

# ---------------------------------------------------------------------------------------------------------- helpers

banner() { printf '\n==== %s ====\n' "$*"; }
die() { echo "run.sh: ERROR: $*" >&2; exit 1; }
random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

compose() { "${COMPOSE[@]}" -p "${PROJECT}" -f "${HERE}/docker-compose.yml" "$@"; }

# A command in the Spark master's container, where the driver of every job runs (client mode).
on_master() { compose exec -T spark-master "$@"; }

# A shell command in a fresh mc container; the alias "demo" is MinIO, its credentials come from the environment.
# Compose's own messages (creating and removing the container) go to mc.log.
# shellcheck disable=SC2016 # expanded by the container's shell, not here
mc_sh() {
  compose run --rm --no-deps -T --entrypoint /bin/sh createbuckets -c \
    'export MC_HOST_demo="http://${MINIO_ROOT_USER}:${MINIO_ROOT_PASSWORD}@minio:9000"; '"$1" 2>> "${LOGS}/mc.log"
}

# What spark-sql and spark-submit share: the cluster, the Hudi bundle and the plugin, S3A on MinIO.
SPARK_CONF=(
  --master spark://spark-master:7077
  --deploy-mode client
  --conf spark.driver.host=spark-master
  --conf spark.driver.memory=1g
  --conf spark.executor.memory=1g
  --conf spark.executor.cores=1
  --conf spark.cores.max=2
  --conf spark.sql.shuffle.partitions=2
  --conf spark.default.parallelism=2
  --conf spark.ui.showConsoleProgress=false
  --conf spark.serializer=org.apache.spark.serializer.KryoSerializer
  --conf spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar
  --conf spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension
  --conf "spark.driver.extraJavaOptions=-Dlog4j2.configurationFile=file:/opt/hudi-ext/demo/conf/log4j2.properties"
  # The Hudi Spark bundle and the plugin, together (the plugin must be in the class loader that loads Hudi).
  --jars "/opt/hudi-ext/m2/org/apache/hudi/hudi-spark3.4-bundle_2.12/0.14.0/hudi-spark3.4-bundle_2.12-0.14.0.jar,/opt/hudi-ext/plugin/hudi-utilities-ext_2.12-0.1.0-SNAPSHOT.jar"
  # S3A: hadoop-aws matching the image's Hadoop 3.3.4, on the JVM class path of the driver and of every executor.
  --conf "spark.driver.extraClassPath=/opt/hudi-ext/m2/org/apache/hadoop/hadoop-aws/3.3.4/hadoop-aws-3.3.4.jar:/opt/hudi-ext/m2/com/amazonaws/aws-java-sdk-bundle/1.12.262/aws-java-sdk-bundle-1.12.262.jar"
  --conf "spark.executor.extraClassPath=/opt/hudi-ext/m2/org/apache/hadoop/hadoop-aws/3.3.4/hadoop-aws-3.3.4.jar:/opt/hudi-ext/m2/com/amazonaws/aws-java-sdk-bundle/1.12.262/aws-java-sdk-bundle-1.12.262.jar"
  --conf spark.hadoop.fs.s3a.endpoint=http://minio:9000
  --conf spark.hadoop.fs.s3a.endpoint.region=us-east-1
  --conf spark.hadoop.fs.s3a.path.style.access=true
  --conf spark.hadoop.fs.s3a.connection.ssl.enabled=false
  # Keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY of each JVM (executors inherit the workers' environment).
  --conf spark.hadoop.fs.s3a.aws.credentials.provider=com.amazonaws.auth.EnvironmentVariableCredentialsProvider
)

# Runs a SQL file of demo/sql with spark-sql on the cluster; ${DEMO_DIR} in the file becomes the warehouse.
run_sql() {
  local file="$1" log="$2"
  on_master /opt/spark/bin/spark-sql "${SPARK_CONF[@]}" \
    --conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.hudi.catalog.HoodieCatalog \
    --hiveconf hive.cli.print.header=true \
    --hivevar "DEMO_DIR=${WAREHOUSE}" \
    -f "${file}" 2>&1 | tee "${LOGS}/${log}"
}

# One HoodieStreamer sync: the job of demo/run-demo.sh, on the cluster, with s3a:// paths, plus the freshness
# callback publishing to the pushgateway.
run_streamer() {
  local log="$1"
  local STREAMER_ARGS=()
  streamer_job_args "${JOBS}/streamer.properties" "${JOBS}/join.sql" "${WAREHOUSE}"
  on_master /opt/spark/bin/spark-submit "${SPARK_CONF[@]}" \
    --class org.apache.hudi.utilities.streamer.HoodieStreamer \
    /opt/hudi-ext/slim-bundle/hudi-utilities-slim-bundle-rebuilt_2.12-0.1.0-SNAPSHOT.jar \
    "${STREAMER_ARGS[@]}" \
    --hoodie-conf hoodie.write.commit.callback.on=true \
    --hoodie-conf hoodie.write.commit.callback.class=org.apache.hudi.utilities.callback.FreshnessCommitCallback \
    --hoodie-conf hoodie.metrics.on=true \
    --hoodie-conf hoodie.metrics.reporter.type=PROMETHEUS_PUSHGATEWAY \
    --hoodie-conf hoodie.metrics.pushgateway.host=pushgateway \
    --hoodie-conf hoodie.metrics.pushgateway.port=9091 \
    --hoodie-conf hoodie.metrics.pushgateway.job.name=hudi_freshness \
    --hoodie-conf hoodie.metrics.pushgateway.random.job.name.suffix=false \
    --hoodie-conf hoodie.metrics.pushgateway.delete.on.shutdown=false \
    --hoodie-conf hoodie.streamer.freshness.prometheus.pushgateway.address=pushgateway:9091 \
    2>&1 | tee "${LOGS}/${log}"
}

# Completed instants of a table (file names <instant>.commit, .deltacommit, .replacecommit), oldest first.
completed_instants() {
  mc_sh "mc ls demo/${BUCKET}/warehouse/$1/.hoodie/" | awk '{ print $NF }' \
    | grep -E '^[0-9]+\.(commit|deltacommit|replacecommit)$' | sort || true
}
latest_instant() { completed_instants "$1" | tail -n 1 | cut -d. -f1; }

# Value of one table in a checkpoint "orders=2026...,users=2026...".

# Prints the checkpoint of the target's newest commit and checks it against the sources; sets CHECKPOINT.
show_checkpoint() {
  local commit
  commit="$(completed_instants joined | grep '\.commit$' | tail -n 1 || true)"
  [[ -n "${commit}" ]] || die "the target ${WAREHOUSE}/joined has no completed commit"
  CHECKPOINT="$(mc_sh "mc cat demo/${BUCKET}/warehouse/joined/.hoodie/${commit}" \
    | sed -n 's/.*"deltastreamer\.checkpoint\.key"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)"
  [[ -n "${CHECKPOINT}" ]] || die "no deltastreamer.checkpoint.key in ${WAREHOUSE}/joined/.hoodie/${commit}"
  local orders users
  orders="$(latest_instant orders)"
  users="$(latest_instant users)"
  echo "newest target commit:    ${WAREHOUSE}/joined/.hoodie/${commit}"
  echo "deltastreamer.checkpoint.key = ${CHECKPOINT}"
  echo "newest source instants:  orders=${orders},users=${users}"
  [[ "$(position_of "${CHECKPOINT}" orders)" == "${orders}" && "$(position_of "${CHECKPOINT}" users)" == "${users}" ]] \
    || die "the checkpoint does not hold the newest instant of both sources: the Streamer did not read them all"
  echo "check: the checkpoint holds the newest instant of both sources: OK"
}

# Whether the build outputs are missing or older than the sources and poms they come from.
build_needed() {
  local f newer
  for f in "${PLUGIN_JAR}" "${SLIM_BUNDLE_JAR}" "${MAVEN_REPOSITORY}/${M2_JARS[0]}"; do
    [[ -s "${f}" ]] || { echo "missing: ${f}"; return 0; }
  done
  newer="$(find "${ROOT}/hudi-utilities-ext/src/main" "${ROOT}/pom.xml" "${ROOT}/hudi-utilities-ext/pom.xml" \
    "${ROOT}/hudi-utilities-slim-bundle/pom.xml" -newer "${PLUGIN_JAR}" -type f -print -quit)"
  [[ -z "${newer}" ]] || { echo "${newer#"${ROOT}/"} is newer than the plugin jar"; return 0; }
  return 1
}

# ---------------------------------------------------------------------------------------------------- preconditions

STACK_UP=0
on_exit() {
  local status=$?
  if [[ "${STACK_UP}" -eq 1 ]]; then
    if [[ "${status}" -ne 0 ]]; then
      compose logs --no-color --tail 200 > "${LOGS}/stack.log" 2>&1 || true
      echo "run.sh: FAILED (exit status ${status}). Logs: ${LOGS}/ (the containers' in stack.log)" >&2
    fi
    if [[ "${KEEP_STACK:-0}" == 1 ]]; then
      echo "KEEP_STACK=1: the stack is still running. Stop it with:"
      echo "  ${COMPOSE[*]} -p ${PROJECT} -f ${HERE}/docker-compose.yml down -v"
    else
      banner "Tear down"
      compose down -v --remove-orphans || true
    fi
  elif [[ "${status}" -ne 0 ]]; then
    echo "run.sh: FAILED (exit status ${status})" >&2
  fi
}
trap on_exit EXIT

command -v docker > /dev/null || die "docker not found: this demo needs Docker with Compose (see docker-demo/README.md)"
if docker compose version > /dev/null 2>&1; then
  COMPOSE=(docker compose)
elif command -v docker-compose > /dev/null; then
  COMPOSE=(docker-compose)
else
  die "neither 'docker compose' nor 'docker-compose' found"
fi
docker info > /dev/null 2>&1 || die "no Docker engine answers ('docker info' failed): start Docker first"

# MinIO's root credentials, which are also Spark's S3 credentials. Generated when unset; never printed.
if [[ -z "${MINIO_ROOT_USER:-}" || -z "${MINIO_ROOT_PASSWORD:-}" ]]; then
  MINIO_ROOT_USER="demo$(random_hex 4)"
  MINIO_ROOT_PASSWORD="$(random_hex 20)"
  echo "MinIO credentials: generated for this run (not printed; set MINIO_ROOT_USER and MINIO_ROOT_PASSWORD to choose)"
fi
[[ ${#MINIO_ROOT_USER} -ge 3 && ${#MINIO_ROOT_PASSWORD} -ge 8 ]] \
  || die "MinIO needs MINIO_ROOT_USER of 3 characters or more and MINIO_ROOT_PASSWORD of 8 or more"
[[ "${MINIO_ROOT_USER}${MINIO_ROOT_PASSWORD}" =~ ^[A-Za-z0-9._~-]+$ ]] \
  || die "MINIO_ROOT_USER and MINIO_ROOT_PASSWORD may hold only letters, digits and . _ ~ - (they go into a URL)"
export MINIO_ROOT_USER MINIO_ROOT_PASSWORD

mkdir -p "${LOGS}"
rm -f -- "${LOGS}"/*

# ------------------------------------------------------------------------------------------------------------ build

banner "Build: plugin jar, rebuilt slim utilities bundle; S3A jars in the local Maven repository"
if reason="$(build_needed)"; then
  command -v mvn > /dev/null || die "mvn not found (needed to build: ${reason}). Install Java 17 and Maven 3.8+"
  echo "building (${reason}): mvn -B -DskipTests package   (log: ${LOGS#"${ROOT}/"}/build.log)"
  (cd "${ROOT}" && mvn -B -DskipTests "-Dmaven.repo.local=${MAVEN_REPOSITORY}" package > "${LOGS}/build.log" 2>&1) \
    || { tail -n 40 "${LOGS}/build.log"; die "the build failed: see ${LOGS}/build.log"; }
else
  echo "up to date, not rebuilding: ${PLUGIN_JAR#"${ROOT}/"}, ${SLIM_BUNDLE_JAR#"${ROOT}/"}"
fi
for jar in "${M2_JARS[@]}"; do
  if [[ ! -s "${MAVEN_REPOSITORY}/${jar}" ]]; then
    command -v mvn > /dev/null || die "mvn not found (needed to fetch ${jar})"
    IFS=/ read -r -a parts <<< "${jar}"
    n=${#parts[@]}
    group="$(IFS=.; echo "${parts[*]:0:n-3}")"
    coordinates="${group}:${parts[n-3]}:${parts[n-2]}"
    echo "fetching ${coordinates} into ${MAVEN_REPOSITORY}"
    mvn -B -q "-Dmaven.repo.local=${MAVEN_REPOSITORY}" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get "-Dartifact=${coordinates}" -Dtransitive=false \
      > "${LOGS}/fetch.log" 2>&1 || { tail -n 20 "${LOGS}/fetch.log"; die "cannot fetch ${coordinates}"; }
  fi
done
for f in "${PLUGIN_JAR}" "${SLIM_BUNDLE_JAR}"; do
  [[ -s "${f}" ]] || die "the build did not write ${f}"
done
echo "mounted into the Spark containers:"
echo "  ${PLUGIN_JAR}"
echo "  ${SLIM_BUNDLE_JAR}"
for jar in "${M2_JARS[@]}"; do echo "  ${MAVEN_REPOSITORY}/${jar}"; done

# ------------------------------------------------------------------------------------------------------------ stack

banner "Stack: Spark master + 2 workers (apache/spark:3.4.1), MinIO + bucket, Kafka (KRaft), pushgateway, Prometheus"
STACK_UP=1
compose up -d 2>&1 | tee "${LOGS}/up.log"
tries=0
until on_master wget -qO- http://spark-master:8080/json/ 2> /dev/null | grep -Eq '"aliveworkers" *: *2'; do
  tries=$((tries + 1))
  [[ "${tries}" -lt 90 ]] || die "the Spark master does not list 2 alive workers after 3 minutes"
  sleep 2
done
echo "Spark master spark://spark-master:7077 has 2 alive workers (web UI: http://127.0.0.1:8080)"
echo "bucket s3a://${BUCKET} holds the job files:"
mc_sh "mc ls demo/${BUCKET}/jobs/" | awk '{ print "  '"${JOBS}"'/" $NF }'
tries=0
until compose exec -T kafka /opt/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server kafka:9092 > /dev/null 2>&1; do
  tries=$((tries + 1))
  [[ "${tries}" -lt 30 ]] || die "the Kafka broker does not answer on kafka:9092"
  sleep 2
done
echo "Kafka broker (KRaft) answers on kafka:9092; the demo job does not read from it"

# ---------------------------------------------------------------------------------------------------------- round 1

banner "Round 1: create the source tables orders (COPY_ON_WRITE) and users (MERGE_ON_READ) on MinIO   [demo/sql/create-sources.sql]"
run_sql /opt/hudi-ext/demo/sql/create-sources.sql round1-create-sources.log

banner "Round 1: HoodieStreamer on spark://spark-master:7077, first run: both tables read from the start"
run_streamer round1-streamer.log

banner "Round 1: committed checkpoint"
show_checkpoint
ROUND1_CHECKPOINT="${CHECKPOINT}"

banner "Round 1: target table joined   [demo/sql/show-target.sql]"
run_sql /opt/hudi-ext/demo/sql/show-target.sql round1-show-target.log

# ---------------------------------------------------------------------------------------------------------- round 2

banner "Round 2: append to the sources: new order o4, order o1 updated, user u1 renamed alice -> alicia   [demo/sql/append.sql]"
run_sql /opt/hudi-ext/demo/sql/append.sql round2-append.log

banner "Round 2: HoodieStreamer, same command: reads only what changed since the checkpoint"
run_streamer round2-streamer.log

banner "Round 2: committed checkpoint"
show_checkpoint
ROUND2_CHECKPOINT="${CHECKPOINT}"
echo "round 1 checkpoint:      ${ROUND1_CHECKPOINT}"
for table in orders users; do
  [[ "$(position_of "${ROUND2_CHECKPOINT}" "${table}")" != "$(position_of "${ROUND1_CHECKPOINT}" "${table}")" ]] \
    || die "the checkpoint of ${table} did not move between round 1 and round 2"
done
echo "check: the positions of both orders and users moved: OK"

banner "Round 2: target table joined   [demo/sql/show-target.sql]"
run_sql /opt/hudi-ext/demo/sql/show-target.sql round2-show-target.log
# spark-sql prints rows tab-separated: order_id, user_id, amount, user_name, ts, _hoodie_commit_time.
for expected in $'o1\tu1\t11.0\talicia' $'o3\tu1\t30.0\talicia' $'o4\tu2\t40.0\tbob'; do
  grep -q "^${expected}"$'\t' "${LOGS}/round2-show-target.log" \
    || die "round 2 target lacks the row ${expected//$'\t'/,}"
done
echo "check: o4 added, o1 updated, alicia on o1 and o3: OK"

# -------------------------------------------------------------------------------------------------------- freshness

banner "Freshness: what FreshnessCommitCallback pushed after round 2 (pushgateway), and Prometheus' scrape of it"
on_master wget -qO- http://pushgateway:9091/metrics | grep '^hudi_freshness_joined_' | tee "${LOGS}/pushgateway.txt" \
  || die "the pushgateway has no hudi_freshness_joined_* metric: see ${LOGS}/round2-streamer.log"
grep -Eq '^hudi_freshness_joined_failures(\{[^}]*\})? 0(\.0)?$' "${LOGS}/pushgateway.txt" \
  || die "the freshness callback counted failures: see ${LOGS}/round2-streamer.log"
tries=0
until on_master wget -qO- 'http://prometheus:9090/api/v1/query?query=hudi_freshness_joined_lag_seconds' \
    > "${LOGS}/prometheus.json" 2> /dev/null && grep -q '"value"' "${LOGS}/prometheus.json"; do
  tries=$((tries + 1))
  [[ "${tries}" -lt 15 ]] || die "Prometheus has not scraped hudi_freshness_joined_lag_seconds after 30 s"
  sleep 2
done
echo "Prometheus: hudi_freshness_joined_lag_seconds = $(sed -n 's/.*"value":\[[^,]*,"\([^"]*\)"\].*/\1/p' "${LOGS}/prometheus.json")"
tries=0
until on_master wget -qO- 'http://prometheus:9090/api/v1/query?query=hudi_freshness_lag_seconds%7Bpipeline%3D%22joined%22%7D' \
    > "${LOGS}/prometheus-labelled.json" 2> /dev/null && grep -q '"source":"users"' "${LOGS}/prometheus-labelled.json"; do
  tries=$((tries + 1))
  [[ "${tries}" -lt 15 ]] || die "Prometheus has not scraped hudi_freshness_lag_seconds{pipeline=\"joined\"} after 30 s"
  sleep 2
done
echo "Prometheus: hudi_freshness_lag_seconds{pipeline=\"joined\"} has a series per source (dashboard: http://127.0.0.1:3000)"
echo "check: freshness published through the pushgateway and scraped by Prometheus: OK"

# -------------------------------------------------------------------------------------------------------- summary

banner "Done"
cat <<EOF
Tables (removed with the stack):  ${WAREHOUSE}/orders, ${WAREHOUSE}/users, ${WAREHOUSE}/joined
Job files (from demo/conf):       ${JOBS}/streamer.properties, ${JOBS}/join.sql
Logs:                             ${LOGS}/

SUMMARY: 2 Streamer rounds on spark://spark-master:7077 joined orders+users on MinIO; checkpoint ${ROUND1_CHECKPOINT} -> ${ROUND2_CHECKPOINT}; target = full join (4 orders).
EOF
