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
-- batch, so that after the upsert on order_id the target equals the join
--     SELECT ... FROM orders JOIN users ON orders.user_id = users.user_id
-- of the source tables as of the checkpoint this batch commits, although each batch reads only what changed:
--   * <SRC:orders> holds the orders written since the last checkpoint (new or updated orders). Each joins its user
--     as of the position this batch commits for users (<SNAP:users>), which may not have changed in this batch.
--   * <SRC:users> holds the users written since the last checkpoint (e.g. a renamed user). Each is pushed to all its
--     orders as of the position this batch commits for orders (<SNAP:orders>).
-- <SNAP:...> is read with Hudi time travel at exactly the committed instant, so the result never includes a commit
-- that the checkpoint does not record. An order whose row and user both changed comes out of both branches with the
-- same values; records are combined on the key before the upsert. ts = greatest(order ts, user ts) so that the newest
-- version of a joined row wins. The demo's target is COPY_ON_WRITE, which takes the incoming row whatever its ts; a
-- MERGE_ON_READ target needs the recipes' commit_order ordering field (docs/exact-joins.md, "The ordering field").
--
-- <SRC_0>, <SRC:orders> are the first table of hoodie.streamer.source.multi.hudi.tables; <SRC_1>, <SRC:users> the
-- second. Statements end with ';'. Only the result of the last statement is written to the target.

-- Changed orders, with their user as of this batch's checkpoint.
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM <SRC:orders> o JOIN <SNAP:users> u ON o.user_id = u.user_id
UNION ALL
-- Changed users, pushed to all their orders as of this batch's checkpoint.
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM <SNAP:orders> o JOIN <SRC:users> u ON o.user_id = u.user_id;
