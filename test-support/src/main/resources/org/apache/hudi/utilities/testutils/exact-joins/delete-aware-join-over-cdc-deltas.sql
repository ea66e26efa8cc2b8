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

-- orders added or changed: with their user as of the checkpoint, or deleted if it has none
SELECT o.after.order_id, o.after.user_id, o.after.amount, u.user_name, greatest(o.after.ts, u.ts) AS ts,
       0 AS commit_order, u.user_id IS NULL AS _hoodie_is_deleted
FROM <SRC:orders> o LEFT JOIN <SNAP:users> u ON o.after.user_id = u.user_id WHERE o.op <> 'd'
UNION ALL  -- orders deleted from the source
SELECT o.before.order_id, o.before.user_id, o.before.amount, CAST(NULL AS STRING), o.before.ts, 0, true
FROM <SRC:orders> o WHERE o.op = 'd'
UNION ALL  -- orders of users added or changed
SELECT s.order_id, s.user_id, s.amount, u.after.user_name, greatest(s.ts, u.after.ts), 0, false
FROM <SNAP:orders> s JOIN <SRC:users> u ON s.user_id = u.after.user_id WHERE u.op <> 'd'
UNION ALL  -- orders of users deleted from the source
SELECT s.order_id, s.user_id, s.amount, CAST(NULL AS STRING), s.ts, 0, true
FROM <SNAP:orders> s JOIN <SRC:users> u ON s.user_id = u.before.user_id WHERE u.op = 'd';
