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

-- SQL of MultiDatasetSqlFileTransformer (hoodie.streamer.transformer.sql.file) for the demo job.
--
-- What it computes: the rows of the target "joined" (one row per order, with its user's name) that change in this
-- batch, so that after the upsert on order_id the target equals the full join
--     SELECT ... FROM orders JOIN users ON orders.user_id = users.user_id
-- of the current source tables, although each batch reads only what changed since the last checkpoint:
--   * <SRC:orders> holds the orders written since the last checkpoint (new or updated orders). Each joins the
--     CURRENT row of its user (users_now), which may not have changed in this batch.
--   * <SRC:users> holds the users written since the last checkpoint (e.g. a renamed user). Each is pushed to ALL its
--     CURRENT orders (orders_now), which may not have changed in this batch.
-- An order whose row and user both changed comes out of both branches with the same values; Hudi keeps one of them
-- (records are combined on the key before the upsert, greater ts wins). ts = greatest(order ts, user ts) so that the
-- newest version of a joined row always wins.
--
-- <SRC_0> and <SRC:orders> are the same dataset (the first table of hoodie.streamer.source.multi.hudi.tables),
-- <SRC_1> and <SRC:users> the second. The transformer binds them to temporary views of this batch.
--
-- The current snapshots need the base paths of the source tables. ${ORDERS_PATH} and ${USERS_PATH} below are NOT
-- read by Hudi: the demo (run-demo.sh) writes a copy of this file with them replaced by the real paths. To reuse this
-- file, write your paths in their place (e.g. s3://bucket/warehouse/orders).
-- Statements end with ';'. Only the result of the last statement is written to the target.

CREATE OR REPLACE TEMPORARY VIEW users_now USING hudi OPTIONS (path '${USERS_PATH}');

CREATE OR REPLACE TEMPORARY VIEW orders_now USING hudi OPTIONS (path '${ORDERS_PATH}');

-- Changed orders, with the current name of their user.
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM <SRC:orders> o JOIN users_now u ON o.user_id = u.user_id
UNION ALL
-- Changed users, pushed to all their current orders.
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM orders_now o JOIN <SRC:users> u ON o.user_id = u.user_id;
