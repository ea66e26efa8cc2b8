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

-- The demo's join as a view (bash demo/run-demo.sh --view): the query over whole tables, written once. The plugin
-- derives each batch's rows from it, deletes included, and keeps the target equal to this query over orders and users
-- as of the committed checkpoint. The job orders records by commit_order, which the view adds to every row
-- (docs/views.md).
SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts
FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id
