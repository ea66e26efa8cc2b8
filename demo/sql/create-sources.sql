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

-- Round 1 of the demo: creates the two source Hudi tables and writes their first rows.
-- Run by RunSparkSql.java; ${DEMO_DIR} is replaced by the demo's work directory before Spark sees the SQL.

-- orders: COPY_ON_WRITE, one row per order_id; on equal keys the row with the greater ts wins.
CREATE TABLE orders (order_id STRING, user_id STRING, amount DOUBLE, ts BIGINT)
USING hudi
LOCATION '${DEMO_DIR}/orders'
TBLPROPERTIES (type = 'cow', primaryKey = 'order_id', preCombineField = 'ts');

-- users: MERGE_ON_READ (updates go to log files), one row per user_id.
CREATE TABLE users (user_id STRING, user_name STRING, ts BIGINT)
USING hudi
LOCATION '${DEMO_DIR}/users'
TBLPROPERTIES (type = 'mor', primaryKey = 'user_id', preCombineField = 'ts');

-- One commit on each table.
INSERT INTO orders VALUES
  ('o1', 'u1', 10.0, 1),
  ('o2', 'u2', 20.0, 1),
  ('o3', 'u1', 30.0, 1);

INSERT INTO users VALUES
  ('u1', 'alice', 1),
  ('u2', 'bob', 1);

SELECT order_id, user_id, amount, ts, _hoodie_commit_time FROM orders ORDER BY order_id;

SELECT user_id, user_name, ts, _hoodie_commit_time FROM users ORDER BY user_id;
