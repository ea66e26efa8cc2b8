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

-- Round 2 of the demo, written between the two Streamer runs: a new order, an updated order, a renamed user.
-- Run by RunSparkSql.java; ${DEMO_DIR} is replaced by the demo's work directory before Spark sees the SQL.

-- This is a new Spark session with an empty catalog: register the existing tables again (schema, type and keys
-- are read from the tables themselves).
CREATE TABLE IF NOT EXISTS orders USING hudi LOCATION '${DEMO_DIR}/orders';
CREATE TABLE IF NOT EXISTS users USING hudi LOCATION '${DEMO_DIR}/users';

-- A new order of bob (u2), who does not change: the Streamer must join it with bob's current row.
INSERT INTO orders VALUES ('o4', 'u2', 40.0, 2);

-- An update of an existing order.
UPDATE orders SET amount = 11.0, ts = 2 WHERE order_id = 'o1';

-- alice (u1) is renamed: the Streamer must push the new name to all her orders, o3 included, which did not change.
UPDATE users SET user_name = 'alicia', ts = 2 WHERE user_id = 'u1';

SELECT order_id, user_id, amount, ts, _hoodie_commit_time FROM orders ORDER BY order_id;

SELECT user_id, user_name, ts, _hoodie_commit_time FROM users ORDER BY user_id;
