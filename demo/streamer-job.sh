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
# The demo's Streamer job, in one place for demo/run-demo.sh, demo/run-on-cluster.sh and docker-demo/run.sh: sourced,
# not run. Only where the job's files live differs between them (local files, S3Proxy, MinIO).

# Sets STREAMER_ARGS (declare it local in the caller) to the HoodieStreamer arguments of the demo job:
#   $1  the streamer.properties file (demo/conf/streamer.properties, or its upload)
#   $2  the SQL file (demo/conf/join.sql, or its upload)
#   $3  the warehouse holding the orders and users sources and the joined target
#   $4  the ordering field: ts (default), or commit_order for a view (docs/views.md)
# shellcheck disable=SC2034 # STREAMER_ARGS is the caller's local
streamer_job_args() {
  local props="$1" sql="$2" warehouse="$3" ordering="${4:-ts}"
  STREAMER_ARGS=(
    --props "${props}"
    --target-base-path "${warehouse}/joined"
    --target-table joined
    --table-type COPY_ON_WRITE
    --op UPSERT
    --source-ordering-field "${ordering}"
    --hoodie-conf "hoodie.datasource.write.precombine.field=${ordering}"
    --source-class org.apache.hudi.utilities.sources.HoodieIncrMultiSource
    --transformer-class org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer
    --hoodie-conf "hoodie.streamer.source.hudi.orders.path=${warehouse}/orders"
    --hoodie-conf "hoodie.streamer.source.hudi.users.path=${warehouse}/users"
    --hoodie-conf "hoodie.streamer.transformer.sql.file=${sql}"
  )
}

# The position of table $2 in a multi-table checkpoint $1 ("orders=2026...,users=2026...").
position_of() { tr ',' '\n' <<< "$1" | sed -n "s/^$2=//p"; }
