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

-- Prints the target table written by the Streamer and checks it: after every round it must equal the full join of
-- the current source tables (the incremental delta join must not miss or keep any stale row).
-- Run by RunSparkSql.java; ${DEMO_DIR} is replaced by the demo's work directory before Spark sees the SQL.

CREATE OR REPLACE TEMPORARY VIEW joined USING hudi OPTIONS (path '${DEMO_DIR}/joined');
CREATE OR REPLACE TEMPORARY VIEW orders_now USING hudi OPTIONS (path '${DEMO_DIR}/orders');
CREATE OR REPLACE TEMPORARY VIEW users_now USING hudi OPTIONS (path '${DEMO_DIR}/users');

SELECT order_id, user_id, amount, user_name, ts, _hoodie_commit_time FROM joined ORDER BY order_id;

-- The expected target, computed from scratch.
CREATE OR REPLACE TEMPORARY VIEW expected AS
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM orders_now o JOIN users_now u ON o.user_id = u.user_id;

-- Fails the demo (raise_error) unless the target holds exactly the expected rows.
SELECT CASE WHEN count(*) = 0
            THEN concat('OK: the target equals the full join of the current orders and users (',
                        (SELECT count(*) FROM joined), ' rows)')
            ELSE raise_error(concat('the target differs from the full join of the current sources in ',
                                    count(*), ' rows'))
       END AS check_target
FROM (
  (SELECT order_id, user_id, amount, user_name, ts FROM joined EXCEPT ALL SELECT * FROM expected)
  UNION ALL
  (SELECT * FROM expected EXCEPT ALL SELECT order_id, user_id, amount, user_name, ts FROM joined)
);
