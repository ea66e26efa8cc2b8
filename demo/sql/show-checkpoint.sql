--
-- Licensed to the Apache Software Foundation (ASF) under one
-- or more contributor license agreements.  See the NOTICE file
-- distributed with this work for additional information
-- regarding copyright ownership.  The ASF licenses this file
-- to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance
-- with the License.  You may obtain a copy of the License at
--
--      http://www.apache.org/licenses/LICENSE-2.0
--
-- Unless required by applicable law or agreed to in writing, software
-- distributed under the License is distributed on an "AS IS" BASIS,
-- WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
-- See the License for the specific language governing permissions and
-- limitations under the License.
--

-- Prints the checkpoint of the target's newest completed commit: "deltastreamer.checkpoint.key" in the commit file
-- .hoodie/<instant>.commit (pretty-printed JSON, the key on a line of its own), read as text, so that it works where
-- the table is not on a local disk. *.commit matches completed commits only (not .commit.requested or .inflight).
-- Run by RunSparkSql.java; ${DEMO_DIR} is replaced by the demo's work directory before Spark sees the SQL.

SELECT regexp_extract(input_file_name(), '([0-9]+)\\.commit$', 1) AS target_commit,
       regexp_extract(value, '"deltastreamer\\.checkpoint\\.key"\\s*:\\s*"([^"]*)"', 1) AS checkpoint
FROM text.`${DEMO_DIR}/joined/.hoodie/*.commit`
WHERE value LIKE '%"deltastreamer.checkpoint.key"%'
ORDER BY target_commit DESC
LIMIT 1;
